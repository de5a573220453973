// zlib: a prerequisite of the Swift toolchain on Linux (zlib1g-dev) and part of macOS's SDK.
#include <zlib.h>

#!/usr/bin/env bash
# One backup of Plaza's database into BACKUP_DIR, named by UTC time; copies older than BACKUP_KEEP_DAYS go.
# Run by plaza-backup.service (as the plaza user, with /etc/plaza/plaza.env), or by hand the same way:
#   systemctl start plaza-backup.service && journalctl -u plaza-backup -n 20
# SQLite: `plaza backup` (VACUUM INTO: one consistent snapshot while the server runs).
# PostgreSQL: pg_dump in its custom format (restore with pg_restore; see deploy/README.md).
set -euo pipefail

# Not PLAZA_BACKUP_DIR's folder: `plaza serve` manages the files there by their names.
BACKUP_DIR=${BACKUP_DIR:-/var/backups/plaza/daily}
BACKUP_KEEP_DAYS=${BACKUP_KEEP_DAYS:-14}
PLAZA=${PLAZA:-/usr/local/bin/plaza}
URL=${PLAZA_DATABASE_URL:?PLAZA_DATABASE_URL is not set: is /etc/plaza/plaza.env read?}
STAMP=$(date -u +%Y%m%dT%H%M%SZ)

mkdir -p "$BACKUP_DIR"
case "$URL" in
sqlite:*)
    # `plaza backup` refuses an existing file, so a name is never reused.
    target="$BACKUP_DIR/plaza-$STAMP.sqlite"
    "$PLAZA" backup "$target"
    if command -v sqlite3 > /dev/null; then
        check=$(sqlite3 "$target" 'PRAGMA integrity_check;')
        if [ "$check" != ok ]; then
            mv "$target" "$BACKUP_DIR/plaza-$STAMP.failed.sqlite"
            echo "plaza-backup: $target failed its integrity check: $check" >&2
            exit 1
        fi
    fi
    ;;
postgres://* | postgresql://*)
    # libpq refuses Plaza's own query parameters (pool_size, search_path): keep only sslmode.
    base=${URL%%\?*}
    sslmode=$(printf '%s\n' "$URL" | sed -n 's/.*[?&]sslmode=\([a-z-]*\).*/\1/p')
    target="$BACKUP_DIR/plaza-$STAMP.dump"
    # Written under another name first: a dump cut short never looks like a good one.
    pg_dump --format=custom --no-owner --file="$target.partial" \
        --dbname="$base${sslmode:+?sslmode=$sslmode}"
    # A dump pg_restore cannot list is no backup.
    pg_restore --list "$target.partial" > /dev/null
    mv "$target.partial" "$target"
    ;;
*)
    echo "plaza-backup: PLAZA_DATABASE_URL is neither sqlite: nor postgres://" >&2
    exit 78
    ;;
esac
chmod 0600 "$target"
echo "plaza-backup: wrote $target ($(du -h "$target" | cut -f1))"

# Only files with these names are removed; anything else in the folder stays.
find "$BACKUP_DIR" -maxdepth 1 -type f \( -name 'plaza-*.sqlite' -o -name 'plaza-*.dump' \) \
    -mtime +"$BACKUP_KEEP_DAYS" -print -delete
find "$BACKUP_DIR" -maxdepth 1 -type f -name 'plaza-*.partial' -mtime +1 -print -delete

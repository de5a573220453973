#!/usr/bin/env bash
# Rolls a new Plaza binary through the instances behind nginx, one at a time, with no downtime:
#
#   deploy/rolling-upgrade.sh /tmp/plaza-build               # plaza@8081, plaza@8082, plaza@8083
#   PORTS="8081 8082" deploy/rolling-upgrade.sh /tmp/plaza-build
#   deploy/rolling-upgrade.sh --no-backup /tmp/plaza-build   # a backup was taken by other means just now
#
# The folder is a release build's output (`.build/release` or a copy of its `plaza` and
# `Plaza_PlazaServer.resources`: the binary finds its templates and assets beside its real path). It is copied to
# /opt/plaza/releases/<UTC time>/ and /opt/plaza/current is pointed at it; /usr/local/bin/plaza is a link to
# /opt/plaza/current/plaza, and /opt/plaza/previous keeps the release before.
#
# Run as root on the host of the instances (deploy/plaza@.service). Per instance: `systemctl restart` sends SIGTERM;
# Plaza stops accepting, answers what is in flight (PLAZA_SHUTDOWN_SECONDS) and exits, while nginx sends new
# requests to the others (a refused connection goes to the next server: proxy_next_upstream). The new process
# migrates the database at start (once: an advisory lock) and the unit's start ends when /readyz says 200; this
# script checks /readyz again before it moves on. Nginx OSS does no active health checks: it learns of a
# stopped process from the refused connection, and of the new one from its next request, once the stopped one's
# fail_timeout is over: so the script waits SETTLE_SECONDS after each instance is ready before the next.
#
# The old processes keep running on the migrated schema until their turn: a release's notes say when its
# migrations need all processes stopped first. The release before stays in /opt/plaza/previous; an old
# binary refuses a database with migrations it does not know, so going back past a migration means restoring the
# backup this script takes first (deploy/README.md, "Upgrades and rollback").
set -euo pipefail

ROOT=/opt/plaza
RESOURCES=Plaza_PlazaServer.resources
PORTS=${PORTS:-8081 8082 8083}
READY_SECONDS=${READY_SECONDS:-90}
# nginx skips a process for fail_timeout (5 s in nginx.conf) after a refused request, also once it is back: stopping
# the next one sooner can leave nginx with none it will use (every request 502, "no live upstreams").
SETTLE_SECONDS=${SETTLE_SECONDS:-6}
backup=yes

usage() {
    echo "usage: $0 [--no-backup] BUILD_FOLDER" >&2
    exit 64
}

while [ $# -gt 0 ]; do
    case "$1" in
    --no-backup) backup=no; shift ;;
    -h | --help) usage ;;
    -*) usage ;;
    *) break ;;
    esac
done
[ $# -eq 1 ] || usage
build=${1%/}
if [ ! -x "$build/plaza" ] || [ ! -d "$build/$RESOURCES" ]; then
    echo "rolling-upgrade: $build holds no plaza binary with its $RESOURCES beside it" >&2
    exit 66
fi

# Whether 127.0.0.1:PORT/readyz answers 200 within READY_SECONDS.
wait_ready() {
    local port=$1 deadline=$((SECONDS + READY_SECONDS))
    while [ "$SECONDS" -lt "$deadline" ]; do
        if curl --silent --fail --output /dev/null --max-time 2 "http://127.0.0.1:$port/readyz"; then
            return 0
        fi
        sleep 1
    done
    return 1
}

# Every instance must be ready before we start: rolling through a half-broken set takes the rest down.
for port in $PORTS; do
    wait_ready "$port" || { echo "rolling-upgrade: plaza@$port is not ready now; nothing changed" >&2; exit 69; }
done

# The database as it was before this release's migrations: the only way back past them.
if [ "$backup" = yes ]; then
    echo "rolling-upgrade: backing up (plaza-backup.service) ..."
    systemctl start plaza-backup.service
fi

# The release in a folder of its own, then one rename of a link: a process starting meanwhile finds the old
# release or the new one whole, never half of each.
release="$ROOT/releases/$(date -u +%Y%m%dT%H%M%SZ)"
install -d -m 0755 "$release"
cp -R "$build/plaza" "$build/$RESOURCES" "$release/"
chmod -R a+rX,go-w "$release"
if [ -L "$ROOT/current" ]; then ln -sfn "$(readlink "$ROOT/current")" "$ROOT/previous"; fi
ln -sfn "$release" "$ROOT/current.new"
mv -T "$ROOT/current.new" "$ROOT/current"
ln -sfn "$ROOT/current/plaza" /usr/local/bin/plaza
echo "rolling-upgrade: $release is current (the one before: $(readlink "$ROOT/previous" 2>/dev/null || echo none))"

first=yes
for port in $PORTS; do
    if [ "$first" = no ]; then sleep "$SETTLE_SECONDS"; fi
    first=no
    echo "rolling-upgrade: restarting plaza@$port ..."
    started=$SECONDS
    if ! systemctl restart "plaza@$port"; then
        echo "rolling-upgrade: plaza@$port did not start; the others still run the old binary." >&2
        echo "  journalctl -u plaza@$port -n 50   shows why; see deploy/README.md, Upgrades and rollback." >&2
        exit 1
    fi
    if ! wait_ready "$port"; then
        echo "rolling-upgrade: plaza@$port is not ready after ${READY_SECONDS}s; stopping here." >&2
        exit 1
    fi
    echo "rolling-upgrade: plaza@$port ready in $((SECONDS - started))s"
done
echo "rolling-upgrade: done; the new binary serves on ports $PORTS"

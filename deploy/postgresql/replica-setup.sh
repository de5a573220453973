#!/usr/bin/env bash
# Makes this machine a streaming replica of the Plaza primary. Run as root on the replica, with PostgreSQL of the
# primary's major version installed and its cluster stopped. Read each step first: step 3 deletes this machine's
# data folder.
#
#   PRIMARY=10.0.0.11 REPLICATOR_PASSWORD='...' deploy/postgresql/replica-setup.sh
#
# Before it, on the primary: primary.conf in place (and PostgreSQL restarted), pg_hba-replication.conf's lines in
# pg_hba.conf (and reloaded), and the replication role (this script prints the statement to run there).
set -euo pipefail

PRIMARY=${PRIMARY:?set PRIMARY to the address of the primary, such as 10.0.0.11}
REPLICATOR_PASSWORD=${REPLICATOR_PASSWORD:?set REPLICATOR_PASSWORD to the password of the replicator role}
SLOT=${SLOT:-plaza_replica}
VERSION=${PG_VERSION:-16}
DATA=${PGDATA:-/var/lib/postgresql/$VERSION/main}
CLUSTER_CONF=${CLUSTER_CONF:-/etc/postgresql/$VERSION/main}

# 1. On the primary (once): the role the replica logs in as.
cat <<SQL
On the primary, as postgres, if not done yet:
  CREATE ROLE replicator WITH REPLICATION LOGIN PASSWORD '...';
SQL

# 2. The password where libpq finds it (not on the command line, where `ps` shows it). The file is the postgres
#    user's; the replica keeps using it to stream.
PGPASS=~postgres/.pgpass
install -o postgres -g postgres -m 0600 /dev/null "$PGPASS"
printf '%s:5432:replication:replicator:%s\n' "$PRIMARY" "$REPLICATOR_PASSWORD" > "$PGPASS"

# 3. This machine's cluster stopped and emptied: the base backup needs an empty folder.
systemctl stop "postgresql@$VERSION-main"
rm -rf "${DATA:?}"
install -d -o postgres -g postgres -m 0700 "$DATA"

# 4. A copy of the primary, streaming the WAL written meanwhile (-X stream); -C -S makes a replication slot so the
#    primary keeps WAL this replica has not received; -R writes standby.signal and primary_conninfo, so it starts
#    as a replica. `application_name` is the name synchronous_standby_names uses.
runuser -u postgres -- pg_basebackup \
    --host="$PRIMARY" --username=replicator --pgdata="$DATA" \
    --wal-method=stream --create-slot --slot="$SLOT" --write-recovery-conf \
    --checkpoint=fast --progress \
    --dbname="application_name=$SLOT sslmode=require"

# 5. The replica's own settings: the same as the primary's (it may become the primary), hot standby for reads.
install -m 0644 "$(dirname "$0")/primary.conf" "$CLUSTER_CONF/conf.d/plaza-primary.conf"

# 6. Start it and check that it streams.
systemctl start "postgresql@$VERSION-main"
sleep 3
runuser -u postgres -- psql --no-psqlrc --tuples-only \
    --command="SELECT status, sender_host FROM pg_stat_wal_receiver;"
echo "On the primary, SELECT application_name, state, sync_state FROM pg_stat_replication; should list $SLOT."

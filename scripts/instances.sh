# Sourced by the scripts here: local instances of the service on this machine's PostgreSQL and Redis, in a
# schema (and Redis prefix) of their own. Set NAME (a label) and EXTRA_ENV (more VAR=value pairs) first;
# PG_PORT and REDIS_PORT choose the servers (default 5432 and 6379).
PG_PORT=${PG_PORT:-5432}
REDIS_PORT=${REDIS_PORT:-6379}
SCHEMA=${NAME}_$(date +%s)
INSTANCE_ENV="DATABASE_URL=postgres://postgres@127.0.0.1:$PG_PORT/test DATABASE_SCHEMA=$SCHEMA REDIS_URL=redis://127.0.0.1:$REDIS_PORT REDIS_PREFIX=$SCHEMA: LOG_LEVEL=warn ${EXTRA_ENV:-}"

# start ROLE PORT: starts an instance in the background (log in /tmp/NAME-PORT.log) and prints its pid.
start() { env $INSTANCE_ENV ROLE=$1 PORT=$2 DATA_DIR=/tmp/$NAME-$2 node dist/src/main.js > /tmp/$NAME-$2.log 2>&1 & echo $!; }

# wait_healthy PORT...: until each is ready (/health/ready answers 200; at most a minute each).
wait_healthy() { for p in "$@"; do for _ in $(seq 1 60); do curl -sf localhost:$p/api/v1/health/ready >/dev/null && break; sleep 1; done; done; }

# drop_schema: removes what the instances stored (stop them first).
drop_schema() { psql -h 127.0.0.1 -p $PG_PORT -U postgres -d test -qc "drop schema \"$SCHEMA\" cascade" 2>&1 | tail -1; }

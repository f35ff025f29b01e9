#!/bin/bash
# Fault drill on a real deployment shape: two workers and two api instances on PostgreSQL and Redis, under a
# read load; then Redis is shut down and restarted, PostgreSQL is stopped and started, and the active worker is
# killed with SIGKILL, printing at each step the board size on every instance, the status of an /odds read and
# what /health says. Every read of the load that is not 2xx is recorded and counted per step at the end.
#
# By default the drill runs its own throwaway servers (a PostgreSQL cluster on port 5433 made with
# pg_createcluster, a Redis on port 6380) and removes them afterwards, so the machine's servers are untouched.
# DRILL_SERVERS=local uses the machine's PostgreSQL (5432) and Redis (6379) instead AND STOPS THEM during the
# drill. Needs `npm run build` first and Debian's postgresql-common tools.
# Usage: bash scripts/fault-drill.sh
set -u
cd "$(dirname "$0")/.."
PGVER=$(ls /etc/postgresql | head -1)
if [ "${DRILL_SERVERS:-private}" = local ]; then
  PG_PORT=5432 REDIS_PORT=6379 CLUSTER=main
else
  PG_PORT=5433 REDIS_PORT=6380 CLUSTER=drill
  pg_dropcluster --stop "$PGVER" drill 2>/dev/null
  pg_createcluster "$PGVER" drill -p $PG_PORT -- --auth=trust >/dev/null || exit 1
  pg_ctlcluster --skip-systemctl-redirect "$PGVER" drill start || exit 1
  psql -h 127.0.0.1 -p $PG_PORT -U postgres -qc "create database test" || exit 1
  redis-server --daemonize yes --bind 127.0.0.1 --port $REDIS_PORT --save "" --appendonly no >/dev/null
fi
pg() { pg_ctlcluster --skip-systemctl-redirect "$PGVER" $CLUSTER "$1"; }
redis_up() { redis-server --daemonize yes --bind 127.0.0.1 --port $REDIS_PORT --save "" --appendonly no >/dev/null; }

NAME=drill EXTRA_ENV="API_KEYS=enterprise:sk_drill_ent_0001 ENTERPRISE_REQUESTS_PER_MINUTE=1000000 SIMULATOR_EVENTS=120"
. scripts/instances.sh
STEPS=/tmp/drill-steps.log; FAILS=/tmp/drill-fails.jsonl
: > $STEPS
step() { echo "$(date +%s%3N) $1" >> $STEPS; echo "== $1"; }
W1=$(start worker 4301); sleep 1; W2=$(start worker 4302)
wait_healthy 4301 4302
A1=$(start api 4303); A2=$(start api 4304)
wait_healthy 4303 4304
KEY=sk_drill_ent_0001; H="X-API-Key: $KEY"
rows() { curl -s localhost:$1/metrics | grep '^board_rows ' | awk '{print $2}'; }
health() { curl -s -o /tmp/h.json -w "%{http_code}" localhost:$1/api/v1/health; echo " $(node -e 'const j=require("/tmp/h.json");console.log(j.status, JSON.stringify(Object.fromEntries(Object.entries(j.checks||{}).map(([k,v])=>[k,v.status]))))')"; }
odds() { curl -s -o /dev/null -w "%{http_code}" -H "$H" "localhost:$1/api/v1/odds?limit=100"; }
state() { echo "  rows w1=$(rows 4301) w2=$(rows 4302) a1=$(rows 4303) a2=$(rows 4304); odds a1=$(odds 4303) a2=$(odds 4304); health a1=$(health 4303)"; }
node scripts/drill-load.mjs $FAILS $KEY 150 8 "http://127.0.0.1:4303/api/v1/odds?limit=50" "http://127.0.0.1:4304/api/v1/odds/best?limit=50" &
LOAD=$!
step "steady"; sleep 10; state
step "redis killed"; redis-cli -p $REDIS_PORT shutdown nosave >/dev/null 2>&1; sleep 8; state
redis_up; step "redis back"; sleep 12; state
step "postgres stopped"; pg stop; sleep 10; state
pg start; step "postgres back"; sleep 15; state
active() { curl -s localhost:$1/metrics | grep '^worker_active ' | awk '{print $2}'; }
if [ "$(active 4301)" = "1" ]; then OLD=$W1; NEW=4302; else OLD=$W2; NEW=4301; fi
step "kill -9 active worker (standby is $NEW)"; kill -9 $OLD; t0=$(date +%s.%N)
for i in $(seq 1 200); do [ "$(active $NEW)" = "1" ] && break; sleep 0.1; done
echo "  standby active after $(echo "$(date +%s.%N) - $t0" | bc) s"
sleep 10; state
step "after failover"
wait $LOAD
echo "== reads not 2xx, per step"
node -e '
const fs = require("fs");
const steps = fs.readFileSync(process.argv[1], "utf8").trim().split("\n").map((l) => { const i = l.indexOf(" "); return { t: +l.slice(0, i), name: l.slice(i + 1) }; });
const lines = fs.readFileSync(process.argv[2], "utf8").trim().split("\n").map((l) => JSON.parse(l));
const totals = lines.pop();
const per = new Map(steps.map((s) => [s.name, new Map()]));
for (const f of lines) {
  const s = [...steps].reverse().find((x) => x.t <= f.t) ?? steps[0];
  const k = `${new URL(f.url).port} ${f.status} ${f.body.replace(/\s+/g, " ").slice(0, 120)}`;
  per.get(s.name).set(k, (per.get(s.name).get(k) ?? 0) + 1);
}
for (const [name, m] of per) { console.log(`  ${name}: ${[...m.values()].reduce((a, b) => a + b, 0)}`); for (const [k, n] of m) console.log(`    ${n} x ${k}`); }
console.log(`  reads: ${totals.total}, 2xx: ${totals.ok}, not 2xx: ${totals.failed}`);
' $STEPS $FAILS
sleep 5; echo "== final (market still moving)"; state
echo "  db rows: $(psql -h 127.0.0.1 -p $PG_PORT -U postgres -d test -tAc "select count(*) from \"$SCHEMA\".odds")"
kill $W1 $W2 $A1 $A2 2>/dev/null; sleep 5
drop_schema
if [ "$CLUSTER" = drill ]; then
  redis-cli -p $REDIS_PORT shutdown nosave >/dev/null 2>&1
  pg_dropcluster --stop "$PGVER" drill
fi

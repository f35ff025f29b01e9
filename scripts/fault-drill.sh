#!/bin/bash
# Fault drill on a real deployment shape: two workers and two api instances on this machine's PostgreSQL and
# Redis, under a light read load; then Redis is shut down and restarted, PostgreSQL is stopped and started,
# and the active worker is killed with SIGKILL, printing at each step the board size on every instance, the
# status of an /odds read and what /health says. THIS STOPS THE LOCAL POSTGRESQL AND REDIS SERVERS: run it on
# a development machine only, with nothing else using them. Needs `npm run build` first.
# Usage: bash scripts/fault-drill.sh
set -u
cd "$(dirname "$0")/.."

NAME=drill EXTRA_ENV="API_KEYS=enterprise:sk_drill_ent_0001 ENTERPRISE_REQUESTS_PER_MINUTE=1000000 SIMULATOR_EVENTS=120"
. scripts/instances.sh
W1=$(start worker 4301); sleep 1; W2=$(start worker 4302)
wait_healthy 4301 4302
A1=$(start api 4303); A2=$(start api 4304)
wait_healthy 4303 4304
H="X-API-Key: sk_drill_ent_0001"
rows() { curl -s localhost:$1/metrics | grep '^board_rows ' | awk '{print $2}'; }
health() { curl -s -o /tmp/h.json -w "%{http_code}" localhost:$1/api/v1/health; echo " $(node -e 'const j=require("/tmp/h.json");console.log(j.status, JSON.stringify(Object.fromEntries(Object.entries(j.checks||{}).map(([k,v])=>[k,v.status]))))')"; }
odds() { curl -s -o /dev/null -w "%{http_code}" -H "$H" "localhost:$1/api/v1/odds?limit=100"; }
state() { echo "  rows w1=$(rows 4301) w2=$(rows 4302) a1=$(rows 4303) a2=$(rows 4304); odds a1=$(odds 4303) a2=$(odds 4304); health a1=$(health 4303)"; }
npx autocannon -c 8 -d 150 -H "$H" "http://127.0.0.1:4303/api/v1/odds?limit=50" > /tmp/drill-ac1.log 2>&1 &
npx autocannon -c 8 -d 150 -H "$H" "http://127.0.0.1:4304/api/v1/odds/best?limit=50" > /tmp/drill-ac2.log 2>&1 &
sleep 10; echo "== steady"; state
echo "== redis killed"; redis-cli shutdown nosave >/dev/null 2>&1; sleep 8; state
redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no >/dev/null; sleep 12; echo "== redis back"; state
echo "== postgres stopped"; pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main stop; sleep 10; state
pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start; sleep 15; echo "== postgres back"; state
active() { curl -s localhost:$1/metrics | grep '^worker_active ' | awk '{print $2}'; }
if [ "$(active 4301)" = "1" ]; then OLD=$W1; NEW=4302; else OLD=$W2; NEW=4301; fi
echo "== kill -9 active worker (standby is $NEW)"; kill -9 $OLD; t0=$(date +%s.%N)
for i in $(seq 1 200); do [ "$(active $NEW)" = "1" ] && break; sleep 0.1; done
echo "  standby active after $(echo "$(date +%s.%N) - $t0" | bc) s"
sleep 10; state
wait %1 %2 2>/dev/null
echo "== load results"; grep -E "Req/Sec|Latency|requests in|non 2xx|errors" /tmp/drill-ac1.log /tmp/drill-ac2.log
sleep 5; echo "== final (market still moving)"; state
echo "  db rows: $(psql -h 127.0.0.1 -U postgres -d test -tAc "select count(*) from \"$SCHEMA\".odds")"
kill $W1 $W2 $A1 $A2 2>/dev/null; sleep 5
drop_schema

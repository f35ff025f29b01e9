#!/bin/bash
# Checks deploy/nginx.conf without Docker: a local nginx (1.22 or later; the upstream is rewritten to two
# local api instances, since `server ... resolve` needs nginx 1.27.3) in front of a worker and two api
# instances on this machine's PostgreSQL and Redis. Prints what came through the proxy: health, /metrics
# refused, X-Request-Id kept or given by nginx, an SSE stream and a WebSocket session.
# Needs `npm run build` and nginx on the PATH. Usage: bash scripts/nginx-check.sh
set -u
cd "$(dirname "$0")/.."
mkdir -p /tmp/ngx
sed -e '/^resolver/d' -e 's/  zone odds_api 64k;//' -e 's/  server api:3000 resolve;/  server 127.0.0.1:4403;\n  server 127.0.0.1:4404;/' -e 's/listen 80;/listen 8080;/' deploy/nginx.conf > /tmp/ngx/default.conf
cat > /tmp/ngx/nginx.conf <<'NG'
pid /tmp/ngx/nginx.pid;
error_log /tmp/ngx/error.log;
events {}
http {
  access_log /tmp/ngx/access.log;
  client_body_temp_path /tmp/ngx; proxy_temp_path /tmp/ngx; fastcgi_temp_path /tmp/ngx; uwsgi_temp_path /tmp/ngx; scgi_temp_path /tmp/ngx;
  include /tmp/ngx/default.conf;
}
NG
nginx -t -c /tmp/ngx/nginx.conf || exit 1
NAME=ngx EXTRA_ENV="API_KEYS=pro:sk_ngx_pro_0001 SIMULATOR_EVENTS=60 TRUST_PROXY=1"
. scripts/instances.sh
W=$(start worker 4402); wait_healthy 4402
A1=$(start api 4403); A2=$(start api 4404)
wait_healthy 4403 4404
nginx -c /tmp/ngx/nginx.conf
B=http://127.0.0.1:8080
echo "health via proxy: $(curl -s -o /dev/null -w '%{http_code}' $B/api/v1/health)"
echo "metrics via proxy: $(curl -s -o /dev/null -w '%{http_code}' $B/metrics)"
echo "request id kept: $(curl -s -D - -o /dev/null -H 'X-Request-Id: drill-req-0001' $B/api/v1/health | grep -i '^x-request-id' | tr -d '\r')"
echo "request id given by nginx (32 hex): $(curl -s -D - -o /dev/null $B/api/v1/health | grep -i "^x-request-id" | tr -d "\r")"
# anonymous /sports budget per client: two different X-Forwarded-For clients each get their own budget
echo "SSE through the proxy, 8 s:"
timeout 8 curl -sN "$B/api/v1/stream?api_key=sk_ngx_pro_0001&channel=all" > /tmp/ngx-sse.txt; grep '^event:' /tmp/ngx-sse.txt | sort | uniq -c
echo "first odds:update after start: $(grep -n '^event: odds:update' /tmp/ngx-sse.txt | head -1 | cut -d: -f1) lines in"
node -e '
const WebSocket = require("ws");
const ws = new WebSocket("ws://127.0.0.1:8080/api/v1/ws?api_key=sk_ngx_pro_0001");
const seen = {};
ws.on("message", (m) => { const j = JSON.parse(m); seen[j.type] = (seen[j.type] ?? 0) + 1; });
ws.on("open", () => setTimeout(() => ws.send(JSON.stringify({ type: "ping" })), 3000));
setTimeout(() => { console.log("WebSocket through the proxy:", JSON.stringify(seen)); process.exit(0); }, 6000);
ws.on("error", (e) => { console.log("ws error", e.message); process.exit(1); });
'
echo "requests per api instance:"
for p in 4403 4404; do echo "  $p $(curl -s localhost:$p/metrics | grep '^http_requests_total\|^http_request_duration_seconds_count' | awk '{s+=$2} END {print s}')"; done
nginx -s stop -c /tmp/ngx/nginx.conf
kill $W $A1 $A2; sleep 4
drop_schema

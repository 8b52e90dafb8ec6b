#!/usr/bin/env bash
# Smoke run of the quick start: `npm start` on a fresh DATA_DIR answers /health with the demo data;
# data written through the admin API survives kill -9 and a restart.
set -euo pipefail
cd "$(dirname "$0")/.."

DATA_DIR="$(mktemp -d -t sandbox-smoke.XXXXXX)"
PORT="$(node -e 'const s=require("net").createServer(); s.listen(0,"127.0.0.1",()=>{console.log(s.address().port); s.close()})')"
ADMIN_API_KEY="smoke-admin-key-$(node -e 'console.log(require("crypto").randomBytes(8).toString("hex"))')"
LOG="${DATA_DIR}.log"
export DATA_DIR PORT ADMIN_API_KEY
unset DATABASE_URL
PID=""

# Signals the service's whole process group and waits until none of it is left: npm can exit before
# the service has closed the database files it still writes under DATA_DIR (rm -rf then races them).
stop() {
  [ -n "$PID" ] || return 0
  kill "-$1" -- "-$PID" 2>/dev/null || true
  for _ in $(seq 1 200); do kill -0 -- "-$PID" 2>/dev/null || break; sleep 0.1; done
  if kill -0 -- "-$PID" 2>/dev/null; then
    kill -KILL -- "-$PID" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 -- "-$PID" 2>/dev/null || break; sleep 0.1; done
  fi
  wait "$PID" 2>/dev/null || true
}
cleanup() { stop TERM; rm -rf "$DATA_DIR"; }
trap cleanup EXIT

start() {
  set -m
  npm start >>"$LOG" 2>&1 &
  PID=$!
  set +m
  for _ in $(seq 1 120); do
    if curl -sf "http://127.0.0.1:${PORT}/health" >/dev/null; then return 0; fi
    kill -0 "$PID" 2>/dev/null || break
    sleep 0.5
  done
  echo "smoke: the service did not become healthy; its log:" >&2
  tail -n 60 "$LOG" >&2
  return 1
}

admin() { curl -sf -H "Authorization: Bearer ${ADMIN_API_KEY}" -H 'Content-Type: application/json' "$@"; }

start
echo "smoke: healthy on port ${PORT}"
admin "http://127.0.0.1:${PORT}/admin/users/191212121212" | grep -q '"Tolvan Tolvansson"'
test -s "${DATA_DIR}/demo-partner-key"
admin -X PUT "http://127.0.0.1:${PORT}/admin/users/198507099805" -d '{"name":"Smoke Test","kyc_completed":true}' >/dev/null
echo "smoke: demo data present, a user written; kill -9"
stop KILL
PID=""
start
admin "http://127.0.0.1:${PORT}/admin/users/198507099805" | grep -q '"Smoke Test"'
echo "smoke: the user survived kill -9 and a restart"

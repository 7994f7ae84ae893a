#!/bin/bash
# Trace the statements of checkout completes on PostgreSQL (log_statement on a scratch
# database "cotrace"), with the relay off in the serve process (jobs.serve_relay=false):
# what one complete request runs, without the reactions. Needs bin/commerce (make build),
# the local PostgreSQL with its log in /var/log/postgresql and Redis. Writes
# /tmp/trace-N.txt per complete: the request's statements; the background catalog sync
# that follows a reservation (docs/decisions/0229) goes to /tmp/trace-N-sync.txt and the
# api-key cache refresh is left out (bench/trace-split.py).
# Usage: bench/trace-checkout.sh [n completes]   (bin/commerce must be built)
set -e
N=${1:-3}
cd "$(dirname "$0")/.."
DB=cotrace
PORT=18091
psql -h 127.0.0.1 -U postgres -d test -qc "DROP DATABASE IF EXISTS $DB WITH (FORCE)" -c "CREATE DATABASE $DB" -c "ALTER DATABASE $DB SET log_statement = 'all'"
export COMMERCE_ENV=production COMMERCE_CONFIG=$PWD/bench/config.yaml COMMERCE_SECURITY__JWT__SECRET=$(head -c 64 /dev/urandom | base64 | tr -dc a-zA-Z0-9 | head -c 48) DATABASE_URL="postgres://postgres@127.0.0.1:5432/$DB?sslmode=disable" REDIS_URL="redis://127.0.0.1:6379/12" COMMERCE_HTTP__ADDR="127.0.0.1:$PORT" COMMERCE_DATABASE__AUTO_MIGRATE=true COMMERCE_JOBS__SERVE_RELAY=false COMMERCE_RATE_LIMITING__ENABLED=false
bin/commerce serve > /tmp/trace-serve.log 2>&1 &
SP=$!
trap "kill $SP 2>/dev/null" EXIT
for i in $(seq 50); do curl -sf localhost:$PORT/health >/dev/null && break; sleep 0.3; done
bin/commerce seed >/tmp/trace-seed.log 2>&1
KEY=$(bin/commerce api-key create --name t --scopes admin | tail -1)
B=localhost:$PORT/api/v1
PIDS=$(python3 -c '
import json,sys,urllib.request
b,k=sys.argv[1],sys.argv[2]
def g(u): return json.load(urllib.request.urlopen(urllib.request.Request("http://"+b+u,headers={"Authorization":"Bearer "+k})))
out=[]
for p in g("/products?per_page=20&product_type=physical")["data"]:
    d=g("/products/"+p["id"]+"/variants")["data"]
    if d: out.append(p["id"]+":"+d[0]["id"])
print(" ".join(out[:3]))' "$B" "$KEY")
echo "lines: $PIDS"; rm -f /tmp/trace-item.json
LOG=/var/log/postgresql/postgresql-15-main.log
for n in $(seq $N); do
  C=$(curl -s -X POST $B/carts/guest -H 'Content-Type: application/json' -d '{"currency":"USD"}')
  CID=$(echo "$C" | python3 -c 'import sys,json; print(json.load(sys.stdin)["data"]["id"])')
  TOK=$(echo "$C" | python3 -c 'import sys,json; print(json.load(sys.stdin)["data"]["session_token"])')
  for pv in $PIDS; do
    curl -s -o /tmp/trace-item.json -X POST $B/carts/$CID/items -H "X-Session-Token: $TOK" -H 'Content-Type: application/json' -d "{\"product_id\":\"${pv%%:*}\",\"variant_id\":\"${pv##*:}\",\"quantity\":1}"
  done
  curl -s -o /dev/null -X POST $B/checkout/initiate -H "X-Session-Token: $TOK" -H 'Content-Type: application/json' -d "{\"cart_id\":\"$CID\",\"shipping_address\":{\"first_name\":\"B\",\"last_name\":\"B\",\"address1\":\"1 Main St\",\"city\":\"Springfield\",\"postal_code\":\"12345\",\"country_code\":\"US\",\"region_code\":\"IL\"}}"
  sleep 0.3
  START=$(wc -l < $LOG)
  curl -s -X POST $B/checkout/complete -H "X-Session-Token: $TOK" -H 'Content-Type: application/json' -d "{\"cart_id\":\"$CID\",\"customer_email\":\"buyer@example.com\",\"payment_method\":{\"type\":\"card\",\"card\":{\"number\":\"4242424242424242\",\"exp_month\":12,\"exp_year\":2030,\"cvc\":\"123\",\"name\":\"B B\"}}}" | head -c 300; echo
  sleep 0.5
  tail -n +$((START+1)) $LOG | grep "@$DB" | grep -E "LOG:  (statement|execute)" > /tmp/trace-$n-log.txt
  echo "complete $n: $(bench/trace-split.py /tmp/trace-$n.txt /tmp/trace-$n-sync.txt < /tmp/trace-$n-log.txt)"
done

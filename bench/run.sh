#!/usr/bin/env bash
# make bench (issue 8): a reproducible benchmark of the commerce server against a
# minimal Go + pgx reference, on this machine, in one run. See docs/performance.md.
#
# Needs PostgreSQL and Redis (as `make test` does) and the Go toolchain; nothing else is
# installed: the load generator (bench/benchctl) and the reference (bench/reference)
# are built from this repository. The run creates its own database and uses one Redis
# database that must be empty; both are dropped/flushed at the end, and every process it
# started is stopped, also on failure or Ctrl-C.
#
# Settings (environment):
#   BENCH_PG_HOST=127.0.0.1 BENCH_PG_PORT=5432 BENCH_PG_USER=postgres   (BENCH_PG_PASSWORD)
#   BENCH_PG_SOCKET=/var/run/postgresql   (connect the server, the reference and the run
#                            through the Unix socket in that directory instead of TCP)
#   BENCH_REDIS_URL=redis://127.0.0.1:6379 BENCH_REDIS_DB=13
#   BENCH_DURATION=10s BENCH_WARMUP=3s BENCH_CONCURRENCY=32 BENCH_IDLE_PAUSE=10
#   BENCH_PRODUCTS=10000 BENCH_VARIANTS=3 BENCH_CUSTOMERS=1000
#   BENCH_ORDERS=1000000     (orders seeded straight into the statistics tables)
#   BENCH_ONLY=get,list      (scenario keys; default all)
#   BENCH_QUERIES=1          (0 skips the statements-per-request pass)
#   BENCH_PPROF=dir          (a CPU profile of every server scenario: dir/<scenario>.pprof)
#   BENCH_PERF=1             (with BENCH_PPROF: also perf record -a of each window: dir/<scenario>.perf.data)
#   BENCH_WAL_DIR=/var/lib/postgresql/15/main/pg_wal   (with BENCH_PPROF: pg_waldump's record
#                            statistics of each window's WAL: dir/<scenario>.wal.txt)
#   BENCH_TIMELINE=dir       (every measured request's start and latency: dir/<scenario>.timeline.csv)
#   BENCH_PORT=18080 BENCH_REF_PORT=18099 BENCH_QUERIES_PORT=18081 BENCH_PROXY_PORT=15439
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$PWD

PG_HOST=${BENCH_PG_HOST:-127.0.0.1}
PG_PORT=${BENCH_PG_PORT:-5432}
PG_AUTH=${BENCH_PG_USER:-postgres}${BENCH_PG_PASSWORD:+:$BENCH_PG_PASSWORD}
REDIS_BASE=${BENCH_REDIS_URL:-redis://127.0.0.1:6379}
REDIS_DB=${BENCH_REDIS_DB:-13}
DURATION=${BENCH_DURATION:-10s}
WARMUP=${BENCH_WARMUP:-3s}
CONCURRENCY=${BENCH_CONCURRENCY:-32}
IDLE_PAUSE=${BENCH_IDLE_PAUSE:-10}
PRODUCTS=${BENCH_PRODUCTS:-10000}
VARIANTS=${BENCH_VARIANTS:-3}
CUSTOMERS=${BENCH_CUSTOMERS:-1000}
ORDERS=${BENCH_ORDERS:-1000000}
ONLY=${BENCH_ONLY:-}
QUERIES=${BENCH_QUERIES:-1}
PORT=${BENCH_PORT:-18080}
REF_PORT=${BENCH_REF_PORT:-18099}
Q_PORT=${BENCH_QUERIES_PORT:-18081}
PROXY_PORT=${BENCH_PROXY_PORT:-15439}
PROXY_ADMIN_PORT=$((PROXY_PORT + 1))
PPROF_DIR=${BENCH_PPROF:-}
PPROF_PORT=$((PORT + 100))

DB="bench_$(date -u +%Y%m%d%H%M%S)_$$"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/commerce-bench.XXXXXX")
BIN="$WORK/bin"
ADMIN_URL="postgres://$PG_AUTH@$PG_HOST:$PG_PORT/postgres?sslmode=disable"
DB_URL="postgres://$PG_AUTH@$PG_HOST:$PG_PORT/$DB?sslmode=disable"
if [ -n "${BENCH_PG_SOCKET:-}" ]; then
	# The server, the reference and the run's own connections through PostgreSQL's Unix
	# socket in that directory (docs/operations.md: PostgreSQL on the API's host).
	DB_URL="postgres://$PG_AUTH@/$DB?host=$BENCH_PG_SOCKET&port=$PG_PORT&sslmode=disable"
fi
REDIS="$REDIS_BASE/$REDIS_DB"

say() { printf '\n==> %s\n' "$*" >&2; }

# Processes this script started, stopped by their own ids.
PIDS=()
stop() {
	local pid=$1
	if kill -0 "$pid" 2>/dev/null; then
		kill "$pid" 2>/dev/null || true
		for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
		kill -9 "$pid" 2>/dev/null || true
	fi
	wait "$pid" 2>/dev/null || true
}
DB_CREATED=0
REDIS_OK=0
cleanup() {
	local status=$?
	trap - EXIT INT TERM
	for pid in "${PIDS[@]}"; do stop "$pid"; done
	if [ "$DB_CREATED" = 1 ]; then
		"$BIN/benchctl" dropdb --admin-url "$ADMIN_URL" --db "$DB" || echo "bench: could not drop database $DB" >&2
	fi
	if [ "$REDIS_OK" = 1 ]; then
		"$BIN/benchctl" redis-flush --url "$REDIS" || echo "bench: could not flush $REDIS" >&2
	fi
	if [ "$status" = 0 ]; then
		rm -rf "$WORK"
	else
		echo "bench: FAILED (exit $status); logs kept in $WORK" >&2
	fi
	exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
for p in "$PORT" "$REF_PORT" "$Q_PORT" "$PROXY_PORT" "$PROXY_ADMIN_PORT"; do
	port_free "$p" || { echo "bench: port $p is in use (set BENCH_*PORT)" >&2; exit 1; }
done

say "build"
mkdir -p "$BIN" "$WORK/data" bench/results
make build >/dev/null # always: a stale bin/commerce would measure old code
export CGO_ENABLED=0
go build -trimpath -o "$BIN/benchctl" ./bench/benchctl
go build -trimpath -o "$BIN/reference" ./bench/reference
GO_VERSION=$(go env GOVERSION)
COMMIT=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
if [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null | head -1)" ]; then COMMIT="$COMMIT (modified tree)"; fi

say "database $DB, redis $REDIS"
REDIS_VERSION=$("$BIN/benchctl" redis-check --url "$REDIS")
REDIS_OK=1
"$BIN/benchctl" createdb --admin-url "$ADMIN_URL" --db "$DB"
DB_CREATED=1
PG_VERSION=$("$BIN/benchctl" sql --url "$DB_URL" --query "SHOW server_version")

# Production mode, as deployed: PostgreSQL, Redis (rate limits, jobs), a real JWT secret.
export COMMERCE_ENV=production
export COMMERCE_CONFIG="$ROOT/bench/config.yaml"
export COMMERCE_DATA_DIR="$WORK/data"
export COMMERCE_SECURITY__JWT__SECRET
COMMERCE_SECURITY__JWT__SECRET=$(head -c 48 /dev/urandom | base64 | tr -d '/+=\n' | head -c 48)
export DATABASE_URL="$DB_URL"
export REDIS_URL="$REDIS"

say "migrate"
bin/commerce migrate up >"$WORK/migrate.log" 2>&1
KEY=$(bin/commerce api-key create --name bench --scopes admin 2>>"$WORK/migrate.log" | tail -n 1)

say "seed: $PRODUCTS products x $VARIANTS variants (catalog use case)"
"$BIN/benchctl" seed-catalog --products "$PRODUCTS" --variants "$VARIANTS" --out "$WORK/catalog.json"
SEED_CATALOG_S=$(sed -n 's/.*"seconds": \([0-9.]*\).*/\1/p' "$WORK/catalog.json" | head -1)

say "seed: $ORDERS orders straight into the statistics tables, with their rollups"
"$BIN/benchctl" seed-statistics --orders "$ORDERS"
# A million rows just written: let PostgreSQL settle (statistics, visibility map, dirty
# pages) before anything is timed, so no scenario pays for the seeding's aftermath.
"$BIN/benchctl" sql --url "$DB_URL" --query "VACUUM (ANALYZE)" >/dev/null
"$BIN/benchctl" sql --url "$DB_URL" --query "CHECKPOINT" >/dev/null

say "start the server (production mode)"
PPROF_ARGS=()
if [ -n "$PPROF_DIR" ]; then
	mkdir -p "$PPROF_DIR"
	export COMMERCE_HTTP__PPROF_ADDR="127.0.0.1:$PPROF_PORT"
	PPROF_ARGS=(--pprof "127.0.0.1:$PPROF_PORT" --pprof-dir "$PPROF_DIR")
	if [ -n "${BENCH_PERF:-}" ]; then PPROF_ARGS+=(--perf); fi
	if [ -n "${BENCH_WAL_DIR:-}" ]; then PPROF_ARGS+=(--wal-dir "$BENCH_WAL_DIR"); fi
fi
if [ -n "${BENCH_TIMELINE:-}" ]; then
	mkdir -p "$BENCH_TIMELINE"
	PPROF_ARGS+=(--timeline-dir "$BENCH_TIMELINE")
fi
COMMERCE_HTTP__ADDR="127.0.0.1:$PORT" bin/commerce serve >"$WORK/server.log" 2>&1 &
unset COMMERCE_HTTP__PPROF_ADDR
SERVER_PID=$!
PIDS+=("$SERVER_PID")
"$BIN/benchctl" wait-http --url "http://127.0.0.1:$PORT/health" --pid "$SERVER_PID"
START_RSS=$("$BIN/benchctl" rss --pid "$SERVER_PID" | cut -d' ' -f1)

say "seed: $CUSTOMERS customers and their carts (HTTP API)"
"$BIN/benchctl" seed-http --server "127.0.0.1:$PORT" --key "$KEY" --catalog "$WORK/catalog.json" \
	--customers "$CUSTOMERS" --out "$WORK/state.json"
SEED_HTTP_S=$(sed -n 's/^  "seconds": \([0-9.]*\).*/\1/p' "$WORK/state.json" | tail -1)
# Statistics and the visibility map, as autovacuum keeps them on a live database (the
# count of a list page can then be an index-only scan).
"$BIN/benchctl" sql --url "$DB_URL" --query "VACUUM ANALYZE" >/dev/null

say "idle for ${IDLE_PAUSE}s"
sleep "$IDLE_PAUSE"
read -r IDLE_RSS _ IDLE_ANON IDLE_FILE < <("$BIN/benchctl" rss --pid "$SERVER_PID")

say "start the reference"
"$BIN/reference" -addr "127.0.0.1:$REF_PORT" >"$WORK/reference.log" 2>&1 &
REF_PID=$!
PIDS+=("$REF_PID")
"$BIN/benchctl" wait-http --url "http://127.0.0.1:$REF_PORT/health" --pid "$REF_PID"
REF_IDLE=$("$BIN/benchctl" rss --pid "$REF_PID" | cut -d' ' -f1)

say "load: $CONCURRENCY connections, $WARMUP warm-up + $DURATION per scenario"
"$BIN/benchctl" run --server "127.0.0.1:$PORT" --reference "127.0.0.1:$REF_PORT" --key "$KEY" \
	--catalog "$WORK/catalog.json" --state "$WORK/state.json" --pid "$SERVER_PID" --ref-pid "$REF_PID" \
	--concurrency "$CONCURRENCY" --warmup "$WARMUP" --duration "$DURATION" --only "$ONLY" --db "$DB" --vacuum-url "$DB_URL" --out "$WORK/results.json" "${PPROF_ARGS[@]}"
stop "$REF_PID"
# Events the server's outbox relay has not delivered yet when the load stops.
OUTBOX_BACKLOG=$("$BIN/benchctl" outbox --url "$DB_URL")
stop "$SERVER_PID"

QUERIES_ARG=()
OUTBOX_DRAIN_S=""
if [ "$QUERIES" = 1 ]; then
	say "statements per request (a second server behind a counting proxy, one connection)"
	"$BIN/benchctl" pgproxy --listen "127.0.0.1:$PROXY_PORT" --upstream "$PG_HOST:$PG_PORT" \
		--admin "127.0.0.1:$PROXY_ADMIN_PORT" >"$WORK/pgproxy.log" 2>&1 &
	PROXY_PID=$!
	PIDS+=("$PROXY_PID")
	"$BIN/benchctl" wait-http --url "http://127.0.0.1:$PROXY_ADMIN_PORT/counts" --pid "$PROXY_PID"
	DATABASE_URL="postgres://$PG_AUTH@127.0.0.1:$PROXY_PORT/$DB?sslmode=disable" COMMERCE_HTTP__ADDR="127.0.0.1:$Q_PORT" \
		bin/commerce serve >"$WORK/server-queries.log" 2>&1 &
	Q_PID=$!
	PIDS+=("$Q_PID")
	"$BIN/benchctl" wait-http --url "http://127.0.0.1:$Q_PORT/health" --pid "$Q_PID"
	# The load's backlog first, so that its delivery is not counted against requests.
	read -r _ OUTBOX_DRAIN_S < <("$BIN/benchctl" outbox --url "$DB_URL" --wait 3m)
	"$BIN/benchctl" queries --server "127.0.0.1:$Q_PORT" --proxy-admin "127.0.0.1:$PROXY_ADMIN_PORT" --key "$KEY" \
		--catalog "$WORK/catalog.json" --state "$WORK/state.json" --only "$ONLY" --settle-url "$DB_URL" --out "$WORK/queries.json"
	stop "$Q_PID"
	QUERIES_ARG=(--queries "$WORK/queries.json")
	if [ -z "$ONLY" ] || [[ ",$ONLY," == *",checkout,"* ]]; then
		# Checkout complete once more on a server that leaves its events to another
		# process (jobs.serve_relay=false): the request's own statements, apart from the
		# reactions the relay runs (issue 20 counts those of the request).
		say "statements of checkout complete, the request alone"
		DATABASE_URL="postgres://$PG_AUTH@127.0.0.1:$PROXY_PORT/$DB?sslmode=disable" COMMERCE_HTTP__ADDR="127.0.0.1:$Q_PORT" \
			COMMERCE_JOBS__SERVE_RELAY=false bin/commerce serve >"$WORK/server-request.log" 2>&1 &
		Q_PID=$!
		PIDS+=("$Q_PID")
		"$BIN/benchctl" wait-http --url "http://127.0.0.1:$Q_PORT/health" --pid "$Q_PID"
		"$BIN/benchctl" queries --server "127.0.0.1:$Q_PORT" --proxy-admin "127.0.0.1:$PROXY_ADMIN_PORT" --key "$KEY" \
			--catalog "$WORK/catalog.json" --state "$WORK/state.json" --only checkout --out "$WORK/queries-request.json"
		stop "$Q_PID"
		QUERIES_ARG+=(--queries-request "$WORK/queries-request.json")
	fi
	stop "$PROXY_PID"
	install -m 0644 "$WORK/queries.json" bench/results/latest-queries.json
fi
install -m 0644 "$WORK/results.json" bench/results/latest.json

say "results"
"$BIN/benchctl" report --results "$WORK/results.json" "${QUERIES_ARG[@]}" --out bench/results/latest.md \
	--commit "$COMMIT" --postgres "$PG_VERSION" --redis "$REDIS_VERSION" \
	--idle-rss-kb "$IDLE_RSS" --idle-rss-anon-kb "$IDLE_ANON" --idle-rss-file-kb "$IDLE_FILE" --start-rss-kb "$START_RSS" --ref-idle-rss-kb "$REF_IDLE" \
	--seed-catalog-s "${SEED_CATALOG_S:-0}" --seed-http-s "${SEED_HTTP_S:-0}" \
	--products "$PRODUCTS" --variants "$VARIANTS" --customers "$CUSTOMERS" \
	--outbox-backlog "$OUTBOX_BACKLOG" --outbox-drain-s "${OUTBOX_DRAIN_S:-}"

# Module measurements that need their own harness (a receiver or an SMTP sink started
# by the test): Go tests and benchmarks run against the same PostgreSQL, one at a time,
# after the load scenarios. BENCH_MODULES=0 skips them; BENCH_ONLY runs them only when
# it names "modules".
MODULES=${BENCH_MODULES:-1}
if [ -n "$ONLY" ] && [[ ",$ONLY," != *",modules,"* ]]; then MODULES=0; fi
if [ "$MODULES" = 1 ]; then
	say "module measurements (webhook deliveries, bulk notifications, subscription renewals, scale-out)"
	export TEST_DATABASE_URL="${TEST_DATABASE_URL:-postgres://$PG_AUTH@$PG_HOST:$PG_PORT/postgres?sslmode=disable}" TEST_ENGINES=postgres
	{
		echo "# Module measurements"
		echo
		echo "Commit $COMMIT, $(date -u +%Y-%m-%dT%H:%MZ), PostgreSQL $PG_VERSION, go $GO_VERSION (bench/run.sh, after the load scenarios)."
		echo
		echo "## Outbound webhooks (issue 22): deliveries per second and commit-to-delivery latency, one dead endpoint among four live ones"
		echo
		echo '```'
		WEBHOOKS_BENCH=1 go test -count=1 -run '^TestDeliveryThroughput$' -v ./modules/webhooks/ 2>&1 | grep -E 'deliveries/s|^(ok|FAIL|---)' || true
		WEBHOOKS_BENCH=1 WEBHOOKS_BENCH_RATE=150 go test -count=1 -run '^TestDeliveryThroughput$' -v ./modules/webhooks/ 2>&1 | grep -E 'deliveries/s|^(ok|FAIL|---)' || true
		echo '```'
		echo
		echo "## Notifications (issue 21): bulk send to 10,000 recipients (the request, then until the local SMTP sink holds every message)"
		echo
		echo '```'
		go test -count=1 -run '^$' -bench '^BenchmarkBulkSend10000$' -benchtime 1x ./modules/notifications/ 2>&1 | grep -E 'Benchmark|request|^(ok|FAIL)' || true
		echo '```'
		echo
		echo "## Subscriptions (issue 23): 10,000 due renewals billed by two worker processes of the built binary (the periodic billing task, the payments module's test gateway, the orders module) on private PostgreSQL and Redis instances: time until all are paid, renewals/s, charges per cycle (must be exactly 1), orders created, statements per renewal"
		echo
		echo '```'
		COMMERCE_SCALE_TESTS=1 COMMERCE_RENEWALS_BENCH=1 go test -count=1 -timeout 40m -run '^TestRenewalsBench$' -v ./cmd/commerce/scaletest/ 2>&1 | grep -E 'renewals:|charges:|statements:|cpu:|memory:|^(ok|FAIL|--- )' || true
		echo '```'
		echo
		echo "## Scale-out (issue 25): two serve and two worker processes of the built binary on one PostgreSQL and one Redis (private instances), under load, with a rolling restart"
		echo
		echo '```'
		COMMERCE_SCALE_TESTS=1 go test -count=1 -timeout 10m -run '^TestScaleOut$' -v ./cmd/commerce/scaletest/ 2>&1 | grep -E 'load:|shared limit:|outbox:|memory:|^(ok|FAIL|--- )' || true
		echo '```'
	} >"$WORK/modules.md"
	install -m 0644 "$WORK/modules.md" bench/results/latest-modules.md
	cat "$WORK/modules.md" >&2
fi

echo >&2
echo "written: bench/results/latest.md (and latest.json, latest-queries.json, latest-modules.md); go $GO_VERSION" >&2

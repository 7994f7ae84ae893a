# Commerce backend. `make run` works on a fresh machine; `make test` runs every test.
GO        ?= go
BIN       := bin/commerce
VERSION   ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS   := -s -w -X main.version=$(VERSION)
# gin without its MessagePack binding (unused): a 6 MB smaller binary, about 2 MB less
# of it mapped at idle (docs/performance.md, finding 9).
BUILDTAGS := nomsgpack
GOLANGCI_VERSION := v2.15.0
GOLANGCI  := bin/golangci-lint
# Tests use the local PostgreSQL and Redis (see README); override for other hosts.
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/test?sslmode=disable
TEST_REDIS_URL    ?= redis://127.0.0.1:6379/0
export TEST_DATABASE_URL TEST_REDIS_URL

.PHONY: browser run build test test-scale test-short test-sqlite test-race fuzz vuln-db lint openapi-lint generate check-generate fmt migrate bench tidy vuln check clean

run: build ## serve the API on the embedded default (SQLite, in-process jobs, :8080)
	./$(BIN) serve

build: ## build bin/commerce
	CGO_ENABLED=0 $(GO) build -trimpath -tags "$(BUILDTAGS)" -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/commerce

test: ## every test: PostgreSQL and SQLite engines, Redis
	$(GO) test -count=1 -timeout 15m ./...

# The real binary as two serve and two worker processes on a private PostgreSQL and
# Redis started by the tests (never the shared ones), under load, and the faults:
# Redis and PostgreSQL restarted, a worker killed (cmd/commerce/scaletest; a few
# minutes, so not part of `make test`, where these tests skip). Needs initdb/pg_ctl
# (/usr/lib/postgresql/<v>/bin) and redis-server; as root they run as the postgres user.
test-scale: ## scale-out and fault tests (CI runs it after make test)
	COMMERCE_SCALE_TESTS=1 $(GO) test -count=1 -timeout 10m -v ./cmd/commerce/scaletest

test-short: ## unit tests only (no database, no Redis)
	$(GO) test -short -count=1 ./...

test-sqlite: ## the embedded path alone (SQLite engine only)
	TEST_ENGINES=sqlite $(GO) test -count=1 -timeout 15m ./...

# The packages with goroutines, locks or atomics of their own (docs/decisions/0113),
# with the modules whose tests drive them: carts (batched writer, cache), identity
# (revocations, key cache, usage), inventory (reservations), catalog (its caches and
# concurrent writes only: the rest of its tests take a minute under -race).
RACE_PKGS := ./platform/db/... ./platform/events/... ./platform/jobs/... ./platform/ratelimit/... ./platform/httpx/... \
	./platform/redisx/... ./modules/carts/... ./modules/identity/... ./modules/inventory/... ./modules/catalog/adapters/... ./modules/checkout/... ./modules/shipping/...
test-race: ## the race detector on the concurrent packages (CI; not part of `make test`)
	$(GO) test -race -count=1 -timeout 15m $(RACE_PKGS)
	$(GO) test -race -count=1 -timeout 15m -run 'Concurrent|Cache|Totals' ./modules/catalog

# An execution count, not a duration: go1.26's fuzz coordinator can fail a target with
# "context deadline exceeded" when a -fuzztime duration ends (golang/go#75804).
FUZZTIME ?= 20000x
fuzz: ## each fuzz target for FUZZTIME executions (`make test` runs their seeds only)
	@set -e; for f in $$(grep -rl --include='*_test.go' '^func Fuzz' cmd modules platform | sort); do \
	  for n in $$(sed -n 's/^func \(Fuzz[A-Za-z0-9_]*\)(.*/\1/p' $$f); do \
	    echo "fuzz $$n ./$$(dirname $$f)"; \
	    $(GO) test -run '^$$' -fuzz "^$$n$$" -fuzztime $(FUZZTIME) ./$$(dirname $$f); \
	  done; done

$(GOLANGCI):
	GOBIN=$(CURDIR)/bin $(GO) install github.com/golangci/golangci-lint/v2/cmd/golangci-lint@$(GOLANGCI_VERSION)

lint: $(GOLANGCI) ## gofmt, go vet, golangci-lint (includes depguard boundaries)
	@test -z "$$(gofmt -l cmd modules platform)" || (echo "gofmt needed:"; gofmt -l cmd modules platform; exit 1)
	$(GO) vet ./...
	$(GOLANGCI) run ./...

# The OpenAPI linter is pinned by tools/openapi-lint/package-lock.json (Node.js 20.19+).
OPENAPI_LINT := tools/openapi-lint/node_modules/@redocly/cli/package.json

$(OPENAPI_LINT): tools/openapi-lint/package.json tools/openapi-lint/package-lock.json
	npm ci --prefix tools/openapi-lint --no-audit --no-fund
	@touch $@

openapi-lint: $(OPENAPI_LINT) ## redocly lint of the served OpenAPI document (also part of make test)
	$(GO) test -count=1 -run '^TestOpenAPILint$$' ./cmd/commerce

generate: ## regenerate wire_gen.go and the served OpenAPI document (cmd/commerce/openapi.json)
	cd cmd/commerce && $(GO) tool wire
	UPDATE_OPENAPI=1 $(GO) test -count=1 -run '^TestOpenAPIDocumentIsCurrent$$' ./cmd/commerce

check-generate: generate ## fail when generated code is stale
	git diff --exit-code -- cmd/commerce/wire_gen.go cmd/commerce/openapi.json

fmt:
	gofmt -w cmd modules platform

migrate: build ## apply migrations to the configured database
	./$(BIN) migrate up

bench: build ## performance benchmark (see docs/performance.md)
	@if [ -x bench/run.sh ]; then bench/run.sh; else $(GO) test -run '^$$' -bench . -benchmem ./...; fi

browser: ## Debian's headless Chromium for the page tests (installed when missing; needs apt)
	@command -v chromium-headless-shell >/dev/null 2>&1 || command -v chromium >/dev/null 2>&1 || \
		(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium-headless-shell)

tidy:
	$(GO) mod tidy

# The Go vulnerability database; a mirror or a copy (file:///path) works too.
VULNDB ?= https://vuln.go.dev
vuln: vuln-db ## govulncheck (go.mod's tool): known vulnerabilities the code reaches
	timeout 10m $(GO) tool govulncheck -db $(VULNDB) ./...

vuln-db: ## fail at once, saying so, when VULNDB cannot be reached
	@timeout 20 curl -fsS -o /dev/null $(VULNDB)/index/db.json || \
	  { echo "vuln: the vulnerability database $(VULNDB) is unreachable: nothing checked (VULNDB= a mirror or file:///copy)"; exit 1; }

check: check-generate lint test ## what CI runs

clean:
	rm -rf bin var

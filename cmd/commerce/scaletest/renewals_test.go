package scaletest

import (
	"context"
	"database/sql"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"

	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/jobs/asynqjobs"
)

// benchGuard turns on the 10,000-renewal measurement (make bench's module measurements).
const benchGuard = "COMMERCE_RENEWALS_BENCH"

// Subscription renewals billed by two `commerce worker` processes of the built binary
// (issue 23): 200 subscriptions due now, each customer with a saved card of the
// built-in test gateway, billed by the workers' periodic billing task and by extra
// runs of it queued at once on both workers, so that sweeps overlap. Every renewal is
// paid by exactly one payment of the payments module and has its order in the orders
// module.
func TestRenewalsBilledByWorkers(t *testing.T) {
	guard(t)
	r := runRenewals(t, renewalRun{n: 200, workers: 2, extraSweeps: 6, batch: 100})
	if r.took > 60*time.Second {
		t.Errorf("200 renewals took %s", r.took)
	}
}

// The measurement of make bench (COMMERCE_RENEWALS_BENCH=1, with COMMERCE_SCALE_TESTS=1):
// 10,000 due renewals billed by two workers; COMMERCE_RENEWALS_N changes the count.
func TestRenewalsBench(t *testing.T) {
	guard(t)
	if os.Getenv(benchGuard) != "1" {
		t.Skipf("the 10,000-renewal measurement runs with %s=1 (make bench)", benchGuard)
	}
	n := 10000
	if v, err := strconv.Atoi(os.Getenv("COMMERCE_RENEWALS_N")); err == nil && v > 0 {
		n = v
	}
	workers := 2
	if v, err := strconv.Atoi(os.Getenv("COMMERCE_RENEWALS_WORKERS")); err == nil && v > 0 {
		workers = v
	}
	runRenewals(t, renewalRun{n: n, workers: workers, batch: 1000})
}

// renewalRun is one measurement: n due renewals, workers worker processes, the
// billing sweep every second billing at most batch renewals a run, and extraSweeps
// runs of the billing task queued at once besides the periodic ones.
type renewalRun struct {
	n, workers, extraSweeps, batch int
}

// renewalResult is what a run measured.
type renewalResult struct {
	took time.Duration // from the start of the first worker until every invoice is paid
}

func runRenewals(t *testing.T, run renewalRun) renewalResult {
	c := newCluster(t,
		"COMMERCE_SUBSCRIPTIONS__BILLING_INTERVAL=1s",
		"COMMERCE_SUBSCRIPTIONS__BATCH_SIZE="+strconv.Itoa(run.batch),
	)
	counting := enableStatementStats(t, c)
	srv := c.serve()
	a := newAPI(t, c.adminKey())
	product := a.must(http.StatusCreated, srv.url(), "POST", "/api/v1/products", newProduct("renewal plan"))
	productID, _ := product["id"].(string)
	if productID == "" {
		t.Fatalf("product: %v", product)
	}

	d := c.sqlDB()
	seedStart := time.Now()
	seedRenewals(t, d, run.n, productID)
	seeded := time.Since(seedStart)
	if n := scalar(t, d, "SELECT count(*) FROM subscriptions WHERE status = 'active' AND next_billing_at <= now()"); n != run.n {
		t.Fatalf("%d due subscriptions seeded, want %d", n, run.n)
	}
	if _, err := d.ExecContext(context.Background(), "ANALYZE"); err != nil {
		t.Fatal(err)
	}
	if counting {
		if _, err := d.ExecContext(context.Background(), "SELECT pg_stat_statements_reset()"); err != nil {
			t.Fatal(err)
		}
	}

	start := time.Now()
	var workers []*proc
	for range run.workers {
		workers = append(workers, c.worker())
	}
	if run.extraSweeps > 0 {
		enqueueSweeps(t, c, run.extraSweeps)
	}
	var firstPaid time.Duration
	deadline := start.Add(time.Duration(run.n)*50*time.Millisecond + 2*time.Minute)
	for {
		paid := scalar(t, d, "SELECT count(*) FROM subscription_invoices WHERE cycle_number = 2 AND status = 'paid'")
		if paid > 0 && firstPaid == 0 {
			firstPaid = time.Since(start)
		}
		if paid == run.n {
			break
		}
		for _, w := range workers {
			if !w.running() {
				t.Fatalf("%s exited: %v\n%s", w.name, w.err, tail(w.logs(), 4000))
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("after %s, %d of %d renewals paid; invoices by status: %s", time.Since(start).Round(time.Second), paid, run.n,
				grouped(t, d, "SELECT status, count(*) FROM subscription_invoices GROUP BY status"))
		}
		// The count reads every invoice: a large run polls less often, to leave
		// PostgreSQL to the workers.
		time.Sleep(time.Duration(min(500, 100+run.n/20)) * time.Millisecond)
	}
	took := time.Since(start)
	var cpu []string
	for _, p := range append([]*proc{srv}, workers...) {
		cpu = append(cpu, fmt.Sprintf("%s %.1f ms", p.name, p.cpuSeconds()*1000/float64(run.n)))
	}

	// Statements in the window: every process's (the event consumers' among them).
	var statements []string
	if counting {
		st := statementCounts(t, d)
		statements = append(statements, fmt.Sprintf("until all paid: %.1f statements per renewal (%.1f transactions), %.1f of them on the subscription tables; every process of the deployment; %.1f ms of PostgreSQL execution time per renewal",
			st.per(st.total, run.n), st.per(st.begins, run.n), st.per(st.subscriptions, run.n), st.execMS/float64(run.n)))
		top := 20
		if v, err := strconv.Atoi(os.Getenv("COMMERCE_RENEWALS_TOP")); err == nil && v > 0 {
			top = v
		}
		t.Logf("top statements by calls:\n%s", topStatements(t, d, false, top))
		t.Logf("top statements by time:\n%s", topStatements(t, d, true, 10))
	}

	// Orders are made right after each payment is recorded: wait for the last ones.
	waitFor(t, 60*time.Second, "every paid cycle's order", func() bool {
		return scalar(t, d, "SELECT count(*) FROM subscription_invoices WHERE cycle_number = 2 AND order_id = ''") == 0
	})

	// Exactly one charge per cycle: one payment per invoice in the payments module
	// (each Initiate is one gateway authorization), none without an invoice.
	if n := scalar(t, d, "SELECT count(*) FROM subscription_invoices"); n != run.n {
		t.Errorf("%d invoices for %d due renewals (one per cycle)", n, run.n)
	}
	charges := scalar(t, d, "SELECT count(*) FROM payments_payments")
	maxPerCycle := scalar(t, d, `SELECT coalesce(max(k), 0) FROM (SELECT count(p.id) AS k FROM subscription_invoices i
		LEFT JOIN payments_payments p ON p.order_id = i.order_ref GROUP BY i.id) x`)
	minPerCycle := scalar(t, d, `SELECT coalesce(min(k), 0) FROM (SELECT count(p.id) AS k FROM subscription_invoices i
		LEFT JOIN payments_payments p ON p.order_id = i.order_ref GROUP BY i.id) x`)
	if charges != run.n || maxPerCycle != 1 || minPerCycle != 1 {
		t.Errorf("%d payments for %d renewals, %d to %d per cycle: want exactly 1 charge per cycle", charges, run.n, minPerCycle, maxPerCycle)
	}
	if n := scalar(t, d, `SELECT count(*) FROM subscription_invoices i JOIN payments_payments p ON p.id = i.payment_id
		WHERE p.status = 'succeeded' AND p.gateway = 'test' AND p.saved_method_token <> '' AND p.metadata->>'subscription_invoice_id' = i.id::text`); n != run.n {
		t.Errorf("%d invoices paid by a succeeded saved-card payment of the test gateway naming them, want %d", n, run.n)
	}
	if n := scalar(t, d, "SELECT count(*) FROM subscription_attempts"); n != run.n {
		t.Errorf("%d charge attempts recorded, want %d", n, run.n)
	}
	orders := scalar(t, d, "SELECT count(*) FROM orders WHERE source_name = 'subscription'")
	if n := scalar(t, d, `SELECT count(*) FROM subscription_invoices i JOIN orders o ON o.id::text = i.order_id
		WHERE o.source_name = 'subscription' AND o.financial_status = 'paid' AND i.order_id = i.order_ref`); orders != run.n || n != run.n {
		t.Errorf("%d subscription orders, %d paid and recorded on their invoice, want %d", orders, n, run.n)
	}
	if n := scalar(t, d, "SELECT count(*) FROM subscriptions WHERE status = 'active' AND current_cycle = 2 AND next_billing_at > now()"); n != run.n {
		t.Errorf("%d subscriptions renewed to cycle 2, want %d", n, run.n)
	}
	// The renewals' events (invoice, payment, order, subscription) reach their
	// consumers (statistics, customers, notifications, webhooks) afterwards.
	drained := time.Now()
	waitFor(t, 10*time.Minute, "every event of the renewals consumed", func() bool {
		return scalar(t, d, "SELECT count(*) FROM outbox_events WHERE published_at IS NULL") == 0
	})
	if counting {
		st := statementCounts(t, d)
		statements = append(statements, fmt.Sprintf("until every event was consumed (%s after all paid): %.1f statements per renewal (%.1f transactions)",
			time.Since(drained).Round(time.Millisecond), st.per(st.total, run.n), st.per(st.begins, run.n)))
	}
	for _, w := range workers {
		if logs := w.logs(); strings.Contains(logs, "\"level\":\"error\"") {
			t.Errorf("%s logged errors:\n%s", w.name, tail(logs, 4000))
		}
	}
	t.Logf("renewals: %d due renewals (seeded in %s) billed by %d worker processes (billing_interval 1s, batch_size %d%s): all paid %s after the workers started (first paid at %s), %.0f renewals/s",
		run.n, seeded.Round(time.Millisecond), run.workers, run.batch, extraNote(run.extraSweeps), took.Round(time.Millisecond),
		firstPaid.Round(time.Millisecond), float64(run.n)/took.Seconds())
	t.Logf("charges: %d payments for %d cycles, %d to %d per cycle (exactly 1 required); %d orders created", charges, run.n, minPerCycle, maxPerCycle, orders)
	for _, line := range statements {
		t.Logf("statements: %s", line)
	}
	t.Logf("cpu: per renewal, until all paid (user+system, since the start): %s", strings.Join(cpu, ", "))
	for _, w := range workers {
		now, peak := w.rss()
		t.Logf("memory: %s RSS %.0f MiB, peak %.0f MiB", w.name, now, peak)
	}
	return renewalResult{took: took}
}

func extraNote(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(", plus %d runs of the task queued at once", n)
}

// seedRenewals stores n customers, each with a saved card of the test gateway (the
// token of a card that succeeds) and an active monthly subscription of the product
// whose second cycle came due a minute ago, in one statement.
func seedRenewals(t *testing.T, d *sql.DB, n int, productID string) {
	t.Helper()
	_, err := d.ExecContext(context.Background(), `
WITH c AS (
	INSERT INTO customers (id, email, first_name, last_name, state, created_at, updated_at)
	SELECT gen_random_uuid(), format('renewal-%s@example.com', i), 'Renewal', i::text, 'enabled', now(), now()
	FROM generate_series(1, $1::int) AS i
	RETURNING id
), m AS (
	INSERT INTO payments_saved_methods (token, owner, gateway, provider_token, method_type, card_brand, last_four, exp_month, exp_year,
		cardholder_name, is_default, expires_at, created_at)
	SELECT 'pm_' || gen_random_uuid(), 'customer:' || c.id, 'test', 'tok_test_success_' || substr(md5(c.id::text), 1, 16), 'card',
		'visa', '4242', 12, 2030, 'Renewal', true, '2030-12-31T23:59:59Z', now()
	FROM c
	RETURNING token, substr(owner, 10) AS customer_id
), t AS (
	SELECT date_trunc('second', now() - interval '1 minute') AS due
)
INSERT INTO subscriptions (id, customer_id, order_id, product_id, variant_id, product_name, status, billing_interval, interval_count,
	currency, amount, setup_fee, trial_days, current_cycle, min_cycles, starts_at, next_billing_at, last_billing_at,
	payment_method_id, gateway, billing_anchor, anchor_cycle, created_at, updated_at, version)
SELECT gen_random_uuid(), m.customer_id, gen_random_uuid()::text, $2, '', 'renewal plan', 'active', 'monthly', 1,
	'EUR', 9.90, 0, 0, 1, 0, t.due - interval '1 month', t.due, t.due - interval '1 month',
	m.token, 'test', t.due - interval '1 month', 0, t.due - interval '1 month', t.due - interval '1 month', 1
FROM m, t`, n, productID)
	if err != nil {
		t.Fatalf("seed %d renewals: %v", n, err)
	}
}

// enqueueSweeps queues n runs of the billing task (subscriptions:bill) at once, as
// plain tasks that the workers run side by side with the periodic ones.
func enqueueSweeps(t *testing.T, c *cluster, n int) {
	t.Helper()
	cfg := config.Default()
	cfg.Redis.URL = c.redis.URL()
	j, cleanup, err := asynqjobs.New(&cfg, zap.NewNop())
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	for range n {
		if err := j.Enqueue(context.Background(), "subscriptions:bill", nil); err != nil {
			t.Fatal(err)
		}
	}
}

// enableStatementStats loads pg_stat_statements into the private PostgreSQL (a
// restart) when the server has it; it reports whether statements are counted.
func enableStatementStats(t *testing.T, c *cluster) bool {
	t.Helper()
	d, err := sql.Open("pgx", c.pg.URL())
	if err != nil {
		t.Fatal(err)
	}
	var avail int
	_ = d.QueryRowContext(context.Background(), "SELECT count(*) FROM pg_available_extensions WHERE name = 'pg_stat_statements'").Scan(&avail)
	if avail == 0 {
		_ = d.Close()
		t.Log("pg_stat_statements is not installed: statements are not counted")
		return false
	}
	_, err = d.ExecContext(context.Background(), "ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'")
	_ = d.Close()
	if err != nil {
		t.Fatal(err)
	}
	c.pg.Stop()
	c.pg.Start()
	d, err = sql.Open("pgx", c.pg.URL())
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = d.Close() }()
	if _, err := d.ExecContext(context.Background(), "CREATE EXTENSION IF NOT EXISTS pg_stat_statements"); err != nil {
		t.Fatal(err)
	}
	return true
}

// statementCount is what pg_stat_statements counted since its reset.
type statementCount struct {
	total, begins, subscriptions int
	execMS                       float64
}

func (statementCount) per(n, renewals int) float64 { return float64(n) / float64(renewals) }

// statementCounts sums the calls: all, BEGINs, and the subscriptions module's own
// statements (on its tables; not the test's polling nor the statistics consumer).
func statementCounts(t *testing.T, d *sql.DB) statementCount {
	t.Helper()
	return statementCount{
		total: scalar(t, d, `SELECT coalesce(sum(calls), 0)::bigint FROM pg_stat_statements
			WHERE query NOT LIKE '%pg_stat_statements%' AND query NOT LIKE 'SELECT count(*) FROM subscription_invoices%'`),
		begins: scalar(t, d, "SELECT coalesce(sum(calls), 0)::bigint FROM pg_stat_statements WHERE lower(query) = 'begin'"),
		subscriptions: scalar(t, d, `SELECT coalesce(sum(calls), 0)::bigint FROM pg_stat_statements
			WHERE query ~ '"?subscription(s|_invoices|_attempts|_dunning_emails)"?' AND query NOT LIKE '%statistics_%' AND query NOT LIKE '%count(*)%'`),
		execMS: float64(scalar(t, d, "SELECT coalesce(sum(total_exec_time), 0)::bigint FROM pg_stat_statements")),
	}
}

// cpuSeconds is the process's user and system CPU time so far (/proc/<pid>/stat).
func (p *proc) cpuSeconds() float64 {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	// The fields after the command name (in parentheses): utime and stime are the
	// 12th and 13th of them, in clock ticks (100 a second).
	s := string(raw)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(fields) < 13 {
		return 0
	}
	user, _ := strconv.ParseFloat(fields[11], 64)
	sys, _ := strconv.ParseFloat(fields[12], 64)
	return (user + sys) / 100
}

// topStatements lists the statements with the most calls (byTime: the most
// total_exec_time).
func topStatements(t *testing.T, d *sql.DB, byTime bool, limit int) string {
	t.Helper()
	q := `SELECT calls, round(total_exec_time::numeric, 0), left(regexp_replace(query, '\s+', ' ', 'g'), 160)
		FROM pg_stat_statements ORDER BY calls DESC LIMIT $1`
	if byTime {
		q = `SELECT calls, round(total_exec_time::numeric, 0), left(regexp_replace(query, '\s+', ' ', 'g'), 160)
		FROM pg_stat_statements ORDER BY total_exec_time DESC LIMIT $1`
	}
	rows, err := d.QueryContext(context.Background(), q, limit)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = rows.Close() }()
	var b strings.Builder
	for rows.Next() {
		var calls int64
		var ms float64
		var q string
		if err := rows.Scan(&calls, &ms, &q); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "  %8d calls %8.0f ms  %s\n", calls, ms, q)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// grouped renders a two-column count query.
func grouped(t *testing.T, d *sql.DB, q string) string {
	t.Helper()
	rows, err := d.QueryContext(context.Background(), q)
	if err != nil {
		return err.Error()
	}
	defer func() { _ = rows.Close() }()
	var out []string
	for rows.Next() {
		var k string
		var n int
		if err := rows.Scan(&k, &n); err != nil {
			return err.Error()
		}
		out = append(out, fmt.Sprintf("%s %d", k, n))
	}
	if err := rows.Err(); err != nil {
		return err.Error()
	}
	return strings.Join(out, ", ")
}

package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"
	"time"

	"go.uber.org/zap"

	statspg "github.com/gocommerce/commerce/modules/statistics/adapters/postgres"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/db"
)

// The statistics scenarios (issue 24): a store of 1,000,000 orders seeded straight
// into the statistics module's tables (seed-statistics), then GET of each report.
// Targets: the dashboard for last_30_days p99 < 500 ms, every other report p99 < 1 s.
// An admin dashboard is not hit by 32 staff at once: these run with statsConcurrency
// connections.

const statsConcurrency = 4

func init() {
	targets["stats-dashboard"] = target{"p99 < 500 ms", func(r result, _ float64) bool { return r.RPS > 0 && r.P99 < 500 }}
	for _, k := range []string{"stats-sales", "stats-orders", "stats-products", "stats-customers"} {
		targets[k] = target{"p99 < 1 s", func(r result, _ float64) bool { return r.RPS > 0 && r.P99 < 1000 }}
	}
}

// statisticsScenarios are the table's statistics rows (read-only, statsConcurrency
// connections each).
func statisticsScenarios() []*scenario {
	row := func(key, title, path string) *scenario {
		return &scenario{
			key: key, title: title, perIteration: 1, concurrency: statsConcurrency,
			missing: func(e *env, k *conn) (string, error) {
				return probe(k, "GET", path, nil, bearer(e.key))
			},
			step: func(w *worker) bool {
				w.call(200, "GET", path, nil, bearer(w.env.key))
				return true
			},
		}
	}
	const base = "/api/v1/admin/statistics/"
	return []*scenario{
		row("stats-dashboard", "statistics dashboard, last_30_days (1M orders)", base+"dashboard?date_from=last_30_days&date_to=today&currency=USD"),
		row("stats-sales", "statistics sales, last_90_days by week", base+"sales?date_from=last_90_days&period=week&currency=USD"),
		row("stats-orders", "statistics orders, last_90_days with geo", base+"orders?date_from=last_90_days&include_geo=true&currency=USD"),
		row("stats-products", "statistics products, last_30_days top 20", base+"products?date_from=last_30_days&currency=USD"),
		row("stats-customers", "statistics customers, last_30_days with segments", base+"customers?date_from=last_30_days&include_segments=true&currency=USD"),
	}
}

// cmdSeedStatistics seeds orders straight into the statistics tables of the database
// of the configuration (DATABASE_URL): products with cost prices, customers, N orders of
// one line spread over the last days (statuses, refunds, cancellations, shipments in
// fixed proportions) in a single INSERT ... SELECT generate_series, then the rollups
// and customer totals through the module's own full recomputation (Rebuild) and the
// segments through its job's query.
func cmdSeedStatistics(args []string) error {
	fs := flag.NewFlagSet("seed-statistics", flag.ExitOnError)
	orders := fs.Int("orders", 1000000, "orders")
	days := fs.Int("days", 365, "days the orders are spread over (up to now)")
	products := fs.Int("products", 10000, "products (one variant each)")
	customers := fs.Int("customers", 0, "customers (0: orders / 8)")
	currency := fs.String("currency", "USD", "currency of every order")
	configPath := fs.String("config", "", "commerce configuration file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *customers == 0 {
		*customers = max(*orders/8, 1)
	}
	cfg, err := config.Load(*configPath)
	if err != nil {
		return err
	}
	if !cfg.Postgres() {
		return errors.New("seed-statistics: DATABASE_URL must name a PostgreSQL database")
	}
	d, closeDB, err := db.Open(cfg, zap.NewNop())
	if err != nil {
		return err
	}
	defer closeDB()
	ctx := context.Background()
	start := time.Now()
	now := start.Unix()
	// The order records' secondary indexes are built once after the rows (faster than
	// maintained row by row): their definitions are read back from the catalog.
	var indexes []string
	var def string
	if err := d.Query(ctx, `SELECT indexdef FROM pg_indexes WHERE tablename = 'statistics_orders' AND indexname NOT LIKE '%pkey'`,
		nil, []any{&def}, func() error { indexes = append(indexes, def); return nil }); err != nil {
		return err
	}
	for _, ix := range indexes {
		name := strings.Fields(strings.SplitN(ix, " ON ", 2)[0])
		if _, err := d.Exec(ctx, "DROP INDEX IF EXISTS "+name[len(name)-1]); err != nil {
			return err
		}
	}
	for _, q := range statisticsSeedSQL(statsSeed{orders: *orders, days: *days, products: *products, customers: *customers,
		currency: *currency, tz: cfg.Statistics.Timezone, now: now}) {
		if _, err := d.Exec(ctx, q); err != nil {
			return fmt.Errorf("seed-statistics: %w\n%s", err, q)
		}
	}
	for _, ix := range indexes {
		if _, err := d.Exec(ctx, ix); err != nil {
			return fmt.Errorf("seed-statistics: %w\n%s", err, ix)
		}
	}
	inserted := time.Since(start)
	repo := statspg.NewRepository(d)
	if err := d.InTx(ctx, func(ctx context.Context) error {
		if _, err := d.Exec(ctx, "SET LOCAL work_mem = '256MB'"); err != nil { // hash aggregates, not sorts on disk
			return err
		}
		return repo.Rebuild(ctx)
	}); err != nil {
		return fmt.Errorf("seed-statistics: rollups: %w", err)
	}
	rolled := time.Since(start)
	loc, err := time.LoadLocation(cfg.Statistics.Timezone)
	if err != nil {
		return err
	}
	if err := d.InTx(ctx, func(ctx context.Context) error {
		_, err := repo.ReplaceSegments(ctx, *currency, time.Unix(now, 0).In(loc).Format(time.DateOnly))
		return err
	}); err != nil {
		return fmt.Errorf("seed-statistics: segments: %w", err)
	}
	if _, err := d.Exec(ctx, "ANALYZE"); err != nil {
		return err
	}
	fmt.Printf("seeded %d orders (%d products, %d customers) in %.1fs: rows %.1fs, rollups %.1fs, segments %.1fs\n",
		*orders, *products, *customers, time.Since(start).Seconds(), inserted.Seconds(), (rolled - inserted).Seconds(),
		(time.Since(start) - rolled).Seconds())
	return nil
}

// statsSeed sizes the seeded store.
type statsSeed struct {
	orders, days, products, customers int
	currency, tz                      string
	now                               int64
}

// statisticsSeedSQL is the seeding, PostgreSQL only. Amounts are ten-thousandths (the
// module's storage); every value derives from the row number, so a seed is repeatable.
func statisticsSeedSQL(s statsSeed) []string {
	r := strings.NewReplacer("{N}", fmt.Sprint(s.orders), "{DAYS}", fmt.Sprint(s.days), "{P}", fmt.Sprint(s.products),
		"{C}", fmt.Sprint(s.customers), "{CUR}", sqlString(s.currency), "{TZ}", sqlString(s.tz), "{NOW}", fmt.Sprint(s.now))
	out := make([]string, 0, len(statisticsSeedStatements))
	for _, q := range statisticsSeedStatements {
		out = append(out, r.Replace(q))
	}
	return out
}

func sqlString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

var statisticsSeedStatements = []string{
	`INSERT INTO statistics_products (product_id, title, product_type, currency, inventory_quantity, low_stock_threshold, tracked)
SELECT 'bench-p-' || k, 'Bench product ' || k, 'type-' || (k % 12), {CUR}, (k * 37) % 200, 10, true
FROM generate_series(1, {P}) k`,
	`INSERT INTO statistics_variants (variant_id, product_id, title, sku, cost, inventory_quantity)
SELECT 'bench-v-' || k, 'bench-p-' || k, 'Default', 'BENCH-' || k, (500 + (k::bigint * 7919) % 9500) * 40, (k * 37) % 200
FROM generate_series(1, {P}) k`,
	`INSERT INTO statistics_customers (customer_id, day, created_at)
SELECT 'bench-c-' || c, to_char(to_timestamp(t) AT TIME ZONE {TZ}, 'YYYY-MM-DD'), t
FROM (SELECT c, {NOW} - (c::bigint * 7919 % ({DAYS} + 60)) * 86400 - c % 86400 AS t FROM generate_series(0, {C} - 1) c) x`,
	`WITH g AS (
	SELECT g,
		{NOW} - (g::bigint * {DAYS} * 86400 / {N}) - (g::bigint * 7919 % 3600) AS created_at,
		1 + (g::bigint * 48271 % {P}) AS k,
		1 + g % 3 AS qty,
		CASE WHEN g % 5 = 0 THEN '' ELSE 'bench-c-' || (g::bigint * 2654435761 % {C}) END AS customer_id,
		g % 100 AS r
	FROM generate_series(1, {N}) g
), o AS (
	SELECT g.*, (500 + (k * 7919) % 9500) * 100 * qty AS subtotal,
		CASE WHEN g % 4 = 0 THEN (500 + (k * 7919) % 9500) * 10 * qty ELSE 0 END AS disc,
		CASE WHEN r IN (5, 6) OR (r >= 8 AND r < 55) THEN created_at + 600 * (1 + g % 500) ELSE 0 END AS fulfilled_at
	FROM g
), lines AS (
	INSERT INTO statistics_order_lines (order_id, line, product_id, variant_id, title, sku, quantity, refunded_quantity, revenue, refunded)
	SELECT 'bench-o-' || g, 0, 'bench-p-' || k, 'bench-v-' || k, 'Bench product ' || k, 'BENCH-' || k, qty,
		CASE WHEN r >= 5 AND r < 8 THEN qty ELSE 0 END, subtotal, CASE WHEN r >= 5 AND r < 8 THEN subtotal ELSE 0 END
	FROM o
)
INSERT INTO statistics_orders (order_id, version, currency, customer_id, day, created_at, status, fulfillment, channel,
	payment_method, country, items, gross, discounts, refunded, closed_at, fulfilled_at, same_day)
SELECT 'bench-o-' || g, created_at * 1000000, {CUR}, customer_id, to_char(to_timestamp(created_at) AT TIME ZONE {TZ}, 'YYYY-MM-DD'),
	created_at,
	CASE WHEN r < 5 THEN 'cancelled' WHEN r < 8 THEN 'refunded' WHEN r < 50 THEN 'completed' WHEN r < 55 THEN 'processing'
		WHEN r < 85 THEN 'confirmed' ELSE 'pending' END,
	CASE WHEN r IN (5, 6) THEN 'returned' WHEN r >= 8 AND r < 50 THEN 'fulfilled' WHEN r >= 50 AND r < 55 THEN 'partial'
		ELSE 'unfulfilled' END,
	(ARRAY['web', 'pos', 'api'])[1 + g % 3], (ARRAY['stripe', 'paypal', 'test', 'unknown'])[1 + g % 4],
	(ARRAY['US', 'DE', 'FR', 'GB', 'CA', 'NL', 'ES', 'IT', 'AU', 'JP'])[1 + g % 10],
	qty, subtotal - disc + 49900, disc, CASE WHEN r >= 5 AND r < 8 THEN subtotal - disc + 49900 ELSE 0 END,
	CASE WHEN r >= 8 AND r < 40 THEN created_at + 3600 * (24 + g % 72) ELSE 0 END,
	fulfilled_at,
	CASE WHEN fulfilled_at > 0 AND to_char(to_timestamp(fulfilled_at) AT TIME ZONE {TZ}, 'YYYY-MM-DD') =
		to_char(to_timestamp(created_at) AT TIME ZONE {TZ}, 'YYYY-MM-DD') THEN 1 ELSE 0 END
FROM o`,
}

-- +goose Up
-- Issue 24: the reports over a million orders (docs/performance.md, decision 0215).

-- Monthly rollup of products sold per currency (orders not cancelled): the sums of
-- statistics_product_daily per month (YYYY-MM), kept by the same order events. A
-- period reads its whole months here and only the days at its ends from the daily
-- rollup (adding the days it covers, or subtracting from a whole month the days it
-- does not, whichever reads fewer).
CREATE TABLE statistics_product_monthly (
    month             text{{if .Postgres}} COLLATE "C"{{end}} NOT NULL,
    currency          text{{if .Postgres}} COLLATE "C"{{end}} NOT NULL,
    product_id        text{{if .Postgres}} COLLATE "C"{{end}} NOT NULL,
    variant_id        text{{if .Postgres}} COLLATE "C"{{end}} NOT NULL,
    orders            {{.BigInt}} NOT NULL,
    quantity          {{.BigInt}} NOT NULL,
    refunded_quantity {{.BigInt}} NOT NULL,
    revenue           {{.BigInt}} NOT NULL,
    refunded          {{.BigInt}} NOT NULL,
    PRIMARY KEY (currency, month, product_id, variant_id)
);
INSERT INTO statistics_product_monthly (month, currency, product_id, variant_id, orders, quantity, refunded_quantity, revenue, refunded)
SELECT substr(day, 1, 7), currency, product_id, variant_id, SUM(orders), SUM(quantity), SUM(refunded_quantity), SUM(revenue), SUM(refunded)
FROM statistics_product_daily GROUP BY substr(day, 1, 7), currency, product_id, variant_id
ORDER BY currency, substr(day, 1, 7);

-- The days at a period's ends are read from the index alone (no visit of rows spread
-- over the table).
CREATE INDEX idx_statistics_product_daily_sums ON statistics_product_daily (currency, day, product_id, variant_id{{if .Postgres}}) INCLUDE ({{else}}, {{end}}orders, quantity, refunded_quantity, revenue, refunded);

-- Returning customers of a period up to today (last order in it, first before it) are
-- counted from the index alone.
DROP INDEX idx_statistics_customer_totals_last;
CREATE INDEX idx_statistics_customer_totals_last ON statistics_customer_totals (currency, last_day, first_day);

-- The customers created per local day: the customer figures' totals and new customers
-- are sums of a few hundred days, not counts of every customer.
CREATE TABLE statistics_customer_days (
    day       text{{if .Postgres}} COLLATE "C"{{end}} PRIMARY KEY,
    customers {{.BigInt}} NOT NULL
);
INSERT INTO statistics_customer_days (day, customers) SELECT day, COUNT(*) FROM statistics_customers GROUP BY day;

-- +goose Down
DROP TABLE statistics_customer_days;
DROP INDEX idx_statistics_customer_totals_last;
CREATE INDEX idx_statistics_customer_totals_last ON statistics_customer_totals (currency, last_day);
DROP INDEX idx_statistics_product_daily_sums;
DROP TABLE statistics_product_monthly;

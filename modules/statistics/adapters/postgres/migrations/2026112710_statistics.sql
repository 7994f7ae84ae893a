-- +goose Up
-- Key text columns compare bytewise on PostgreSQL (COLLATE "C", as SQLite's BINARY):
-- their values are ids, codes and YYYY-MM-DD days.
-- Amounts are integers of ten-thousandths of the currency unit (the scale of
-- numeric(20,4)), so sums are exact on both engines; days are the store's local dates
-- YYYY-MM-DD (statistics.timezone); instants are Unix seconds (docs/decisions/0210).

-- One row per order seen in the order events: what the rollups were last given for it.
CREATE TABLE statistics_orders (
    order_id         text{{if .Postgres}} COLLATE "C"{{end}} PRIMARY KEY,
    version          {{.BigInt}} NOT NULL,
    currency         text{{if .Postgres}} COLLATE "C"{{end}} NOT NULL,
    customer_id      text{{if .Postgres}} COLLATE "C"{{end}} NOT NULL DEFAULT '',
    day              text{{if .Postgres}} COLLATE "C"{{end}} NOT NULL,
    created_at       {{.BigInt}} NOT NULL,
    status           text{{if .Postgres}} COLLATE "C"{{end}} NOT NULL,
    fulfillment      text{{if .Postgres}} COLLATE "C"{{end}} NOT NULL,
    channel          text{{if .Postgres}} COLLATE "C"{{end}} NOT NULL,
    payment_method   text{{if .Postgres}} COLLATE "C"{{end}} NOT NULL,
    country          text{{if .Postgres}} COLLATE "C"{{end}} NOT NULL,
    items            integer NOT NULL,
    gross            {{.BigInt}} NOT NULL,
    discounts        {{.BigInt}} NOT NULL,
    refunded         {{.BigInt}} NOT NULL,
    closed_at        {{.BigInt}} NOT NULL DEFAULT 0,
    fulfilled_at     {{.BigInt}} NOT NULL DEFAULT 0,
    same_day         integer NOT NULL DEFAULT 0
);
CREATE INDEX idx_statistics_orders_day ON statistics_orders (currency, day, customer_id);
CREATE INDEX idx_statistics_orders_customer ON statistics_orders (customer_id, currency);

-- The lines of those orders (product rollups are made of them).
CREATE TABLE statistics_order_lines (
    order_id          text{{if .Postgres}} COLLATE "C"{{end}} NOT NULL,
    line              integer NOT NULL,
    product_id        text{{if .Postgres}} COLLATE "C"{{end}} NOT NULL,
    variant_id        text{{if .Postgres}} COLLATE "C"{{end}} NOT NULL,
    title             text NOT NULL,
    sku               text{{if .Postgres}} COLLATE "C"{{end}} NOT NULL,
    quantity          integer NOT NULL,
    refunded_quantity integer NOT NULL,
    revenue           {{.BigInt}} NOT NULL,
    refunded          {{.BigInt}} NOT NULL,
    PRIMARY KEY (order_id, line)
);

-- Daily rollup of orders per currency and dimension (status and fulfillment are the
-- statistics' keys, docs/decisions/0211).
CREATE TABLE statistics_daily (
    day              text{{if .Postgres}} COLLATE "C"{{end}} NOT NULL,
    currency         text{{if .Postgres}} COLLATE "C"{{end}} NOT NULL,
    channel          text{{if .Postgres}} COLLATE "C"{{end}} NOT NULL,
    payment_method   text{{if .Postgres}} COLLATE "C"{{end}} NOT NULL,
    status           text{{if .Postgres}} COLLATE "C"{{end}} NOT NULL,
    fulfillment      text{{if .Postgres}} COLLATE "C"{{end}} NOT NULL,
    country          text{{if .Postgres}} COLLATE "C"{{end}} NOT NULL,
    orders           {{.BigInt}} NOT NULL,
    items            {{.BigInt}} NOT NULL,
    gross            {{.BigInt}} NOT NULL,
    discounts        {{.BigInt}} NOT NULL,
    refunded         {{.BigInt}} NOT NULL,
    closed_orders    {{.BigInt}} NOT NULL,
    closed_secs      {{.BigInt}} NOT NULL,
    fulfilled_orders {{.BigInt}} NOT NULL,
    fulfilled_secs   {{.BigInt}} NOT NULL,
    same_day         {{.BigInt}} NOT NULL,
    within_48h       {{.BigInt}} NOT NULL,
    PRIMARY KEY (currency, day, channel, payment_method, status, fulfillment, country)
);

-- Daily rollup of products sold per currency (orders not cancelled).
CREATE TABLE statistics_product_daily (
    day               text{{if .Postgres}} COLLATE "C"{{end}} NOT NULL,
    currency          text{{if .Postgres}} COLLATE "C"{{end}} NOT NULL,
    product_id        text{{if .Postgres}} COLLATE "C"{{end}} NOT NULL,
    variant_id        text{{if .Postgres}} COLLATE "C"{{end}} NOT NULL,
    orders            {{.BigInt}} NOT NULL,
    quantity          {{.BigInt}} NOT NULL,
    refunded_quantity {{.BigInt}} NOT NULL,
    revenue           {{.BigInt}} NOT NULL,
    refunded          {{.BigInt}} NOT NULL,
    PRIMARY KEY (currency, day, product_id, variant_id)
);

-- The catalog as the product events show it: titles, types, costs and stock.
CREATE TABLE statistics_products (
    product_id          text{{if .Postgres}} COLLATE "C"{{end}} PRIMARY KEY,
    title               text NOT NULL,
    product_type        text NOT NULL,
    currency            text{{if .Postgres}} COLLATE "C"{{end}} NOT NULL,
    inventory_quantity  integer NOT NULL,
    low_stock_threshold integer NOT NULL,
    tracked             {{.Bool}} NOT NULL
);
CREATE TABLE statistics_variants (
    variant_id         text{{if .Postgres}} COLLATE "C"{{end}} PRIMARY KEY,
    product_id         text{{if .Postgres}} COLLATE "C"{{end}} NOT NULL,
    title              text NOT NULL,
    sku                text{{if .Postgres}} COLLATE "C"{{end}} NOT NULL,
    cost               {{.BigInt}},
    inventory_quantity integer NOT NULL
);
CREATE INDEX idx_statistics_variants_product ON statistics_variants (product_id);

-- Customers as the customer events show them, with the source of their first order.
CREATE TABLE statistics_customers (
    customer_id text{{if .Postgres}} COLLATE "C"{{end}} PRIMARY KEY,
    day         text{{if .Postgres}} COLLATE "C"{{end}} NOT NULL,
    created_at  {{.BigInt}} NOT NULL,
    source      text NOT NULL DEFAULT ''
);
CREATE INDEX idx_statistics_customers_day ON statistics_customers (day);

-- Each customer's orders (not cancelled) per currency, recomputed from
-- statistics_orders whenever one of them changes.
CREATE TABLE statistics_customer_totals (
    customer_id text{{if .Postgres}} COLLATE "C"{{end}} NOT NULL,
    currency    text{{if .Postgres}} COLLATE "C"{{end}} NOT NULL,
    orders      integer NOT NULL,
    spent       {{.BigInt}} NOT NULL,
    first_at    {{.BigInt}} NOT NULL,
    last_at     {{.BigInt}} NOT NULL,
    first_day   text{{if .Postgres}} COLLATE "C"{{end}} NOT NULL,
    last_day    text{{if .Postgres}} COLLATE "C"{{end}} NOT NULL,
    first_channel text{{if .Postgres}} COLLATE "C"{{end}} NOT NULL,
    PRIMARY KEY (customer_id, currency)
);
CREATE INDEX idx_statistics_customer_totals_last ON statistics_customer_totals (currency, last_day);

-- The computed segments (vip, loyal, new, at_risk, dormant), replaced by each run of
-- the segments job, with the member's orders and spend in the run's currency then; and
-- the run (its currency, the number of customers with orders, its day).
CREATE TABLE statistics_segments (
    segment     text{{if .Postgres}} COLLATE "C"{{end}} NOT NULL,
    customer_id text{{if .Postgres}} COLLATE "C"{{end}} NOT NULL,
    currency    text{{if .Postgres}} COLLATE "C"{{end}} NOT NULL,
    orders      integer NOT NULL,
    spent       {{.BigInt}} NOT NULL,
    PRIMARY KEY (segment, customer_id)
);
CREATE INDEX idx_statistics_segments_customer ON statistics_segments (customer_id);
CREATE TABLE statistics_segment_runs (
    currency text{{if .Postgres}} COLLATE "C"{{end}} PRIMARY KEY,
    buyers   {{.BigInt}} NOT NULL,
    today    text NOT NULL
);

-- Subscriptions as the subscription events show them: status, monthly amount (the
-- amount per month of its interval, for MRR) and the local days it started and ended.
CREATE TABLE statistics_subscriptions (
    subscription_id text{{if .Postgres}} COLLATE "C"{{end}} PRIMARY KEY,
    version         {{.BigInt}} NOT NULL,
    currency        text{{if .Postgres}} COLLATE "C"{{end}} NOT NULL,
    status          text{{if .Postgres}} COLLATE "C"{{end}} NOT NULL,
    mrr             {{.BigInt}} NOT NULL,
    started_day     text{{if .Postgres}} COLLATE "C"{{end}} NOT NULL,
    ended_day       text{{if .Postgres}} COLLATE "C"{{end}} NOT NULL DEFAULT ''
);
CREATE INDEX idx_statistics_subscriptions_currency ON statistics_subscriptions (currency, status);

-- +goose Down
DROP TABLE statistics_subscriptions;
DROP TABLE statistics_segment_runs;
DROP TABLE statistics_segments;
DROP TABLE statistics_customer_totals;
DROP TABLE statistics_customers;
DROP TABLE statistics_variants;
DROP TABLE statistics_products;
DROP TABLE statistics_product_daily;
DROP TABLE statistics_daily;
DROP TABLE statistics_order_lines;
DROP TABLE statistics_orders;

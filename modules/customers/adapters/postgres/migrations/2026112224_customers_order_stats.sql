-- +goose Up
-- One row per order seen in order events (docs/decisions/0044): re-delivered events
-- update the same row, so statistics never double count.
CREATE TABLE customers_order_stats (
    order_id         text PRIMARY KEY,
    customer_id      {{.UUID}} NOT NULL,
    order_number     text NOT NULL DEFAULT '',
    total_price      {{.Money}} NOT NULL,
    currency         text NOT NULL DEFAULT '',
    status           text NOT NULL DEFAULT '',
    financial_status text NOT NULL DEFAULT '',
    order_created_at {{.Time}} NOT NULL,
    order_updated_at {{.Time}} NOT NULL,
    recorded_at      {{.Time}} NOT NULL
);
CREATE INDEX idx_customers_order_stats_customer ON customers_order_stats (customer_id);

-- +goose Down
DROP TABLE customers_order_stats;

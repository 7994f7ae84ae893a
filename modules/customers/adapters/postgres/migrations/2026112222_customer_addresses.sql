-- +goose Up
-- Saved addresses. At most one default shipping and one default billing address per
-- customer, enforced by unique partial indexes (PostgreSQL and SQLite both have them).
CREATE TABLE customer_addresses (
    id                  {{.UUID}} PRIMARY KEY,
    customer_id         {{.UUID}} NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    first_name          text NOT NULL DEFAULT '',
    last_name           text NOT NULL DEFAULT '',
    company             text NOT NULL DEFAULT '',
    phone               text NOT NULL DEFAULT '',
    address1            text NOT NULL,
    address2            text NOT NULL DEFAULT '',
    city                text NOT NULL,
    province            text NOT NULL DEFAULT '',
    country             text NOT NULL,
    zip                 text NOT NULL DEFAULT '',
    is_default_shipping {{.Bool}} NOT NULL DEFAULT false,
    is_default_billing  {{.Bool}} NOT NULL DEFAULT false,
    created_at          {{.Time}} NOT NULL,
    updated_at          {{.Time}} NOT NULL
);
CREATE INDEX idx_customer_addresses_customer ON customer_addresses (customer_id, created_at);
CREATE UNIQUE INDEX ux_customer_addresses_default_shipping ON customer_addresses (customer_id) WHERE is_default_shipping;
CREATE UNIQUE INDEX ux_customer_addresses_default_billing ON customer_addresses (customer_id) WHERE is_default_billing;

-- +goose Down
DROP TABLE customer_addresses;

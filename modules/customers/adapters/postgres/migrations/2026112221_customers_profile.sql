-- +goose Up
-- Part 2 customer fields, order statistics (kept current from order events) and the
-- anonymization mark. JSON values are kept as text. total_spent_units is total_spent
-- times 10^4 as an integer, so filters and sorting compare exactly on both engines.
ALTER TABLE customers ADD COLUMN phone text NOT NULL DEFAULT '';
ALTER TABLE customers ADD COLUMN accepts_marketing {{.Bool}} NOT NULL DEFAULT false;
ALTER TABLE customers ADD COLUMN marketing_opt_in_at {{.Time}};
ALTER TABLE customers ADD COLUMN tax_exempt {{.Bool}} NOT NULL DEFAULT false;
ALTER TABLE customers ADD COLUMN tax_exemptions text NOT NULL DEFAULT '[]';
ALTER TABLE customers ADD COLUMN currency text NOT NULL DEFAULT '';
ALTER TABLE customers ADD COLUMN language text NOT NULL DEFAULT '';
ALTER TABLE customers ADD COLUMN note text NOT NULL DEFAULT '';
ALTER TABLE customers ADD COLUMN tags text NOT NULL DEFAULT '[]';
ALTER TABLE customers ADD COLUMN verified_email {{.Bool}} NOT NULL DEFAULT false;
ALTER TABLE customers ADD COLUMN metafields text NOT NULL DEFAULT '{}';
ALTER TABLE customers ADD COLUMN has_password {{.Bool}} NOT NULL DEFAULT false;
ALTER TABLE customers ADD COLUMN orders_count integer NOT NULL DEFAULT 0;
ALTER TABLE customers ADD COLUMN paid_orders_count integer NOT NULL DEFAULT 0;
ALTER TABLE customers ADD COLUMN total_spent {{.Money}} NOT NULL DEFAULT '0';
ALTER TABLE customers ADD COLUMN total_spent_units {{.BigInt}} NOT NULL DEFAULT 0;
ALTER TABLE customers ADD COLUMN stats_currency text NOT NULL DEFAULT '';
ALTER TABLE customers ADD COLUMN last_order_id text;
ALTER TABLE customers ADD COLUMN last_order_name text NOT NULL DEFAULT '';
ALTER TABLE customers ADD COLUMN last_order_at {{.Time}};
ALTER TABLE customers ADD COLUMN anonymized_at {{.Time}};
-- Customers registered before this migration set their password at registration.
UPDATE customers SET has_password = true WHERE state = 'enabled';
CREATE INDEX idx_customers_updated_at ON customers (updated_at);
CREATE INDEX idx_customers_state ON customers (state, created_at);
CREATE INDEX idx_customers_phone ON customers (phone);
CREATE INDEX idx_customers_orders_count ON customers (orders_count);
CREATE INDEX idx_customers_total_spent ON customers (total_spent_units);
CREATE INDEX idx_customers_last_order_at ON customers (last_order_at);
CREATE INDEX idx_customers_accepts_marketing ON customers (accepts_marketing, created_at);

-- Tags, one row per customer and lower-cased tag: portable, indexable tag filters.
CREATE TABLE customer_tags (
    customer_id {{.UUID}} NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    tag         text NOT NULL,
    PRIMARY KEY (customer_id, tag)
);
CREATE INDEX idx_customer_tags_tag ON customer_tags (tag, customer_id);

-- +goose Down
DROP TABLE customer_tags;
DROP INDEX idx_customers_accepts_marketing;
DROP INDEX idx_customers_last_order_at;
DROP INDEX idx_customers_total_spent;
DROP INDEX idx_customers_orders_count;
DROP INDEX idx_customers_phone;
DROP INDEX idx_customers_state;
DROP INDEX idx_customers_updated_at;
ALTER TABLE customers DROP COLUMN anonymized_at;
ALTER TABLE customers DROP COLUMN last_order_at;
ALTER TABLE customers DROP COLUMN last_order_name;
ALTER TABLE customers DROP COLUMN last_order_id;
ALTER TABLE customers DROP COLUMN stats_currency;
ALTER TABLE customers DROP COLUMN total_spent_units;
ALTER TABLE customers DROP COLUMN total_spent;
ALTER TABLE customers DROP COLUMN paid_orders_count;
ALTER TABLE customers DROP COLUMN orders_count;
ALTER TABLE customers DROP COLUMN has_password;
ALTER TABLE customers DROP COLUMN metafields;
ALTER TABLE customers DROP COLUMN verified_email;
ALTER TABLE customers DROP COLUMN tags;
ALTER TABLE customers DROP COLUMN note;
ALTER TABLE customers DROP COLUMN language;
ALTER TABLE customers DROP COLUMN currency;
ALTER TABLE customers DROP COLUMN tax_exemptions;
ALTER TABLE customers DROP COLUMN tax_exempt;
ALTER TABLE customers DROP COLUMN marketing_opt_in_at;
ALTER TABLE customers DROP COLUMN accepts_marketing;
ALTER TABLE customers DROP COLUMN phone;

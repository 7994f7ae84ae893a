-- +goose Up
CREATE TABLE customers (
    id         {{.UUID}} PRIMARY KEY,
    email      text NOT NULL,
    first_name text NOT NULL DEFAULT '',
    last_name  text NOT NULL DEFAULT '',
    state      text NOT NULL DEFAULT 'enabled',
    created_at {{.Time}} NOT NULL,
    updated_at {{.Time}} NOT NULL
);
CREATE UNIQUE INDEX ux_customers_email ON customers (email);
CREATE INDEX idx_customers_created_at ON customers (created_at);

-- +goose Down
DROP TABLE customers;

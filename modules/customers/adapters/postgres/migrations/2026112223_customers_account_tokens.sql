-- +goose Up
-- Invite activation and password reset tokens: only the SHA-256 of the token is kept
-- (docs/decisions/0042). One live token per customer and purpose.
CREATE TABLE customers_account_tokens (
    id          {{.UUID}} PRIMARY KEY,
    customer_id {{.UUID}} NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
    purpose     text NOT NULL,
    token_hash  text NOT NULL,
    expires_at  {{.Time}} NOT NULL,
    created_at  {{.Time}} NOT NULL
);
CREATE UNIQUE INDEX ux_customers_account_tokens_customer ON customers_account_tokens (customer_id, purpose);
CREATE UNIQUE INDEX ux_customers_account_tokens_hash ON customers_account_tokens (token_hash);
CREATE INDEX idx_customers_account_tokens_expires ON customers_account_tokens (expires_at);

-- +goose Down
DROP TABLE customers_account_tokens;

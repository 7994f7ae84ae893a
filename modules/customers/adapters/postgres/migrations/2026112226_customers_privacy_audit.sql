-- +goose Up
-- Who ran which privacy operation (export, anonymize, delete) on which customer, when.
-- Kept after the customer is deleted (the id is not personal data on its own).
CREATE TABLE customers_privacy_audit (
    id          {{.UUID}} PRIMARY KEY,
    customer_id {{.UUID}} NOT NULL,
    action      text NOT NULL,
    actor       text NOT NULL,
    actor_kind  text NOT NULL,
    created_at  {{.Time}} NOT NULL
);
CREATE INDEX idx_customers_privacy_audit_customer ON customers_privacy_audit (customer_id, created_at);

-- +goose Down
DROP TABLE customers_privacy_audit;

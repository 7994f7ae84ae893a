-- +goose Up
CREATE TABLE payments_payments (
    id                 text PRIMARY KEY,
    gateway            text NOT NULL,
    transaction_id     text NOT NULL DEFAULT '',
    provider_reference text NOT NULL DEFAULT '',
    status             text NOT NULL,
    amount             {{.Money}} NOT NULL,
    amount_captured    {{.Money}} NOT NULL,
    amount_refunded    {{.Money}} NOT NULL,
    currency           text NOT NULL,
    capture_method     text NOT NULL,
    customer_id        text NOT NULL DEFAULT '',
    customer_email     text NOT NULL DEFAULT '',
    order_id           text NOT NULL DEFAULT '',
    owner              text NOT NULL DEFAULT '',
    description        text NOT NULL DEFAULT '',
    metadata           {{.JSON}},
    method_type        text NOT NULL DEFAULT '',
    card_brand         text NOT NULL DEFAULT '',
    last_four          text NOT NULL DEFAULT '',
    exp_month          integer NOT NULL DEFAULT 0,
    exp_year           integer NOT NULL DEFAULT 0,
    cardholder_name    text NOT NULL DEFAULT '',
    provider_method    text NOT NULL DEFAULT '',
    provider_customer  text NOT NULL DEFAULT '',
    saved_method_token text NOT NULL DEFAULT '',
    save_requested     {{.Bool}} NOT NULL DEFAULT FALSE,
    return_url         text NOT NULL DEFAULT '',
    action_type        text NOT NULL DEFAULT '',
    action_data        {{.JSON}},
    action_expires_at  {{.Time}},
    error_code         text NOT NULL DEFAULT '',
    error_message      text NOT NULL DEFAULT '',
    retry_allowed      {{.Bool}} NOT NULL DEFAULT FALSE,
    receipt_url        text NOT NULL DEFAULT '',
    created_at         {{.Time}} NOT NULL,
    updated_at         {{.Time}} NOT NULL,
    completed_at       {{.Time}},
    captured_at        {{.Time}},
    canceled_at        {{.Time}},
    version            integer NOT NULL DEFAULT 1
);
CREATE UNIQUE INDEX ux_payments_payments_transaction ON payments_payments (gateway, transaction_id) WHERE transaction_id <> '';
CREATE INDEX idx_payments_payments_customer ON payments_payments (customer_id, created_at);
CREATE INDEX idx_payments_payments_order ON payments_payments (order_id);
CREATE INDEX idx_payments_payments_status ON payments_payments (status, created_at);

CREATE TABLE payments_refunds (
    id                 text PRIMARY KEY,
    payment_id         text NOT NULL REFERENCES payments_payments (id),
    amount             {{.Money}} NOT NULL,
    currency           text NOT NULL,
    status             text NOT NULL,
    reason             text NOT NULL DEFAULT '',
    metadata           {{.JSON}},
    provider_refund_id text NOT NULL DEFAULT '',
    failure_reason     text NOT NULL DEFAULT '',
    created_at         {{.Time}} NOT NULL,
    updated_at         {{.Time}} NOT NULL
);
CREATE INDEX idx_payments_refunds_payment ON payments_refunds (payment_id, created_at);
CREATE INDEX idx_payments_refunds_provider ON payments_refunds (provider_refund_id);

CREATE TABLE payments_saved_methods (
    token             text PRIMARY KEY,
    owner             text NOT NULL,
    gateway           text NOT NULL,
    provider_token    text NOT NULL DEFAULT '',
    provider_customer text NOT NULL DEFAULT '',
    method_type       text NOT NULL,
    card_brand        text NOT NULL DEFAULT '',
    last_four         text NOT NULL DEFAULT '',
    exp_month         integer NOT NULL DEFAULT 0,
    exp_year          integer NOT NULL DEFAULT 0,
    cardholder_name   text NOT NULL DEFAULT '',
    is_default        {{.Bool}} NOT NULL DEFAULT FALSE,
    expires_at        {{.Time}},
    created_at        {{.Time}} NOT NULL
);
CREATE INDEX idx_payments_saved_methods_owner ON payments_saved_methods (owner, created_at);
-- At most one default per owner.
CREATE UNIQUE INDEX ux_payments_saved_methods_default ON payments_saved_methods (owner) WHERE is_default;

CREATE TABLE payments_idempotency_keys (
    scope        text NOT NULL,
    idem_key     text NOT NULL,
    request_hash text NOT NULL,
    payment_id   text NOT NULL DEFAULT '',
    completed    {{.Bool}} NOT NULL DEFAULT FALSE,
    response     text,
    created_at   {{.Time}} NOT NULL,
    completed_at {{.Time}},
    PRIMARY KEY (scope, idem_key)
);
CREATE INDEX idx_payments_idempotency_created ON payments_idempotency_keys (created_at);

CREATE TABLE payments_webhook_events (
    id                {{.UUID}} PRIMARY KEY,
    gateway           text NOT NULL,
    provider_event_id text NOT NULL,
    type              text NOT NULL DEFAULT '',
    payload           text NOT NULL DEFAULT '',
    received_at       {{.Time}} NOT NULL
);
CREATE UNIQUE INDEX ux_payments_webhook_events ON payments_webhook_events (gateway, provider_event_id);
CREATE INDEX idx_payments_webhook_events_received ON payments_webhook_events (received_at);

-- +goose Down
DROP TABLE payments_webhook_events;
DROP TABLE payments_idempotency_keys;
DROP TABLE payments_saved_methods;
DROP TABLE payments_refunds;
DROP TABLE payments_payments;

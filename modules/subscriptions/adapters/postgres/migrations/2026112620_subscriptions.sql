-- +goose Up
CREATE TABLE subscriptions (
    id                   {{.UUID}} PRIMARY KEY,
    customer_id          text NOT NULL,
    order_id             text NOT NULL,
    product_id           text NOT NULL,
    variant_id           text NOT NULL DEFAULT '',
    product_name         text NOT NULL DEFAULT '',
    status               text NOT NULL,
    billing_interval     text NOT NULL,
    interval_count       integer NOT NULL,
    currency             text NOT NULL,
    amount               {{.Money}} NOT NULL,
    setup_fee            {{.Money}} NOT NULL,
    trial_days           integer NOT NULL DEFAULT 0,
    trial_ends_at        {{.Time}},
    current_cycle        integer NOT NULL DEFAULT 0,
    min_cycles           integer NOT NULL DEFAULT 0,
    max_cycles           integer,
    starts_at            {{.Time}} NOT NULL,
    next_billing_at      {{.Time}},
    last_billing_at      {{.Time}},
    ends_at              {{.Time}},
    cancelled_at         {{.Time}},
    cancellation_reason  text NOT NULL DEFAULT '',
    cancellation_details text NOT NULL DEFAULT '',
    cancel_at_end        {{.Bool}} NOT NULL DEFAULT FALSE,
    payment_method_id    text NOT NULL,
    gateway              text NOT NULL,
    notes                text NOT NULL DEFAULT '',
    billing_anchor       {{.Time}} NOT NULL,
    anchor_cycle         integer NOT NULL DEFAULT 0,
    paused_at            {{.Time}},
    grace_ends_at        {{.Time}},
    created_at           {{.Time}} NOT NULL,
    updated_at           {{.Time}} NOT NULL,
    version              integer NOT NULL DEFAULT 1
);
CREATE INDEX idx_subscriptions_customer ON subscriptions (customer_id, created_at);
-- The renewal sweep reads the subscriptions due by next_billing_at.
CREATE INDEX idx_subscriptions_due ON subscriptions (status, next_billing_at);

CREATE TABLE subscription_invoices (
    id                {{.UUID}} PRIMARY KEY,
    subscription_id   {{.UUID}} NOT NULL REFERENCES subscriptions (id),
    customer_id       text NOT NULL,
    order_ref         text NOT NULL,
    order_id          text NOT NULL DEFAULT '',
    cycle_number      integer NOT NULL,
    period_start      {{.Time}} NOT NULL,
    period_end        {{.Time}} NOT NULL,
    subtotal          {{.Money}} NOT NULL,
    tax_total         {{.Money}} NOT NULL,
    total             {{.Money}} NOT NULL,
    currency          text NOT NULL,
    status            text NOT NULL,
    paid_at           {{.Time}},
    payment_id        text NOT NULL DEFAULT '',
    failed_attempts   integer NOT NULL DEFAULT 0,
    last_failed_at    {{.Time}},
    first_failed_at   {{.Time}},
    failure_reason    text NOT NULL DEFAULT '',
    next_retry_at     {{.Time}},
    retry_count       integer NOT NULL DEFAULT 0,
    recovered_attempt integer NOT NULL DEFAULT 0,
    lost_at           {{.Time}},
    claim_token       text NOT NULL DEFAULT '',
    claimed_until     {{.Time}},
    created_at        {{.Time}} NOT NULL,
    updated_at        {{.Time}} NOT NULL
);
-- One invoice per cycle: two workers renewing the same subscription meet here.
CREATE UNIQUE INDEX ux_subscription_invoices_cycle ON subscription_invoices (subscription_id, cycle_number);
CREATE INDEX idx_subscription_invoices_status ON subscription_invoices (status, next_retry_at);
CREATE INDEX idx_subscription_invoices_payment ON subscription_invoices (payment_id);
CREATE INDEX idx_subscription_invoices_dunning ON subscription_invoices (first_failed_at);

CREATE TABLE subscription_attempts (
    id              {{.UUID}} PRIMARY KEY,
    invoice_id      {{.UUID}} NOT NULL REFERENCES subscription_invoices (id),
    subscription_id {{.UUID}} NOT NULL,
    attempt_number  integer NOT NULL,
    attempted_at    {{.Time}} NOT NULL,
    succeeded       {{.Bool}} NOT NULL,
    error_code      text NOT NULL DEFAULT '',
    error_message   text NOT NULL DEFAULT '',
    payment_id      text NOT NULL DEFAULT '',
    manual          {{.Bool}} NOT NULL DEFAULT FALSE
);
-- One record per charge attempt of an invoice.
CREATE UNIQUE INDEX ux_subscription_attempts ON subscription_attempts (invoice_id, attempt_number);
CREATE INDEX idx_subscription_attempts_subscription ON subscription_attempts (subscription_id, attempted_at);

CREATE TABLE subscription_dunning_emails (
    id              {{.UUID}} PRIMARY KEY,
    subscription_id {{.UUID}} NOT NULL,
    invoice_id      {{.UUID}} NOT NULL,
    email_type      text NOT NULL,
    notification_id text NOT NULL DEFAULT '',
    sent_at         {{.Time}} NOT NULL
);
CREATE INDEX idx_subscription_dunning_emails ON subscription_dunning_emails (subscription_id, sent_at);

-- +goose Down
DROP TABLE subscription_dunning_emails;
DROP TABLE subscription_attempts;
DROP TABLE subscription_invoices;
DROP TABLE subscriptions;

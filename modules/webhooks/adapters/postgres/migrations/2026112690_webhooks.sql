-- +goose Up
CREATE TABLE webhook_endpoints (
    id              {{.UUID}} PRIMARY KEY,
    url             text NOT NULL,
    description     text NOT NULL DEFAULT '',
    events          text NOT NULL,
    secret          text NOT NULL,
    enabled         {{.Bool}} NOT NULL DEFAULT TRUE,
    failure_streak  integer NOT NULL DEFAULT 0,
    disabled_at     {{.Time}},
    disabled_reason text NOT NULL DEFAULT '',
    -- The lease of the endpoint's delivery task (one worker per endpoint).
    lease_token     text NOT NULL DEFAULT '',
    locked_until    {{.Time}},
    created_at      {{.Time}} NOT NULL,
    updated_at      {{.Time}} NOT NULL
);
CREATE INDEX idx_webhook_endpoints_created ON webhook_endpoints (created_at, id);

CREATE TABLE webhook_deliveries (
    id               {{.UUID}} PRIMARY KEY,
    endpoint_id      {{.UUID}} NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    event_id         text NOT NULL,
    event_type       text NOT NULL,
    payload          text NOT NULL,
    -- endpoint:event for the first delivery of an event (the bus delivers at least
    -- once), the delivery's own id for a redelivery.
    dedupe_key       text NOT NULL,
    status           text NOT NULL,
    attempts         integer NOT NULL DEFAULT 0,
    next_attempt_at  {{.Time}},
    last_status_code integer NOT NULL DEFAULT 0,
    last_error       text NOT NULL DEFAULT '',
    redelivery_of    text NOT NULL DEFAULT '',
    created_at       {{.Time}} NOT NULL,
    updated_at       {{.Time}} NOT NULL,
    completed_at     {{.Time}}
);
CREATE UNIQUE INDEX ux_webhook_deliveries_dedupe ON webhook_deliveries (dedupe_key);
CREATE INDEX idx_webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, created_at);
-- The task and the sweep read the pending deliveries by due time.
CREATE INDEX idx_webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at);

CREATE TABLE webhook_delivery_attempts (
    id            {{.UUID}} PRIMARY KEY,
    delivery_id   {{.UUID}} NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
    endpoint_id   {{.UUID}} NOT NULL,
    attempt       integer NOT NULL,
    status_code   integer NOT NULL DEFAULT 0,
    duration_ms   {{.BigInt}} NOT NULL DEFAULT 0,
    response_body text NOT NULL DEFAULT '',
    error         text NOT NULL DEFAULT '',
    created_at    {{.Time}} NOT NULL
);
CREATE INDEX idx_webhook_delivery_attempts_delivery ON webhook_delivery_attempts (delivery_id, attempt);

-- +goose Down
DROP TABLE webhook_delivery_attempts;
DROP TABLE webhook_deliveries;
DROP TABLE webhook_endpoints;

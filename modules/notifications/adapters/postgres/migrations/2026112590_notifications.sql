-- +goose Up
CREATE TABLE notifications (
    id                  {{.UUID}} PRIMARY KEY,
    channel             text NOT NULL,
    recipient           text NOT NULL,
    subject             text NOT NULL DEFAULT '',
    body                text NOT NULL DEFAULT '',
    html_body           text NOT NULL DEFAULT '',
    priority            text NOT NULL,
    priority_rank       integer NOT NULL,
    status              text NOT NULL,
    attempt_count       integer NOT NULL DEFAULT 0,
    max_attempts        integer NOT NULL,
    error_message       text NOT NULL DEFAULT '',
    metadata            text NOT NULL DEFAULT '{}',
    template_id         text NOT NULL DEFAULT '',
    customer_id         text NOT NULL DEFAULT '',
    batch_id            text NOT NULL DEFAULT '',
    provider_message_id text NOT NULL DEFAULT '',
    -- The store's own messages are sent once per event: the event id and the message.
    dedupe_key          text,
    scheduled_at        {{.Time}},
    next_attempt_at     {{.Time}},
    claimed_until       {{.Time}},
    sent_at             {{.Time}},
    delivered_at        {{.Time}},
    created_at          {{.Time}} NOT NULL,
    updated_at          {{.Time}} NOT NULL
);
CREATE UNIQUE INDEX ux_notifications_dedupe ON notifications (dedupe_key);
CREATE INDEX idx_notifications_created ON notifications (created_at);
CREATE INDEX idx_notifications_customer ON notifications (customer_id, created_at);
-- The sweep reads what is due: pending or failed with a time that passed.
CREATE INDEX idx_notifications_due ON notifications (status, next_attempt_at);
CREATE INDEX idx_notifications_batch ON notifications (batch_id, status);
CREATE INDEX idx_notifications_provider ON notifications (provider_message_id);

CREATE TABLE notification_attempts (
    id              {{.UUID}} PRIMARY KEY,
    notification_id {{.UUID}} NOT NULL REFERENCES notifications (id),
    channel         text NOT NULL,
    status          text NOT NULL,
    error           text NOT NULL DEFAULT '',
    attempted_at    {{.Time}} NOT NULL
);
CREATE INDEX idx_notification_attempts ON notification_attempts (notification_id, attempted_at);

CREATE TABLE notification_templates (
    id         text PRIMARY KEY,
    name       text NOT NULL,
    channel    text NOT NULL,
    category   text NOT NULL,
    subject    text NOT NULL DEFAULT '',
    body       text NOT NULL,
    html_body  text NOT NULL DEFAULT '',
    variables  text NOT NULL DEFAULT '[]',
    is_system  {{.Bool}} NOT NULL DEFAULT FALSE,
    created_at {{.Time}} NOT NULL,
    updated_at {{.Time}} NOT NULL
);

-- Inbound delivery-status webhook events already applied (each id once).
CREATE TABLE notification_delivery_events (
    id          text PRIMARY KEY,
    received_at {{.Time}} NOT NULL
);

-- Carts with items, from the cart events, for the abandoned-cart sweep.
CREATE TABLE notification_cart_activity (
    cart_id        text PRIMARY KEY,
    customer_id    text NOT NULL DEFAULT '',
    email          text NOT NULL DEFAULT '',
    currency       text NOT NULL DEFAULT '',
    total          text NOT NULL DEFAULT '',
    item_count     integer NOT NULL DEFAULT 0,
    last_active_at {{.Time}} NOT NULL,
    reminded_at    {{.Time}}
);
CREATE INDEX idx_notification_cart_activity ON notification_cart_activity (reminded_at, last_active_at);

-- +goose Down
DROP TABLE notification_cart_activity;
DROP TABLE notification_delivery_events;
DROP TABLE notification_templates;
DROP TABLE notification_attempts;
DROP TABLE notifications;

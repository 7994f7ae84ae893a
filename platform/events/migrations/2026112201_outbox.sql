-- +goose Up
CREATE TABLE outbox_events (
    id              {{.UUID}} PRIMARY KEY,
    type            text NOT NULL,
    aggregate_id    text NOT NULL DEFAULT '',
    payload         {{.JSON}} NOT NULL,
    occurred_at     {{.Time}} NOT NULL,
    published_at    {{.Time}},
    next_attempt_at {{.Time}} NOT NULL,
    claim           text NOT NULL DEFAULT '',
    locked_until    {{.Time}},
    attempts        integer NOT NULL DEFAULT 0,
    last_error      text NOT NULL DEFAULT ''
);
CREATE INDEX idx_outbox_pending ON outbox_events (next_attempt_at) WHERE published_at IS NULL;
CREATE INDEX idx_outbox_type ON outbox_events (type, occurred_at);

-- +goose Down
DROP TABLE outbox_events;

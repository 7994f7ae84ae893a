-- +goose Up
-- Delivery per consumer (docs/decisions/0109): the consumers that have handled an
-- event, as ",name,name,", and the registry of consumers every process keeps current
-- (one row per consumer and event type, "*" for every type).
ALTER TABLE outbox_events ADD COLUMN delivered_to text NOT NULL DEFAULT '';
CREATE TABLE event_consumers (
    consumer      text NOT NULL,
    event_type    text NOT NULL,
    registered_at {{.Time}} NOT NULL,
    seen_at       {{.Time}} NOT NULL,
    caught_up_at  {{.Time}},
    PRIMARY KEY (consumer, event_type)
);

-- +goose Down
DROP TABLE event_consumers;
ALTER TABLE outbox_events DROP COLUMN delivered_to;

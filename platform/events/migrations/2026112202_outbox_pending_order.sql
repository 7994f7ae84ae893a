-- +goose Up
-- The relay reads pending events in (occurred_at, id) order; this partial index serves
-- that order directly instead of sorting (docs/performance.md).
CREATE INDEX idx_outbox_pending_order ON outbox_events (occurred_at, id) WHERE published_at IS NULL;
CREATE INDEX idx_outbox_published ON outbox_events (published_at) WHERE published_at IS NOT NULL;

-- +goose Down
DROP INDEX idx_outbox_published;
DROP INDEX idx_outbox_pending_order;

-- +goose Up
-- The relay's claim walks the pending events in (occurred_at, id) order and stops at
-- its batch: idx_outbox_pending_order serves that. idx_outbox_pending (by
-- next_attempt_at) let the planner read every due pending event and sort them
-- instead, which costs the whole backlog on every claim when the relay is behind
-- (38 ms a claim at 19,000 pending); idx_outbox_type served no query. Each index also
-- cost every event's insert and non-HOT update. The table keeps room on its pages so
-- that a claim (claim, locked_until: no index reads them) is a HOT update, which
-- writes no index entry (decision 0238).
DROP INDEX idx_outbox_pending;
DROP INDEX idx_outbox_type;
{{if .Postgres -}}
ALTER TABLE outbox_events SET (fillfactor = 70);
{{- end}}

-- +goose Down
{{if .Postgres -}}
ALTER TABLE outbox_events RESET (fillfactor);
{{- end}}
CREATE INDEX idx_outbox_type ON outbox_events (type, occurred_at);
CREATE INDEX idx_outbox_pending ON outbox_events (next_attempt_at) WHERE published_at IS NULL;

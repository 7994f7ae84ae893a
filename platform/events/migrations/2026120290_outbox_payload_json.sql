-- +goose Up
-- An event's payload is written once and read back whole (by the relay, to decode
-- and deliver it); no query looks inside it. As jsonb every insert parsed it into
-- jsonb's binary form and every relay read printed it back to text (about 10 µs an
-- event of 1-3 kB on the bench host); json keeps the text as written (decision 0241).
-- The rewrite is of the undelivered and retained events only.
{{if .Postgres -}}
ALTER TABLE outbox_events ALTER COLUMN payload TYPE json USING payload::json;
ALTER TABLE outbox_events ALTER COLUMN payload SET COMPRESSION lz4;
{{- else -}}
SELECT 1;
{{- end}}

-- +goose Down
{{if .Postgres -}}
ALTER TABLE outbox_events ALTER COLUMN payload TYPE jsonb USING payload::jsonb;
ALTER TABLE outbox_events ALTER COLUMN payload SET COMPRESSION lz4;
{{- else -}}
SELECT 1;
{{- end}}

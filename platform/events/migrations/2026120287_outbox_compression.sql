-- +goose Up
-- An event's payload (an order's, with its lines and addresses, passes 2 kB) is
-- compressed with lz4 instead of pglz when it is large (decision 0236).
{{if .Postgres -}}
ALTER TABLE outbox_events ALTER COLUMN payload SET COMPRESSION lz4;
{{- else -}}
SELECT 1;
{{- end}}

-- +goose Down
{{if .Postgres -}}
ALTER TABLE outbox_events ALTER COLUMN payload SET COMPRESSION default;
{{- else -}}
SELECT 1;
{{- end}}

-- +goose Up
-- A session's data (the cart's lines, rates and tax breakdown, rewritten at each step)
-- is compressed with lz4 instead of pglz when it is large (decision 0236).
{{if .Postgres -}}
ALTER TABLE checkout_sessions ALTER COLUMN data SET COMPRESSION lz4;
{{- else -}}
SELECT 1;
{{- end}}

-- +goose Down
{{if .Postgres -}}
ALTER TABLE checkout_sessions ALTER COLUMN data SET COMPRESSION default;
{{- else -}}
SELECT 1;
{{- end}}

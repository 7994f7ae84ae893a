-- +goose Up
-- A message's bodies (an order confirmation's HTML is several kB) are compressed with
-- lz4 instead of pglz (decision 0236): a fraction of the CPU per message written.
{{if .Postgres -}}
ALTER TABLE notifications ALTER COLUMN body SET COMPRESSION lz4;
ALTER TABLE notifications ALTER COLUMN html_body SET COMPRESSION lz4;
{{- else -}}
SELECT 1;
{{- end}}

-- +goose Down
{{if .Postgres -}}
ALTER TABLE notifications ALTER COLUMN body SET COMPRESSION default;
ALTER TABLE notifications ALTER COLUMN html_body SET COMPRESSION default;
{{- else -}}
SELECT 1;
{{- end}}

-- +goose Up
-- Room on each page for the stock levels' rewrites (decision 0236): every reservation
-- and its commit update their levels' available and reserved, which no index holds; a
-- new row version that fits on its page touches no index (a HOT update).
{{if .Postgres -}}
ALTER TABLE inventory_levels SET (fillfactor = 85);
{{- else -}}
SELECT 1;
{{- end}}

-- +goose Down
{{if .Postgres -}}
ALTER TABLE inventory_levels RESET (fillfactor);
{{- else -}}
SELECT 1;
{{- end}}

-- +goose Up
-- On PostgreSQL the order's insert takes its number from the sequence (the column's
-- default, returned by the insert): one statement less per order (decision 0232).
{{if .Postgres -}}
ALTER TABLE orders ALTER COLUMN order_number SET DEFAULT nextval('orders_order_number_seq');
{{- else -}}
SELECT 1;
{{- end}}

-- +goose Down
{{if .Postgres -}}
ALTER TABLE orders ALTER COLUMN order_number DROP DEFAULT;
{{- else -}}
SELECT 1;
{{- end}}

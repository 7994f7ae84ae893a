-- +goose Up
-- On PostgreSQL order numbers come from a sequence, continuing the counter row: nextval
-- takes no lock, so concurrent creates no longer queue on the counter until commit
-- (docs/decisions/0232). SQLite, one writer at a time, keeps the counter row.
{{if .Postgres -}}
CREATE SEQUENCE orders_order_number_seq AS bigint;
SELECT setval('orders_order_number_seq', (SELECT value FROM orders_counters WHERE name = 'order_number'), true);
{{- else -}}
SELECT 1;
{{- end}}

-- +goose Down
{{if .Postgres -}}
DROP SEQUENCE orders_order_number_seq;
{{- else -}}
SELECT 1;
{{- end}}

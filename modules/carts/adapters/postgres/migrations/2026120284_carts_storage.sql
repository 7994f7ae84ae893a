-- +goose Up
-- Room on each page for a cart's rewrites (decision 0236): every add, update and
-- removal rewrites the cart's row (totals, version); a new row version that fits on
-- its page and changes no indexed column touches no index (a HOT update).
{{if .Postgres -}}
ALTER TABLE carts SET (fillfactor = 85);
ALTER TABLE cart_items SET (fillfactor = 85);
{{- else -}}
SELECT 1;
{{- end}}

-- +goose Down
{{if .Postgres -}}
ALTER TABLE carts RESET (fillfactor);
ALTER TABLE cart_items RESET (fillfactor);
{{- else -}}
SELECT 1;
{{- end}}

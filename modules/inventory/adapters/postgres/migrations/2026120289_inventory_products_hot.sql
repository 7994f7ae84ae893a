-- +goose Up
-- A product's stock record is rewritten (its updated_at) by every reservation of it,
-- which locks it; no query reads it by updated_at through an index (the levels list
-- sorts after grouping), so the index only made each rewrite insert two index entries.
-- Without it, and with room on each page, the rewrite is a HOT update (decision 0241).
DROP INDEX IF EXISTS idx_inventory_products_updated_at;
{{if .Postgres -}}
ALTER TABLE inventory_products SET (fillfactor = 85);
{{- end}}

-- +goose Down
{{if .Postgres -}}
ALTER TABLE inventory_products RESET (fillfactor);
{{- end}}
CREATE INDEX idx_inventory_products_updated_at ON inventory_products (updated_at);

-- +goose Up
-- Room on each page for the stock sync's rewrites (decision 0236): a product's or a
-- variant's inventory_quantity changes after every reservation, and an update whose new
-- row version fits on its page, with no indexed column changed, touches no index
-- (a HOT update). Full pages sent every such update to all sixteen product indexes,
-- the two search GIN indexes among them. Pages written before this keep their fill.
-- Three indexes that a longer one starts with are dropped: that one serves their reads.
{{if .Postgres -}}
ALTER TABLE products SET (fillfactor = 85);
ALTER TABLE product_variants SET (fillfactor = 85);
{{- else -}}
SELECT 1;
{{- end}}
DROP INDEX IF EXISTS idx_products_created_at;
DROP INDEX IF EXISTS idx_products_updated_at;
DROP INDEX IF EXISTS idx_products_status_created_at;

-- +goose Down
{{if .Postgres -}}
ALTER TABLE products RESET (fillfactor);
ALTER TABLE product_variants RESET (fillfactor);
{{- else -}}
SELECT 1;
{{- end}}
CREATE INDEX idx_products_created_at ON products (created_at);
CREATE INDEX idx_products_updated_at ON products (updated_at);
CREATE INDEX idx_products_status_created_at ON products (status, created_at);

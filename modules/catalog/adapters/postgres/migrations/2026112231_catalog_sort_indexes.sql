-- +goose Up
-- Sorts end with products.id as a tie-breaker; indexes that carry it let the planner
-- read a page in index order without an incremental sort (docs/performance.md).
CREATE INDEX idx_products_status_created_id ON products (status, created_at, id);
CREATE INDEX idx_products_created_id ON products (created_at, id);
CREATE INDEX idx_products_updated_id ON products (updated_at, id);

-- +goose Down
DROP INDEX idx_products_updated_id;
DROP INDEX idx_products_created_id;
DROP INDEX idx_products_status_created_id;

-- +goose Up
-- The title of a product the product events never showed is read from one of its
-- order lines (the products report and the dashboard's top products): an index, so
-- that each such product is one index lookup rather than a scan of every line
-- (docs/performance.md, session 20: the products report took seconds after a checkout
-- load of products the statistics had not seen).
CREATE INDEX idx_statistics_order_lines_product ON statistics_order_lines (product_id);

-- +goose Down
DROP INDEX idx_statistics_order_lines_product;

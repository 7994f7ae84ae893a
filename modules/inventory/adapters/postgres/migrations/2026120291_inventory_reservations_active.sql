-- +goose Up
-- Every query that finds reservations by order, product, variant or expiry asks for
-- the active ones (status 'active'), and a reservation is active for minutes: the
-- rest of the table is history. The four indexes hold only the active rows now, so
-- they stay as small as the reservations in flight, and a reservation's commit or
-- release (its status leaves 'active') writes no entry in them (decision 0241).
DROP INDEX idx_inventory_reservations_status_expires;
DROP INDEX idx_inventory_reservations_product;
DROP INDEX idx_inventory_reservations_variant;
DROP INDEX idx_inventory_reservations_order;
CREATE INDEX idx_inventory_reservations_active_expires ON inventory_reservations (expires_at, id) WHERE status = 'active';
CREATE INDEX idx_inventory_reservations_active_product ON inventory_reservations (product_id) WHERE status = 'active';
CREATE INDEX idx_inventory_reservations_active_variant ON inventory_reservations (variant_id) WHERE status = 'active';
CREATE INDEX idx_inventory_reservations_active_order ON inventory_reservations (order_id) WHERE status = 'active';

-- +goose Down
DROP INDEX idx_inventory_reservations_active_expires;
DROP INDEX idx_inventory_reservations_active_product;
DROP INDEX idx_inventory_reservations_active_variant;
DROP INDEX idx_inventory_reservations_active_order;
CREATE INDEX idx_inventory_reservations_status_expires ON inventory_reservations (status, expires_at);
CREATE INDEX idx_inventory_reservations_product ON inventory_reservations (product_id, status);
CREATE INDEX idx_inventory_reservations_variant ON inventory_reservations (variant_id, status);
CREATE INDEX idx_inventory_reservations_order ON inventory_reservations (order_id, status);

-- +goose Up
-- The catalog sync sweep finds the variants reserved since its last run by the
-- reservations' creation time (docs/decisions/0229).
CREATE INDEX idx_inventory_reservations_created ON inventory_reservations (created_at);

-- +goose Down
DROP INDEX idx_inventory_reservations_created;

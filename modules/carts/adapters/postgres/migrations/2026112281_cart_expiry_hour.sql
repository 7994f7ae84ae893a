-- +goose Up
-- The expiry sweep finds active carts by the hour their expiry falls in, not by
-- expires_at itself: every change of a cart moves expires_at, and an indexed column
-- that changes makes PostgreSQL write a new entry in every index of the table (and
-- check the unique ones) instead of a heap-only (HOT) update. expiry_hour changes at
-- most once an hour of activity (docs/decisions/0089). expiry_hour <= expires_at
-- always holds (existing rows start with expires_at itself).
ALTER TABLE carts ADD COLUMN expiry_hour {{.Time}};
UPDATE carts SET expiry_hour = expires_at;
DROP INDEX idx_carts_active_expires;
CREATE INDEX idx_carts_active_expiry_hour ON carts (expiry_hour) WHERE status = 'active';

-- +goose Down
DROP INDEX idx_carts_active_expiry_hour;
CREATE INDEX idx_carts_active_expires ON carts (expires_at) WHERE status = 'active';
ALTER TABLE carts DROP COLUMN expiry_hour;

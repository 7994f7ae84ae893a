-- +goose Up
-- Every change of a cart (row or items) bumps its version: a change written without a
-- row lock applies only to the version it read (docs/decisions/0089).
ALTER TABLE carts ADD COLUMN version {{.BigInt}} NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE carts DROP COLUMN version;

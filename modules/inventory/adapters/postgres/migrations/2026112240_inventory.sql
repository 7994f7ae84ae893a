-- +goose Up
CREATE TABLE inventory_locations (
    id         {{.UUID}} PRIMARY KEY,
    name       text NOT NULL,
    code       text,
    address1   text NOT NULL DEFAULT '',
    address2   text NOT NULL DEFAULT '',
    city       text NOT NULL DEFAULT '',
    province   text NOT NULL DEFAULT '',
    country    text NOT NULL DEFAULT '',
    zip        text NOT NULL DEFAULT '',
    phone      text NOT NULL DEFAULT '',
    is_active  {{.Bool}} NOT NULL DEFAULT TRUE,
    is_default {{.Bool}} NOT NULL DEFAULT FALSE,
    created_at {{.Time}} NOT NULL,
    updated_at {{.Time}} NOT NULL
);
CREATE UNIQUE INDEX ux_inventory_locations_code ON inventory_locations (code);
CREATE INDEX idx_inventory_locations_name ON inventory_locations (name);

-- The default location: the same fixed id on every engine and installation.
INSERT INTO inventory_locations (id, name, code, is_active, is_default, created_at, updated_at)
VALUES ('00000000-0000-4000-8000-000000000001', 'Default location', 'default', TRUE, TRUE,
        '2026-01-01 00:00:00+00:00', '2026-01-01 00:00:00+00:00');

-- One row per product with stock: its name and low-stock threshold as the catalog last
-- said, and the row every stock change of the product locks first.
CREATE TABLE inventory_products (
    product_id          {{.UUID}} PRIMARY KEY,
    product_name        text NOT NULL DEFAULT '',
    low_stock_threshold integer NOT NULL DEFAULT 0,
    created_at          {{.Time}} NOT NULL,
    updated_at          {{.Time}} NOT NULL
);
CREATE INDEX idx_inventory_products_updated_at ON inventory_products (updated_at);

CREATE TABLE inventory_levels (
    id          {{.UUID}} PRIMARY KEY,
    product_id  {{.UUID}} NOT NULL,
    variant_id  {{.UUID}} NOT NULL,
    location_id {{.UUID}} NOT NULL REFERENCES inventory_locations (id),
    available   integer NOT NULL DEFAULT 0,
    reserved    integer NOT NULL DEFAULT 0 CHECK (reserved >= 0),
    incoming    integer NOT NULL DEFAULT 0 CHECK (incoming >= 0),
    created_at  {{.Time}} NOT NULL,
    updated_at  {{.Time}} NOT NULL
);
CREATE UNIQUE INDEX ux_inventory_levels_variant_location ON inventory_levels (variant_id, location_id);
CREATE INDEX idx_inventory_levels_product_location ON inventory_levels (product_id, location_id);
CREATE INDEX idx_inventory_levels_location_product ON inventory_levels (location_id, product_id);

CREATE TABLE inventory_movements (
    id              {{.UUID}} PRIMARY KEY,
    product_id      {{.UUID}} NOT NULL,
    product_name    text NOT NULL DEFAULT '',
    variant_id      {{.UUID}} NOT NULL,
    location_id     {{.UUID}} NOT NULL REFERENCES inventory_locations (id),
    movement_type   text NOT NULL,
    quantity        integer NOT NULL,
    quantity_before integer NOT NULL,
    quantity_after  integer NOT NULL,
    reason          text NOT NULL DEFAULT '',
    reference       text NOT NULL DEFAULT '',
    notes           text NOT NULL DEFAULT '',
    cost_per_unit   {{.Money}},
    currency        text NOT NULL DEFAULT '',
    transfer_id     {{.UUID}},
    reservation_id  {{.UUID}},
    created_by      text NOT NULL DEFAULT '',
    created_at      {{.Time}} NOT NULL,
    CHECK (quantity = quantity_after - quantity_before)
);
CREATE INDEX idx_inventory_movements_created_at ON inventory_movements (created_at, id);
CREATE INDEX idx_inventory_movements_product ON inventory_movements (product_id, created_at);
CREATE INDEX idx_inventory_movements_variant ON inventory_movements (variant_id, created_at);
CREATE INDEX idx_inventory_movements_location ON inventory_movements (location_id, created_at);
CREATE INDEX idx_inventory_movements_type ON inventory_movements (movement_type, created_at);
CREATE INDEX idx_inventory_movements_reference ON inventory_movements (reference, created_at);

CREATE TABLE inventory_reservations (
    id             {{.UUID}} PRIMARY KEY,
    product_id     {{.UUID}} NOT NULL,
    variant_id     {{.UUID}} NOT NULL,
    location_id    {{.UUID}} NOT NULL REFERENCES inventory_locations (id),
    order_id       text NOT NULL,
    quantity       integer NOT NULL CHECK (quantity > 0),
    status         text NOT NULL DEFAULT 'active',
    expires_at     {{.Time}} NOT NULL,
    created_at     {{.Time}} NOT NULL,
    released_at    {{.Time}},
    release_reason text NOT NULL DEFAULT ''
);
-- The expiry sweep reads active reservations by expires_at.
CREATE INDEX idx_inventory_reservations_status_expires ON inventory_reservations (status, expires_at);
CREATE INDEX idx_inventory_reservations_product ON inventory_reservations (product_id, status);
CREATE INDEX idx_inventory_reservations_variant ON inventory_reservations (variant_id, status);
CREATE INDEX idx_inventory_reservations_order ON inventory_reservations (order_id, status);

-- Events a subscriber has handled (at-least-once delivery made idempotent).
CREATE TABLE inventory_processed_events (
    event_id     text NOT NULL,
    handler      text NOT NULL,
    processed_at {{.Time}} NOT NULL,
    PRIMARY KEY (event_id, handler)
);

-- +goose Down
DROP TABLE inventory_processed_events;
DROP TABLE inventory_reservations;
DROP TABLE inventory_movements;
DROP TABLE inventory_levels;
DROP TABLE inventory_products;
DROP TABLE inventory_locations;

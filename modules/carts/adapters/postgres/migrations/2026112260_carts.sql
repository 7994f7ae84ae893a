-- +goose Up
CREATE TABLE carts (
    id                       {{.UUID}} PRIMARY KEY,
    customer_id              {{.UUID}},
    session_token_hash       text,
    currency                 text NOT NULL,
    status                   text NOT NULL,
    email                    text NOT NULL DEFAULT '',
    shipping_method          text NOT NULL DEFAULT '',
    notes                    text NOT NULL DEFAULT '',
    coupons                  {{.JSON}} NOT NULL,
    subtotal                 {{.Money}} NOT NULL,
    discount_total           {{.Money}} NOT NULL,
    shipping_before_discount {{.Money}} NOT NULL,
    shipping_total           {{.Money}} NOT NULL,
    item_count               integer NOT NULL DEFAULT 0,
    converted_order_id       text,
    merged_into_id           {{.UUID}},
    expires_at               {{.Time}} NOT NULL,
    created_at               {{.Time}} NOT NULL,
    updated_at               {{.Time}} NOT NULL
);
-- Guest carts are found by the SHA-256 of their session token (merge).
CREATE UNIQUE INDEX ux_carts_session_token_hash ON carts (session_token_hash) WHERE session_token_hash IS NOT NULL;
-- One active cart per customer (GET /carts/me creates it at most once).
CREATE UNIQUE INDEX ux_carts_customer_active ON carts (customer_id) WHERE status = 'active' AND customer_id IS NOT NULL;
CREATE INDEX idx_carts_customer_created ON carts (customer_id, created_at) WHERE customer_id IS NOT NULL;
-- The expiry sweep.
CREATE INDEX idx_carts_active_expires ON carts (expires_at) WHERE status = 'active';

CREATE TABLE cart_items (
    id                {{.UUID}} PRIMARY KEY,
    cart_id           {{.UUID}} NOT NULL REFERENCES carts (id) ON DELETE CASCADE,
    product_id        text NOT NULL,
    variant_id        text NOT NULL,
    quantity          integer NOT NULL,
    unit_price        {{.Money}} NOT NULL,
    original_price    {{.Money}} NOT NULL,
    discount_amount   {{.Money}} NOT NULL,
    sku               text NOT NULL DEFAULT '',
    title             text NOT NULL DEFAULT '',
    variant_title     text NOT NULL DEFAULT '',
    image_url         text NOT NULL DEFAULT '',
    requires_shipping {{.Bool}} NOT NULL,
    is_gift_card      {{.Bool}} NOT NULL,
    custom_attributes {{.JSON}} NOT NULL,
    attributes_hash   text NOT NULL,
    created_at        {{.Time}} NOT NULL,
    updated_at        {{.Time}} NOT NULL,
    CONSTRAINT ck_cart_items_quantity CHECK (quantity BETWEEN 1 AND 9999)
);
-- Identical items (same variant and custom attributes) are one line.
CREATE UNIQUE INDEX ux_cart_items_identity ON cart_items (cart_id, variant_id, attributes_hash);
CREATE INDEX idx_cart_items_cart_created ON cart_items (cart_id, created_at, id);

-- +goose Down
DROP TABLE cart_items;
DROP TABLE carts;

-- +goose Up
CREATE TABLE coupons (
    id                       {{.UUID}} PRIMARY KEY,
    code                     text NOT NULL,
    code_key                 text NOT NULL,
    type                     text NOT NULL,
    value                    {{.Money}} NOT NULL,
    description              text NOT NULL DEFAULT '',
    minimum_order_amount     {{.Money}} NOT NULL,
    maximum_discount_amount  {{.Money}},
    starts_at                {{.Time}} NOT NULL,
    expires_at               {{.Time}},
    usage_limit              integer,
    usage_limit_per_customer integer,
    usage_count              integer NOT NULL DEFAULT 0,
    is_active                {{.Bool}} NOT NULL,
    applies_to               {{.JSON}} NOT NULL,
    customer_eligibility     {{.JSON}} NOT NULL,
    customer_restricted      {{.Bool}} NOT NULL DEFAULT false,
    buy_x_get_y              {{.JSON}},
    created_at               {{.Time}} NOT NULL,
    updated_at               {{.Time}} NOT NULL,
    deleted_at               {{.Time}}
);
-- A code is unique among live coupons (case-insensitive); a deleted coupon frees it.
CREATE UNIQUE INDEX ux_coupons_code_key ON coupons (code_key) WHERE deleted_at IS NULL;
-- Usage recording of deleted coupons looks codes up among every version.
CREATE INDEX idx_coupons_code_key_deleted ON coupons (code_key, deleted_at);
-- Lists: newest first, optionally by is_active.
CREATE INDEX idx_coupons_created ON coupons (created_at, id) WHERE deleted_at IS NULL;
CREATE INDEX idx_coupons_active_created ON coupons (is_active, created_at, id) WHERE deleted_at IS NULL;

CREATE TABLE coupon_usages (
    id              {{.UUID}} PRIMARY KEY,
    coupon_id       {{.UUID}} NOT NULL REFERENCES coupons (id),
    order_id        text NOT NULL,
    customer_id     text,
    discount_amount {{.Money}} NOT NULL,
    order_total     {{.Money}} NOT NULL,
    currency        text NOT NULL,
    used_at         {{.Time}} NOT NULL
);
-- One use per order and coupon: RecordUsage is idempotent per order id.
CREATE UNIQUE INDEX ux_coupon_usages_order ON coupon_usages (coupon_id, order_id);
CREATE INDEX idx_coupon_usages_customer ON coupon_usages (coupon_id, customer_id);
CREATE INDEX idx_coupon_usages_used_at ON coupon_usages (coupon_id, used_at);

-- +goose Down
DROP TABLE coupon_usages;
DROP TABLE coupons;

-- +goose Up
-- Checkout sessions, one per cart (docs/decisions/0170). The attempt in flight is
-- claimed by a conditional update of status; the rest of the session (addresses,
-- rates, totals, reservations, coupon uses) is kept as JSON text in data.
CREATE TABLE checkout_sessions (
    id              {{.UUID}} PRIMARY KEY,
    cart_id         {{.UUID}} NOT NULL,
    status          text NOT NULL,
    order_id        text NOT NULL DEFAULT '',
    payment_id      text NOT NULL DEFAULT '',
    attempt         integer NOT NULL DEFAULT 0,
    hold_expires_at {{.Time}},
    version         integer NOT NULL DEFAULT 1,
    data            text NOT NULL,
    created_at      {{.Time}} NOT NULL,
    updated_at      {{.Time}} NOT NULL
);
CREATE UNIQUE INDEX ux_checkout_sessions_cart ON checkout_sessions (cart_id);
CREATE INDEX idx_checkout_sessions_payment ON checkout_sessions (payment_id);
CREATE INDEX idx_checkout_sessions_hold ON checkout_sessions (status, hold_expires_at);

-- Idempotency-Key records of checkout/complete: the key's cart, and the answer of a
-- failed attempt made with it (replayed for the key).
CREATE TABLE checkout_idempotency (
    idempotency_key text PRIMARY KEY,
    cart_id         {{.UUID}} NOT NULL,
    failure         text,
    created_at      {{.Time}} NOT NULL
);

-- +goose Down
DROP TABLE checkout_idempotency;
DROP TABLE checkout_sessions;

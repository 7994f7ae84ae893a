-- +goose Up
-- Orders (docs/decisions/0070..0079). JSON values are kept as text; money as
-- {{.Money}}, with total_price also as an integer of 10^-4 units (total_price_units)
-- so filters and sorting compare exactly on both engines.

-- Order numbers: one counter row moved by UPDATE ... RETURNING inside the creating
-- transaction, so numbers have neither gaps nor duplicates (docs/decisions/0070).
CREATE TABLE orders_counters (
    name  text PRIMARY KEY,
    value {{.BigInt}} NOT NULL
);
INSERT INTO orders_counters (name, value) VALUES ('order_number', 1000);

CREATE TABLE orders (
    id                  {{.UUID}} PRIMARY KEY,
    order_number        {{.BigInt}} NOT NULL,
    customer_id         {{.UUID}},
    email               text NOT NULL DEFAULT '',
    phone               text NOT NULL DEFAULT '',
    status              text NOT NULL,
    financial_status    text NOT NULL,
    fulfillment_status  text NOT NULL,
    currency            text NOT NULL,
    subtotal_price      {{.Money}} NOT NULL,
    total_tax           {{.Money}} NOT NULL,
    total_shipping      {{.Money}} NOT NULL,
    total_discounts     {{.Money}} NOT NULL,
    total_price         {{.Money}} NOT NULL,
    total_price_units   {{.BigInt}} NOT NULL,
    total_weight        {{.Money}} NOT NULL,
    total_items         integer NOT NULL,
    shipping_lines      text NOT NULL DEFAULT '[]',
    tax_lines           text NOT NULL DEFAULT '[]',
    discount_codes      text NOT NULL DEFAULT '[]',
    shipping_address    text,
    billing_address     text,
    note                text NOT NULL DEFAULT '',
    note_attributes     text NOT NULL DEFAULT '{}',
    tags                text NOT NULL DEFAULT '[]',
    metafields          text NOT NULL DEFAULT '{}',
    cart_token          text NOT NULL DEFAULT '',
    checkout_token      text NOT NULL DEFAULT '',
    referring_site      text NOT NULL DEFAULT '',
    landing_site        text NOT NULL DEFAULT '',
    source_name         text NOT NULL DEFAULT '',
    client_details      text,
    inventory_behaviour text NOT NULL,
    send_receipt        {{.Bool}} NOT NULL DEFAULT false,
    cancel_reason       text NOT NULL DEFAULT '',
    created_at          {{.Time}} NOT NULL,
    updated_at          {{.Time}} NOT NULL,
    processed_at        {{.Time}} NOT NULL,
    closed_at           {{.Time}},
    cancelled_at        {{.Time}},
    version             integer NOT NULL DEFAULT 1
);
CREATE UNIQUE INDEX ux_orders_order_number ON orders (order_number);
CREATE INDEX idx_orders_created ON orders (created_at, id);
CREATE INDEX idx_orders_updated ON orders (updated_at, id);
CREATE INDEX idx_orders_total ON orders (total_price_units, id);
CREATE INDEX idx_orders_status ON orders (status, created_at);
CREATE INDEX idx_orders_financial ON orders (financial_status, created_at);
CREATE INDEX idx_orders_fulfillment ON orders (fulfillment_status, created_at);
CREATE INDEX idx_orders_customer ON orders (customer_id, created_at);
CREATE INDEX idx_orders_email ON orders (lower(email));
CREATE INDEX idx_orders_currency ON orders (currency, status);

CREATE TABLE orders_line_items (
    id                 {{.UUID}} PRIMARY KEY,
    order_id           {{.UUID}} NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    position           integer NOT NULL,
    product_id         {{.UUID}} NOT NULL,
    variant_id         {{.UUID}} NOT NULL,
    title              text NOT NULL DEFAULT '',
    variant_title      text NOT NULL DEFAULT '',
    sku                text NOT NULL DEFAULT '',
    quantity           integer NOT NULL CHECK (quantity > 0),
    price              {{.Money}} NOT NULL,
    requires_shipping  {{.Bool}} NOT NULL,
    taxable            {{.Bool}} NOT NULL,
    is_gift_card       {{.Bool}} NOT NULL DEFAULT false,
    grams              {{.Money}} NOT NULL,
    inventory_tracked  {{.Bool}} NOT NULL,
    claimed_quantity   integer NOT NULL DEFAULT 0,
    restocked_quantity integer NOT NULL DEFAULT 0 CHECK (restocked_quantity <= claimed_quantity),
    fulfilled_quantity integer NOT NULL DEFAULT 0 CHECK (fulfilled_quantity >= 0),
    refunded_quantity  integer NOT NULL DEFAULT 0 CHECK (refunded_quantity >= 0),
    created_at         {{.Time}} NOT NULL
);
CREATE INDEX idx_orders_line_items_order ON orders_line_items (order_id, position);
CREATE INDEX idx_orders_line_items_product ON orders_line_items (product_id);

CREATE TABLE orders_fulfillments (
    id               {{.UUID}} PRIMARY KEY,
    order_id         {{.UUID}} NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    status           text NOT NULL,
    location_id      {{.UUID}},
    tracking_number  text NOT NULL DEFAULT '',
    tracking_company text NOT NULL DEFAULT '',
    tracking_url     text NOT NULL DEFAULT '',
    notify_customer  {{.Bool}} NOT NULL DEFAULT false,
    line_items       text NOT NULL DEFAULT '[]',
    created_at       {{.Time}} NOT NULL,
    updated_at       {{.Time}} NOT NULL,
    cancelled_at     {{.Time}}
);
CREATE INDEX idx_orders_fulfillments_order ON orders_fulfillments (order_id, created_at);

CREATE TABLE orders_refunds (
    id              {{.UUID}} PRIMARY KEY,
    order_id        {{.UUID}} NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    status          text NOT NULL,
    note            text NOT NULL DEFAULT '',
    notify_customer {{.Bool}} NOT NULL DEFAULT false,
    line_items      text NOT NULL DEFAULT '[]',
    shipping        {{.Money}} NOT NULL,
    amount          {{.Money}} NOT NULL,
    created_at      {{.Time}} NOT NULL,
    processed_at    {{.Time}}
);
CREATE INDEX idx_orders_refunds_order ON orders_refunds (order_id, created_at);

CREATE TABLE orders_transactions (
    id                {{.UUID}} PRIMARY KEY,
    order_id          {{.UUID}} NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    position          integer NOT NULL,
    kind              text NOT NULL,
    status            text NOT NULL,
    amount            {{.Money}} NOT NULL,
    currency          text NOT NULL,
    gateway           text NOT NULL DEFAULT '',
    payment_id        text,
    parent_id         {{.UUID}},
    refund_id         {{.UUID}},
    gateway_refund_id text,
    error_code        text NOT NULL DEFAULT '',
    message           text NOT NULL DEFAULT '',
    created_at        {{.Time}} NOT NULL,
    processed_at      {{.Time}}
);
CREATE INDEX idx_orders_transactions_order ON orders_transactions (order_id, position);
CREATE INDEX idx_orders_transactions_payment ON orders_transactions (payment_id);
-- One successful record per payment and kind, one record per gateway refund: a
-- re-delivered payment event can never count money twice.
CREATE UNIQUE INDEX ux_orders_transactions_payment_kind ON orders_transactions (payment_id, kind)
    WHERE status = 'success' AND kind <> 'refund' AND payment_id IS NOT NULL;
CREATE UNIQUE INDEX ux_orders_transactions_gateway_refund ON orders_transactions (gateway_refund_id)
    WHERE gateway_refund_id IS NOT NULL;

CREATE TABLE orders_notes (
    id              {{.UUID}} PRIMARY KEY,
    order_id        {{.UUID}} NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    body            text NOT NULL,
    author          text NOT NULL DEFAULT '',
    notify_customer {{.Bool}} NOT NULL DEFAULT false,
    created_at      {{.Time}} NOT NULL
);
CREATE INDEX idx_orders_notes_order ON orders_notes (order_id, created_at);

-- +goose Down
DROP TABLE orders_notes;
DROP TABLE orders_transactions;
DROP TABLE orders_refunds;
DROP TABLE orders_fulfillments;
DROP TABLE orders_line_items;
DROP TABLE orders;
DROP TABLE orders_counters;

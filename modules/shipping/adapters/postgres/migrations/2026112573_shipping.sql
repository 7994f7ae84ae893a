-- +goose Up
CREATE TABLE shipping_shipments (
    id                 {{.UUID}} PRIMARY KEY,
    order_id           text NOT NULL DEFAULT '',
    carrier            text NOT NULL,
    service_code       text NOT NULL,
    service_name       text NOT NULL DEFAULT '',
    tracking_number    text NOT NULL DEFAULT '',
    tracking_url       text NOT NULL DEFAULT '',
    label_url          text NOT NULL DEFAULT '',
    status             text NOT NULL,
    price              {{.Money}} NOT NULL,
    currency           text NOT NULL,
    weight             text NOT NULL,
    weight_unit        text NOT NULL,
    dimensions         text NOT NULL DEFAULT 'null',
    ship_from          text NOT NULL,
    ship_to            text NOT NULL,
    packages           text NOT NULL,
    customs_info       text NOT NULL DEFAULT 'null',
    insurance          text NOT NULL DEFAULT 'null',
    options            text NOT NULL,
    reference          text NOT NULL DEFAULT '',
    notify_customer    {{.Bool}} NOT NULL DEFAULT FALSE,
    created_at         {{.Time}} NOT NULL,
    updated_at         {{.Time}} NOT NULL,
    shipped_at         {{.Time}},
    delivered_at       {{.Time}},
    estimated_delivery {{.Time}},
    next_track_at      {{.Time}},
    version            integer NOT NULL DEFAULT 1
);
CREATE INDEX idx_shipping_shipments_order ON shipping_shipments (order_id);
-- The tracking sweep reads the shipments due by next_track_at.
CREATE INDEX idx_shipping_shipments_next_track ON shipping_shipments (next_track_at);

-- Every tracking number of a shipment (its own and its packages'), for webhooks.
CREATE TABLE shipping_tracking_numbers (
    carrier         text NOT NULL,
    tracking_number text NOT NULL,
    shipment_id     {{.UUID}} NOT NULL REFERENCES shipping_shipments (id),
    PRIMARY KEY (carrier, tracking_number)
);

CREATE TABLE shipping_tracking_events (
    id          {{.UUID}} PRIMARY KEY,
    shipment_id {{.UUID}} NOT NULL REFERENCES shipping_shipments (id),
    fingerprint text NOT NULL,
    status      text NOT NULL,
    code        text NOT NULL DEFAULT '',
    description text NOT NULL DEFAULT '',
    location    text NOT NULL DEFAULT '',
    source      text NOT NULL DEFAULT '',
    occurred_at {{.Time}} NOT NULL,
    created_at  {{.Time}} NOT NULL
);
-- One row per scan: the poll and the webhook may both report it.
CREATE UNIQUE INDEX ux_shipping_tracking_events_fingerprint ON shipping_tracking_events (shipment_id, fingerprint);
CREATE INDEX idx_shipping_tracking_events_shipment ON shipping_tracking_events (shipment_id, occurred_at);

-- +goose Down
DROP TABLE shipping_tracking_events;
DROP TABLE shipping_tracking_numbers;
DROP TABLE shipping_shipments;

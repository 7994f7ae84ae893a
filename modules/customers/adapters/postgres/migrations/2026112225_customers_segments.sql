-- +goose Up
CREATE TABLE customers_segments (
    id         {{.UUID}} PRIMARY KEY,
    name       text NOT NULL,
    name_key   text NOT NULL,
    query      text NOT NULL,
    created_at {{.Time}} NOT NULL,
    updated_at {{.Time}} NOT NULL
);
CREATE UNIQUE INDEX ux_customers_segments_name ON customers_segments (name_key);

-- +goose Down
DROP TABLE customers_segments;

-- +goose Up
CREATE TABLE identity_credentials (
    customer_id   {{.UUID}} PRIMARY KEY,
    email         text NOT NULL,
    password_hash text NOT NULL,
    created_at    {{.Time}} NOT NULL,
    updated_at    {{.Time}} NOT NULL
);
CREATE UNIQUE INDEX ux_identity_credentials_email ON identity_credentials (email);

-- +goose Down
DROP TABLE identity_credentials;

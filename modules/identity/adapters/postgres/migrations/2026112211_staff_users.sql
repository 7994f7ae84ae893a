-- +goose Up
CREATE TABLE staff_users (
    id            {{.UUID}} PRIMARY KEY,
    email         text NOT NULL,
    password_hash text NOT NULL,
    role          text NOT NULL DEFAULT 'admin',
    created_at    {{.Time}} NOT NULL,
    updated_at    {{.Time}} NOT NULL
);
CREATE UNIQUE INDEX ux_staff_users_email ON staff_users (email);

-- +goose Down
DROP TABLE staff_users;

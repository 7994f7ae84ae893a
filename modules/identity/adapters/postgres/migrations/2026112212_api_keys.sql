-- +goose Up
-- secret_hash is the hex SHA-256 of the secret; the full key is never stored.
-- scopes is a JSON array kept as text; rate_limit_multiplier a decimal string or NULL.
CREATE TABLE api_keys (
    id                    {{.UUID}} PRIMARY KEY,
    name                  text NOT NULL,
    prefix                text NOT NULL,
    secret_hash           text NOT NULL,
    scopes                text NOT NULL DEFAULT '[]',
    rate_limit_multiplier text,
    last_used_at          {{.Time}},
    last_used_ip          text NOT NULL DEFAULT '',
    revoked_at            {{.Time}},
    revocation_reason     text NOT NULL DEFAULT '',
    created_at            {{.Time}} NOT NULL
);
CREATE UNIQUE INDEX ux_api_keys_prefix ON api_keys (prefix);

-- +goose Down
DROP TABLE api_keys;

-- +goose Up
-- One row per customer whose tokens were ever revoked (disabled, deleted, anonymized):
-- tokens carry the generation they were issued in and die when it is below this one
-- (docs/decisions/0096). revoked_at orders the once-a-second poll of every process.
CREATE TABLE identity_token_revocations (
    customer_id {{.UUID}} PRIMARY KEY,
    generation  bigint NOT NULL,
    revoked_at  {{.Time}} NOT NULL
);
CREATE INDEX ix_identity_token_revocations_revoked_at ON identity_token_revocations (revoked_at);

-- +goose Down
DROP TABLE identity_token_revocations;

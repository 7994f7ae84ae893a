-- +goose Up
-- More room on each products page for the stock sync's HOT rewrites (decision 0245).
-- At fillfactor 85 a page of products (about 600 bytes a row) kept room for one or two
-- new row versions; under load the versions before them were often still visible to a
-- running transaction and could not be pruned yet, so one rewrite in six went to
-- another page and into every product index, the trigram and full-text GIN indexes
-- among them (15% of the checkout window's WAL). Pages written before this keep their
-- fill until they are rewritten.
{{if .Postgres -}}
ALTER TABLE products SET (fillfactor = 70);
{{- else -}}
SELECT 1;
{{- end}}

-- +goose Down
{{if .Postgres -}}
ALTER TABLE products SET (fillfactor = 85);
{{- else -}}
SELECT 1;
{{- end}}

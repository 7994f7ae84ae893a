-- +goose Up
-- A session's data (about 4 KB of JSON for a three-line cart with ten shipping rates,
-- 2 KB with lz4) is kept compressed in the row instead of in the TOAST table (decision
-- 0245): each rewrite of the session then writes its row, not the row plus new TOAST
-- chunks, their index entries and the old chunks' deletion. A value too large for a
-- page still goes to the TOAST table. The short text columns beside it (ids and the
-- status, which the application writes) are never compressed or moved out of the row:
-- with data kept in the row, PostgreSQL's TOAST pass would otherwise move them out,
-- each into a TOAST row of its own, to bring the row under 2 KB.
{{if .Postgres -}}
ALTER TABLE checkout_sessions ALTER COLUMN data SET STORAGE MAIN,
    ALTER COLUMN status SET STORAGE PLAIN,
    ALTER COLUMN order_id SET STORAGE PLAIN,
    ALTER COLUMN payment_id SET STORAGE PLAIN;
{{- else -}}
SELECT 1;
{{- end}}

-- +goose Down
{{if .Postgres -}}
ALTER TABLE checkout_sessions ALTER COLUMN data SET STORAGE EXTENDED,
    ALTER COLUMN status SET STORAGE EXTENDED,
    ALTER COLUMN order_id SET STORAGE EXTENDED,
    ALTER COLUMN payment_id SET STORAGE EXTENDED;
{{- else -}}
SELECT 1;
{{- end}}

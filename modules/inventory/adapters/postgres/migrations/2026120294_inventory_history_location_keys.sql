-- +goose Up
-- A reservation or movement row names its location; PostgreSQL checked each one
-- against inventory_locations by locking the location's row (FOR KEY SHARE). Every
-- checkout reserves and commits at the same few locations (usually one), so every
-- transaction that sells took a share lock on the same row: each concurrent locker
-- made a new MultiXact and rewrote that row's lock field, one page every seller
-- wrote (decision 0246). Both kinds of row are only ever written in the transaction
-- that writes the stock level of the same variant at the same location, whose own key
-- still holds the location, and locations are never deleted (they are deactivated).
{{if .Postgres -}}
ALTER TABLE inventory_reservations DROP CONSTRAINT IF EXISTS inventory_reservations_location_id_fkey;
ALTER TABLE inventory_movements DROP CONSTRAINT IF EXISTS inventory_movements_location_id_fkey;
{{- else -}}
SELECT 1;
{{- end}}

-- +goose Down
{{if .Postgres -}}
ALTER TABLE inventory_reservations ADD CONSTRAINT inventory_reservations_location_id_fkey FOREIGN KEY (location_id) REFERENCES inventory_locations (id);
ALTER TABLE inventory_movements ADD CONSTRAINT inventory_movements_location_id_fkey FOREIGN KEY (location_id) REFERENCES inventory_locations (id);
{{- else -}}
SELECT 1;
{{- end}}

package db_test

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/ids"
	"github.com/gocommerce/commerce/platform/testdb"
)

// openEmpty opens a fresh, unmigrated database of the engine.
func openEmpty(t *testing.T, engine string) *db.DB {
	t.Helper()
	d, _ := testdb.Connect(t, testdb.URL(t, engine), func(c *config.Database) { c.MaxOpenConns = 5 })
	return d
}

// catalog is a two-file source using every template type.
func catalog() db.MigrationSource {
	return db.MigrationSource{Module: "catalog", FS: fstest.MapFS{
		"migrations/2099020101_prices.sql": {Data: []byte(`-- +goose Up
CREATE TABLE prices (
    id         {{.UUID}} PRIMARY KEY,
    amount     {{.Money}} NOT NULL,
    at         {{.Time}} NOT NULL,
    meta       {{.JSON}} NOT NULL,
    active     {{.Bool}} NOT NULL DEFAULT false,
    hits       {{.BigInt}} NOT NULL DEFAULT 0,
    note       {{.Text}} NOT NULL DEFAULT ''
);
{{if .Postgres}}CREATE INDEX idx_prices_meta ON prices USING gin (meta);{{end}}
{{if .SQLite}}CREATE INDEX idx_prices_at ON prices (at);{{end}}

-- +goose Down
DROP TABLE prices;
`)},
		"migrations/2099020102_tags.sql": {Data: []byte(`-- +goose Up
CREATE TABLE tags (name {{.Text}} PRIMARY KEY, dialect {{.Text}} NOT NULL DEFAULT '{{.Dialect}}');

-- +goose Down
DROP TABLE tags;
`)},
		"README.md": {Data: []byte("not a migration {{ broken")},
	}}
}

type price struct {
	ID     string
	Amount decimal.Decimal
	At     time.Time
	Meta   string
	Active bool
	Hits   int64
	Note   string
}

func (price) TableName() string { return "prices" }

func tableExists(t *testing.T, d *db.DB, table string) bool {
	t.Helper()
	return d.Gorm().Migrator().HasTable(table)
}

func TestMigrations(t *testing.T) {
	testdb.EachEngine(t, func(t *testing.T, engine string) {
		d := openEmpty(t, engine)
		ctx := context.Background()
		m := db.NewMigrator(d, []db.MigrationSource{catalog()})

		st, err := m.Status(ctx)
		if err != nil {
			t.Fatalf("Status before: %v", err)
		}
		if len(st) != 2 || !strings.HasPrefix(st[0], "2099020101_prices.sql") || !strings.HasSuffix(st[0], " pending") ||
			!strings.HasPrefix(st[1], "2099020102_tags.sql") || !strings.HasSuffix(st[1], " pending") {
			t.Fatalf("Status before = %q", st)
		}

		applied, err := m.Up(ctx)
		if err != nil {
			t.Fatalf("Up: %v", err)
		}
		if !reflect.DeepEqual(applied, []string{"2099020101_prices.sql", "2099020102_tags.sql"}) {
			t.Fatalf("Up applied %q", applied)
		}
		again, err := m.Up(ctx)
		if err != nil || len(again) != 0 {
			t.Fatalf("second Up = %q, %v; want nothing", again, err)
		}

		st, err = m.Status(ctx)
		if err != nil {
			t.Fatalf("Status after: %v", err)
		}
		for _, line := range st {
			if !strings.Contains(line, " applied ") {
				t.Fatalf("Status after Up = %q", st)
			}
		}

		checkColumnTypes(t, d, engine)

		// Every template type round-trips.
		at := time.Date(2026, 11, 22, 10, 30, 15, 123456000, time.UTC)
		amounts := []string{"12345678.1234", "0.0001", "-42.5", "9999999999999999.9999", "0"}
		for _, a := range amounts {
			p := price{ID: ids.New(), Amount: decimal.RequireFromString(a), At: at, Meta: `{"k": [1, "two"]}`, Active: true, Hits: 1 << 40, Note: a}
			if err := d.Conn(ctx).Create(&p).Error; err != nil {
				t.Fatalf("insert %s: %v", a, err)
			}
			var got price
			if err := d.Conn(ctx).Where("id = ?", p.ID).First(&got).Error; err != nil {
				t.Fatalf("read %s: %v", a, err)
			}
			if !got.Amount.Equal(decimal.RequireFromString(a)) || got.Amount.String() != decimal.RequireFromString(a).String() {
				t.Fatalf("amount %s came back as %s", a, got.Amount)
			}
			if !got.At.Equal(at) || got.ID != p.ID || !got.Active || got.Hits != 1<<40 || got.Note != a {
				t.Fatalf("row %+v, want %+v", got, p)
			}
			var meta map[string]any
			if err := json.Unmarshal([]byte(got.Meta), &meta); err != nil || !reflect.DeepEqual(meta, map[string]any{"k": []any{1.0, "two"}}) {
				t.Fatalf("meta = %q (%v)", got.Meta, err)
			}
		}
		// The database compares and sums money exactly.
		var sum string
		if err := d.Conn(ctx).Raw("SELECT amount FROM prices WHERE note = ?", "12345678.1234").Scan(&sum).Error; err != nil {
			t.Fatal(err)
		}
		if !decimal.RequireFromString(sum).Equal(decimal.RequireFromString("12345678.1234")) {
			t.Fatalf("raw amount = %q", sum)
		}

		if err := d.Conn(ctx).Exec("INSERT INTO tags (name) VALUES ('x')").Error; err != nil {
			t.Fatal(err)
		}
		var dialect string
		if err := d.Conn(ctx).Raw("SELECT dialect FROM tags WHERE name = 'x'").Scan(&dialect).Error; err != nil || dialect != engine {
			t.Fatalf("{{.Dialect}} rendered as %q (%v), want %q", dialect, err, engine)
		}

		// Down rolls back the most recent migration only.
		down, err := m.Down(ctx)
		if err != nil || !reflect.DeepEqual(down, []string{"2099020102_tags.sql"}) {
			t.Fatalf("Down = %q, %v", down, err)
		}
		if tableExists(t, d, "tags") || !tableExists(t, d, "prices") {
			t.Fatal("Down did not drop exactly the last migration's table")
		}
		st, err = m.Status(ctx)
		if err != nil || len(st) != 2 || !strings.Contains(st[0], " applied ") || !strings.HasSuffix(st[1], " pending") {
			t.Fatalf("Status after Down = %q, %v", st, err)
		}
		if _, err := m.Down(ctx); err != nil {
			t.Fatalf("second Down: %v", err)
		}
		if tableExists(t, d, "prices") {
			t.Fatal("second Down left prices")
		}
		// Up again re-applies both.
		if applied, err := m.Up(ctx); err != nil || len(applied) != 2 {
			t.Fatalf("re-Up = %q, %v", applied, err)
		}
	})
}

func checkColumnTypes(t *testing.T, d *db.DB, engine string) {
	t.Helper()
	got := map[string]string{}
	if engine == "postgres" {
		var rows []struct{ ColumnName, DataType string }
		if err := d.Gorm().Raw("SELECT column_name, data_type FROM information_schema.columns WHERE table_name = 'prices'").Scan(&rows).Error; err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			got[r.ColumnName] = r.DataType
		}
		want := map[string]string{"id": "uuid", "amount": "numeric", "at": "timestamp with time zone", "meta": "jsonb", "active": "boolean", "hits": "bigint", "note": "text"}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("postgres column types = %v, want %v", got, want)
		}
		var scale int
		if err := d.Gorm().Raw("SELECT numeric_scale FROM information_schema.columns WHERE table_name = 'prices' AND column_name = 'amount'").Scan(&scale).Error; err != nil || scale != 4 {
			t.Fatalf("amount scale = %d (%v), want 4", scale, err)
		}
		if !d.Gorm().Migrator().HasIndex("prices", "idx_prices_meta") || d.Gorm().Migrator().HasIndex("prices", "idx_prices_at") {
			t.Fatal("{{if .Postgres}} / {{if .SQLite}} blocks rendered wrongly")
		}
		return
	}
	var rows []struct{ Name, Type string }
	if err := d.Gorm().Raw("SELECT name, type FROM pragma_table_info('prices')").Scan(&rows).Error; err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		got[r.Name] = strings.ToLower(r.Type)
	}
	want := map[string]string{"id": "text", "amount": "text", "at": "datetime", "meta": "text", "active": "boolean", "hits": "integer", "note": "text"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("sqlite column types = %v, want %v", got, want)
	}
	if d.Gorm().Migrator().HasIndex("prices", "idx_prices_meta") || !d.Gorm().Migrator().HasIndex("prices", "idx_prices_at") {
		t.Fatal("{{if .Postgres}} / {{if .SQLite}} blocks rendered wrongly")
	}
}

func TestMigrationSourceErrors(t *testing.T) {
	testdb.EachEngine(t, func(t *testing.T, engine string) {
		d := openEmpty(t, engine)
		ctx := context.Background()
		file := func(body string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(body)} }
		ok := "-- +goose Up\nCREATE TABLE {{.Text}}_x (id integer);\n-- +goose Down\nDROP TABLE text_x;\n"

		// The same file name in two modules is refused before anything runs.
		a := db.MigrationSource{Module: "alpha", FS: fstest.MapFS{"2099030101_init.sql": file(ok)}}
		b := db.MigrationSource{Module: "beta", FS: fstest.MapFS{"sub/2099030101_init.sql": file(ok)}}
		for _, op := range []func(context.Context) ([]string, error){
			db.NewMigrator(d, []db.MigrationSource{a, b}).Up,
			db.NewMigrator(d, []db.MigrationSource{a, b}).Status,
			db.NewMigrator(d, []db.MigrationSource{a, b}).Down,
		} {
			if _, err := op(ctx); err == nil || !strings.Contains(err.Error(), "duplicate file name 2099030101_init.sql") || !strings.Contains(err.Error(), "beta") {
				t.Fatalf("duplicate file name err = %v", err)
			}
		}
		if tableExists(t, d, "text_x") {
			t.Fatal("a migration ran despite the duplicate")
		}

		// Two files with the same version in different modules collide in goose.
		c := db.MigrationSource{Module: "gamma", FS: fstest.MapFS{"2099030101_other.sql": file(ok)}}
		if _, err := db.NewMigrator(d, []db.MigrationSource{a, c}).Up(ctx); err == nil {
			t.Fatal("duplicate version accepted")
		}

		// Template errors name the module and file.
		bad := db.MigrationSource{Module: "delta", FS: fstest.MapFS{"2099030102_bad.sql": file("-- +goose Up\nCREATE TABLE t (id {{.Nope}});\n")}}
		if _, err := db.NewMigrator(d, []db.MigrationSource{bad}).Up(ctx); err == nil || !strings.Contains(err.Error(), "delta/2099030102_bad.sql") {
			t.Fatalf("unknown template field err = %v", err)
		}
		broken := db.MigrationSource{Module: "epsilon", FS: fstest.MapFS{"2099030103_broken.sql": file("-- +goose Up\n{{ if }}\n")}}
		if _, err := db.NewMigrator(d, []db.MigrationSource{broken}).Up(ctx); err == nil || !strings.Contains(err.Error(), "epsilon/2099030103_broken.sql") {
			t.Fatalf("template syntax err = %v", err)
		}

		// A failing migration is reported and leaves it pending.
		failing := db.MigrationSource{Module: "zeta", FS: fstest.MapFS{"2099030104_fail.sql": file("-- +goose Up\nCREATE TABLE f (id integer);\nCREATE TABLE f (id integer);\n-- +goose Down\nDROP TABLE f;\n")}}
		m := db.NewMigrator(d, []db.MigrationSource{failing})
		if _, err := m.Up(ctx); err == nil {
			t.Fatal("failing migration reported success")
		}
		st, err := m.Status(ctx)
		if err != nil || len(st) != 1 || !strings.HasSuffix(st[0], " pending") {
			t.Fatalf("Status after failure = %q, %v", st, err)
		}
		if tableExists(t, d, "f") {
			t.Fatal("failed migration was not rolled back")
		}
	})
}

func TestTypesFor(t *testing.T) {
	pg := db.TypesFor(db.Postgres)
	if pg.Money != "numeric(20,4)" || pg.UUID != "uuid" || pg.Time != "timestamptz" || pg.JSON != "jsonb" || !pg.Postgres || pg.SQLite || pg.Dialect != "postgres" {
		t.Fatalf("postgres types = %+v", pg)
	}
	lite := db.TypesFor(db.SQLite)
	if lite.Money != "text" || lite.UUID != "text" || lite.Time != "datetime" || lite.JSON != "text" || lite.Postgres || !lite.SQLite || lite.Dialect != "sqlite" {
		t.Fatalf("sqlite types = %+v", lite)
	}
}

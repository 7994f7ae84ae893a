// Package testdb gives each test a fresh, migrated database: a new PostgreSQL database
// on TEST_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test) dropped in
// t.Cleanup, or a temporary SQLite file. Database tests skip only under -short.
package testdb

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // database/sql driver for creating test databases
	"go.uber.org/zap"

	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/ids"
)

// Engine is one database under test.
type Engine struct {
	Name string // "postgres" or "sqlite"
	URL  string // database.url for config
	DB   *db.DB
}

// AdminURL is the server tests create databases on.
func AdminURL() string {
	if u := os.Getenv("TEST_DATABASE_URL"); u != "" {
		return u
	}
	return "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"
}

// Engines lists the engines to run a suite on: postgres and sqlite, or only one when
// TEST_ENGINES says so (e.g. TEST_ENGINES=sqlite for the embedded CI pass).
func Engines() []string {
	if v := os.Getenv("TEST_ENGINES"); v != "" {
		return strings.Split(v, ",")
	}
	return []string{"postgres", "sqlite"}
}

// Primary is the main test target: postgres unless TEST_ENGINES names another first.
func Primary() string { return Engines()[0] }

// URL creates an empty database of the engine and returns its database.url;
// it is removed in t.Cleanup.
func URL(t testing.TB, engine string) string {
	t.Helper()
	return create(t, engine, "")
}

// MigratedURL creates a database of the engine with sources' migrations applied and
// returns its database.url; it is removed in t.Cleanup. It is a copy of a template
// database migrated once per set of migrations (a PostgreSQL template database kept on
// the server, an SQLite file kept in the temporary directory), so each test's database
// costs a copy, not a migration.
func MigratedURL(t testing.TB, engine string, sources ...db.MigrationSource) string {
	t.Helper()
	if testing.Short() {
		t.Skip("database test skipped under -short")
	}
	tpl, err := template(engine, sources)
	if err != nil {
		t.Fatalf("testdb: template: %v", err)
	}
	return create(t, engine, tpl)
}

// create makes a database of the engine, a copy of tpl when tpl is not "".
func create(t testing.TB, engine, tpl string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("database test skipped under -short")
	}
	switch engine {
	case "sqlite":
		path := filepath.Join(t.TempDir(), "test.db")
		if tpl != "" {
			if err := copyFile(tpl, path); err != nil {
				t.Fatalf("testdb: copy the template: %v", err)
			}
		}
		return "sqlite://" + path
	case "postgres":
		admin := AdminURL()
		name := "t_" + strings.ReplaceAll(ids.New(), "-", "")[:24]
		conn, err := sql.Open("pgx", admin)
		if err != nil {
			t.Fatalf("testdb: %v", err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		stmt := "CREATE DATABASE " + name
		if tpl != "" {
			stmt += " TEMPLATE " + tpl
		}
		if err := createDatabase(ctx, conn, stmt); err != nil {
			_ = conn.Close()
			t.Fatalf("testdb: create database (is PostgreSQL running on %s?): %v", admin, err)
		}
		t.Cleanup(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			_, _ = conn.ExecContext(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
			_ = conn.Close()
		})
		u, err := url.Parse(admin)
		if err != nil {
			t.Fatalf("testdb: %v", err)
		}
		u.Path = "/" + name
		return u.String()
	}
	t.Fatalf("testdb: unknown engine %q", engine)
	return ""
}

// Open creates a fresh database of the engine, migrated with sources (a copy of the
// template database of those migrations), and returns it.
func Open(t testing.TB, engine string, sources ...db.MigrationSource) *Engine {
	t.Helper()
	u := MigratedURL(t, engine, sources...)
	d, _ := Connect(t, u, nil)
	return &Engine{Name: engine, URL: u, DB: d}
}

// Connect opens a handle on the database at url, as another process would: the
// default configuration with a pool of 10 connections, then set's changes (nil for
// none). The handle is closed in t.Cleanup, or earlier by the close it returns (which
// may be called again).
func Connect(t testing.TB, url string, set func(*config.Database)) (*db.DB, func()) {
	t.Helper()
	cfg := config.Default()
	cfg.Database.URL = url
	cfg.Database.MaxOpenConns = 10
	if set != nil {
		set(&cfg.Database)
	}
	d, closeFn, err := db.Open(&cfg, zap.NewNop())
	if err != nil {
		t.Fatalf("testdb: open: %v", err)
	}
	var once sync.Once
	closeOnce := func() { once.Do(closeFn) }
	t.Cleanup(closeOnce)
	return d, closeOnce
}

// Each opens a fresh migrated database per engine.
func Each(t testing.TB, sources ...db.MigrationSource) []*Engine {
	t.Helper()
	var out []*Engine
	for _, e := range Engines() {
		out = append(out, Open(t, e, sources...))
	}
	return out
}

// String describes the engine.
func (e *Engine) String() string { return fmt.Sprintf("%s(%s)", e.Name, e.URL) }

// EachEngine runs fn as a parallel subtest per engine (see Engines), named after it;
// fn usually opens its fresh database with Open.
func EachEngine(t *testing.T, fn func(t *testing.T, engine string)) {
	t.Helper()
	for _, engine := range Engines() {
		t.Run(engine, func(t *testing.T) {
			t.Parallel()
			fn(t, engine)
		})
	}
}

// EachOpen runs fn as a parallel subtest per engine (as EachEngine) on a fresh database
// of that engine migrated with sources (Open): a repository test's loop in one call.
func EachOpen(t *testing.T, fn func(t *testing.T, e *Engine), sources ...db.MigrationSource) {
	t.Helper()
	EachEngine(t, func(t *testing.T, engine string) { fn(t, Open(t, engine, sources...)) })
}

// Tables is a migration of test-only tables (a fake's storage, say), to pass to Open
// after the module's own migrations, so the tables are in the template database and
// each test's copy has them for free. Statements are migration templates (see
// db.MigrationSource) separated by ";".
func Tables(name string, statements ...string) db.MigrationSource {
	body := "-- +goose Up\n" + strings.Join(statements, ";\n") + ";\n"
	return db.MigrationSource{Module: name, FS: fstest.MapFS{"9999123199_" + name + ".sql": {Data: []byte(body)}}}
}

// Rows reads every row of a table: the names of its columns and each row's values in
// their order (a []byte value as a string).
func Rows(t testing.TB, d *db.DB, table string) (cols []string, values [][]any) {
	t.Helper()
	rows, err := d.Gorm().Raw(`SELECT * FROM "` + table + `"`).Rows()
	if err != nil {
		t.Fatalf("testdb: rows of %s: %v", table, err)
	}
	defer func() { _ = rows.Close() }()
	if cols, err = rows.Columns(); err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		for i, v := range vals {
			if raw, ok := v.([]byte); ok {
				vals[i] = string(raw)
			}
		}
		values = append(values, vals)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return cols, values
}

// Now is the current time in UTC at the precision both engines store (microseconds),
// so a time written and read back compares equal.
func Now() time.Time { return time.Now().UTC().Truncate(time.Microsecond) }

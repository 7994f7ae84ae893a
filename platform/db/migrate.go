package db

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"testing/fstest"
	"text/template"

	"github.com/pressly/goose/v3"
)

// MigrationSource is one module's embedded migrations: files named
// <version>_<name>.sql in goose format. Each file is a text/template rendered per
// dialect with the column types below, so one file serves PostgreSQL and SQLite:
//
//	{{.UUID}} {{.Money}} {{.Time}} {{.JSON}} {{.Bool}} {{.BigInt}} {{.Text}}
//
// Versions are global: use YYYYMMDDNN so modules never collide.
type MigrationSource struct {
	Module string
	FS     fs.FS
}

// Types are the dialect's column types for migration templates.
type Types struct {
	Dialect                                     string
	UUID, Money, Time, JSON, Bool, BigInt, Text string
	Postgres, SQLite                            bool
}

// TypesFor returns the column types of a dialect.
func TypesFor(d Dialect) Types {
	if d == Postgres {
		return Types{Dialect: "postgres", UUID: "uuid", Money: "numeric(20,4)", Time: "timestamptz", JSON: "jsonb", Bool: "boolean", BigInt: "bigint", Text: "text", Postgres: true}
	}
	// SQLite: decimals are kept as TEXT so they never pass through floating point.
	return Types{Dialect: "sqlite", UUID: "text", Money: "text", Time: "datetime", JSON: "text", Bool: "boolean", BigInt: "integer", Text: "text", SQLite: true}
}

// render merges every source into one goose filesystem rendered for the dialect.
func render(d Dialect, sources []MigrationSource) (fs.FS, error) {
	out := fstest.MapFS{}
	types := TypesFor(d)
	for _, src := range sources {
		err := fs.WalkDir(src.FS, ".", func(p string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() || !strings.HasSuffix(p, ".sql") {
				return err
			}
			raw, err := fs.ReadFile(src.FS, p)
			if err != nil {
				return err
			}
			tpl, err := template.New(p).Parse(string(raw))
			if err != nil {
				return fmt.Errorf("migration %s/%s: %w", src.Module, p, err)
			}
			var buf bytes.Buffer
			if err := tpl.Execute(&buf, types); err != nil {
				return fmt.Errorf("migration %s/%s: %w", src.Module, p, err)
			}
			name := path.Base(p)
			if _, dup := out[name]; dup {
				return fmt.Errorf("migration %s: duplicate file name %s", src.Module, name)
			}
			out[name] = &fstest.MapFile{Data: buf.Bytes()}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Migrator runs the migrations of every module.
type Migrator struct {
	db      *DB
	sources []MigrationSource
}

// NewMigrator builds a migrator over the sources.
func NewMigrator(db *DB, sources []MigrationSource) *Migrator {
	return &Migrator{db: db, sources: sources}
}

func (m *Migrator) provider() (*goose.Provider, error) {
	fsys, err := render(m.db.dialect, m.sources)
	if err != nil {
		return nil, err
	}
	sqlDB, err := m.db.g.DB()
	if err != nil {
		return nil, err
	}
	dialect := goose.DialectPostgres
	if m.db.dialect == SQLite {
		dialect = goose.DialectSQLite3
	}
	return goose.NewProvider(dialect, sqlDB, fsys)
}

// Up applies every pending migration.
func (m *Migrator) Up(ctx context.Context) ([]string, error) {
	p, err := m.provider()
	if err != nil {
		return nil, err
	}
	res, err := p.Up(ctx)
	return names(res), err
}

// Down rolls back the most recent migration.
func (m *Migrator) Down(ctx context.Context) ([]string, error) {
	p, err := m.provider()
	if err != nil {
		return nil, err
	}
	r, err := p.Down(ctx)
	if r == nil {
		return nil, err
	}
	return names([]*goose.MigrationResult{r}), err
}

// Status lists every migration with its state.
func (m *Migrator) Status(ctx context.Context) ([]string, error) {
	p, err := m.provider()
	if err != nil {
		return nil, err
	}
	st, err := p.Status(ctx)
	if err != nil {
		return nil, err
	}
	sort.Slice(st, func(i, j int) bool { return st[i].Source.Version < st[j].Source.Version })
	lines := make([]string, 0, len(st))
	for _, s := range st {
		applied := "pending"
		if s.State == goose.StateApplied {
			applied = "applied " + s.AppliedAt.UTC().Format("2006-01-02T15:04:05Z")
		}
		lines = append(lines, fmt.Sprintf("%-40s %s", path.Base(s.Source.Path), applied))
	}
	return lines, nil
}

func names(res []*goose.MigrationResult) []string {
	out := make([]string, 0, len(res))
	for _, r := range res {
		out = append(out, path.Base(r.Source.Path))
	}
	return out
}

// Embedded is a module's MigrationSource from its embedded migrations folder (the
// module's `//go:embed migrations/*.sql` variable).
func Embedded(module string, files fs.FS) MigrationSource {
	sub, err := fs.Sub(files, "migrations")
	if err != nil {
		panic(err) // the embedded path is fixed at compile time
	}
	return MigrationSource{Module: module, FS: sub}
}

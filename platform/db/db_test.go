package db_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"testing/fstest"

	"go.uber.org/zap"
	"gorm.io/gorm"

	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/ids"
	"github.com/gocommerce/commerce/platform/testdb"
)

// widgets is the tiny schema of the transaction tests.
func widgets() db.MigrationSource {
	return db.MigrationSource{Module: "dbtest", FS: fstest.MapFS{
		"2099010101_widgets.sql": {Data: []byte(`-- +goose Up
CREATE TABLE widgets (
    id   {{.UUID}} PRIMARY KEY,
    name {{.Text}} NOT NULL UNIQUE
);

-- +goose Down
DROP TABLE widgets;
`)},
	}}
}

type widget struct {
	ID   string
	Name string
}

func (widget) TableName() string { return "widgets" }

var errBoom = errors.New("boom")

func insert(ctx context.Context, t *testing.T, d *db.DB, name string) error {
	t.Helper()
	return d.Conn(ctx).Create(&widget{ID: ids.New(), Name: name}).Error
}

func count(t *testing.T, d *db.DB) int64 {
	t.Helper()
	var n int64
	if err := d.Conn(context.Background()).Model(&widget{}).Count(&n).Error; err != nil {
		t.Fatalf("count: %v", err)
	}
	return n
}

func names(t *testing.T, d *db.DB) []string {
	t.Helper()
	var out []string
	if err := d.Conn(context.Background()).Model(&widget{}).Order("name").Pluck("name", &out).Error; err != nil {
		t.Fatalf("names: %v", err)
	}
	return out
}

func TestInTx(t *testing.T) {
	testdb.EachOpen(t, func(t *testing.T, e *testdb.Engine) {
		d := e.DB
		ctx := context.Background()

		if d.Dialect() != db.Dialect(e.Name) {
			t.Fatalf("Dialect = %q, want %q", d.Dialect(), e.Name)
		}
		if err := d.Ping(ctx); err != nil {
			t.Fatalf("Ping: %v", err)
		}

		// Conn outside a transaction works on its own.
		if db.InTransaction(ctx) {
			t.Fatal("background context reports a transaction")
		}
		if err := insert(ctx, t, d, "standalone"); err != nil {
			t.Fatalf("insert outside tx: %v", err)
		}

		// left checks a transaction's error (errors.Is want) and the rows it left.
		left := func(what string, err, want error, rows int64) {
			t.Helper()
			if !errors.Is(err, want) {
				t.Fatalf("%s: err = %v, want %v", what, err, want)
			}
			if n := count(t, d); n != rows {
				t.Fatalf("%s: count = %d, want %d", what, n, rows)
			}
		}
		// insertThen inserts name, then answers then.
		insertThen := func(ctx context.Context, name string, then error) error {
			if err := insert(ctx, t, d, name); err != nil {
				return err
			}
			return then
		}

		// Commit.
		err := d.InTx(ctx, func(ctx context.Context) error {
			if !db.InTransaction(ctx) {
				t.Error("InTx context carries no transaction")
			}
			if err := insert(ctx, t, d, "a"); err != nil {
				return err
			}
			return insert(ctx, t, d, "b")
		})
		if err != nil {
			t.Fatalf("InTx commit: %v", err)
		}
		if got := names(t, d); len(got) != 3 || got[0] != "a" || got[1] != "b" || got[2] != "standalone" {
			t.Fatalf("after commit rows = %v", got)
		}

		// Rollback on error leaves nothing and returns fn's error.
		err = d.InTx(ctx, func(ctx context.Context) error { return insertThen(ctx, "rolled-back", errBoom) })
		left("rollback", err, errBoom, 3)

		// A failed statement rolls back the statements before it.
		err = d.InTx(ctx, func(ctx context.Context) error {
			if err := insert(ctx, t, d, "first"); err != nil {
				return err
			}
			return insert(ctx, t, d, "a") // duplicate
		})
		if !db.IsDuplicate(err) {
			t.Fatalf("duplicate inside tx err = %v", err)
		}
		left("failed statement", nil, nil, 3)

		// Nested InTx joins the outer transaction: an inner error rolls back everything.
		err = d.InTx(ctx, func(outer context.Context) error {
			if err := insert(outer, t, d, "outer"); err != nil {
				return err
			}
			return d.InTx(outer, func(inner context.Context) error {
				if d.Conn(inner) != d.Conn(outer) {
					t.Error("nested InTx did not join the outer transaction")
				}
				return insertThen(inner, "inner", errBoom)
			})
		})
		left("nested rollback", err, errBoom, 3)

		// An inner success is undone when the outer transaction fails afterwards.
		err = d.InTx(ctx, func(outer context.Context) error {
			if err := d.InTx(outer, func(inner context.Context) error {
				return insert(inner, t, d, "inner-ok")
			}); err != nil {
				return err
			}
			return errBoom
		})
		left("outer failure", err, errBoom, 3)

		// Nested success commits with the outer transaction.
		err = d.InTx(ctx, func(outer context.Context) error {
			if err := insert(outer, t, d, "outer2"); err != nil {
				return err
			}
			return d.InTx(outer, func(inner context.Context) error {
				return insert(inner, t, d, "inner2")
			})
		})
		left("nested commit", err, nil, 5)

		// A panic inside fn rolls back and propagates.
		func() {
			defer func() {
				if r := recover(); r == nil {
					t.Error("panic inside InTx was swallowed")
				}
			}()
			_ = d.InTx(ctx, func(ctx context.Context) error {
				if err := insert(ctx, t, d, "panicked"); err != nil {
					return err
				}
				panic("boom")
			})
		}()
		left("panic", nil, nil, 5)
	}, widgets())
}

// TestInTxIsolation checks that uncommitted rows are invisible to other connections
// (PostgreSQL only: SQLite runs on one connection).
func TestInTxIsolation(t *testing.T) {
	if !slices.Contains(testdb.Engines(), "postgres") {
		t.Skip("postgres not in TEST_ENGINES")
	}
	t.Parallel()
	d := testdb.Open(t, "postgres", widgets()).DB
	ctx := context.Background()
	err := d.InTx(ctx, func(ctx context.Context) error {
		if err := insert(ctx, t, d, "pending"); err != nil {
			return err
		}
		var inside int64
		if err := d.Conn(ctx).Model(&widget{}).Count(&inside).Error; err != nil {
			return err
		}
		if inside != 1 {
			t.Errorf("inside tx count = %d, want 1", inside)
		}
		// Another goroutine (a statement of this one outside its transaction is the
		// mistake the strict mode refuses) does not see the uncommitted row.
		outside := make(chan int64)
		go func() {
			var n int64
			_ = d.Conn(context.Background()).Model(&widget{}).Count(&n).Error
			outside <- n
		}()
		if n := <-outside; n != 0 {
			t.Errorf("outside tx sees %d uncommitted rows", n)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n := count(t, d); n != 1 {
		t.Fatalf("after commit count = %d, want 1", n)
	}
}

// TestOnCommit: the hooks run when a writer calls Committed; a writer inside a
// transaction does so through AfterCommit (as the outbox does after storing pending
// events), so they run once, after the outermost commit, and never on a rollback. A
// transaction that asks for nothing runs no hook.
func TestOnCommit(t *testing.T) {
	testdb.EachOpen(t, func(t *testing.T, e *testdb.Engine) {
		d := e.DB
		ctx := context.Background()

		var calls, seen atomic.Int64
		d.OnCommit(func() {
			calls.Add(1)
			// The hook runs after the commit: the data is visible outside the tx.
			var n int64
			if err := d.Conn(context.Background()).Model(&widget{}).Count(&n).Error; err != nil {
				t.Errorf("count in hook: %v", err)
			}
			seen.Store(n)
		})
		var second atomic.Int64
		d.OnCommit(func() { second.Add(1) })
		// wake is what a writer of something the hooks wait for does.
		wake := func(ctx context.Context) { d.AfterCommit(ctx, d.Committed) }

		// Work outside InTx runs no hook unless its writer wakes them (at once).
		if err := insert(ctx, t, d, "alone"); err != nil {
			t.Fatal(err)
		}
		if calls.Load() != 0 {
			t.Fatalf("hook ran without a writer waking it: %d", calls.Load())
		}
		// A committed transaction that asks for nothing runs no hook.
		if err := d.InTx(ctx, func(ctx context.Context) error { return insert(ctx, t, d, "quiet") }); err != nil {
			t.Fatal(err)
		}
		if calls.Load() != 0 {
			t.Fatalf("hook ran after a transaction that asked for none: %d", calls.Load())
		}

		// Commit: every hook runs once, after the commit.
		if err := d.InTx(ctx, func(ctx context.Context) error {
			if err := insert(ctx, t, d, "one"); err != nil {
				return err
			}
			wake(ctx)
			if calls.Load() != 0 {
				t.Error("hook ran before commit")
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if calls.Load() != 1 || second.Load() != 1 {
			t.Fatalf("after commit hooks = %d/%d, want 1/1", calls.Load(), second.Load())
		}
		if seen.Load() != 3 {
			t.Fatalf("hook saw %d rows, want the committed 3", seen.Load())
		}

		// Rollback: no hook.
		if err := d.InTx(ctx, func(ctx context.Context) error {
			_ = insert(ctx, t, d, "two")
			wake(ctx)
			return errBoom
		}); !errors.Is(err, errBoom) {
			t.Fatal(err)
		}
		if calls.Load() != 1 {
			t.Fatalf("hook ran on rollback: %d", calls.Load())
		}

		// Nested: the wake asked in an inner InTx runs after the outermost commit.
		if err := d.InTx(ctx, func(outer context.Context) error {
			for _, name := range []string{"n1", "n2"} {
				if err := d.InTx(outer, func(inner context.Context) error {
					wake(inner)
					return insert(inner, t, d, name)
				}); err != nil {
					return err
				}
			}
			if calls.Load() != 1 {
				t.Error("hook ran on a nested InTx")
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if calls.Load() != 3 || second.Load() != 3 {
			t.Fatalf("after nested commit hooks = %d/%d, want 3/3 (one per wake, after the commit)", calls.Load(), second.Load())
		}

		// Nested rollback: no hook.
		_ = d.InTx(ctx, func(outer context.Context) error {
			return d.InTx(outer, func(inner context.Context) error { wake(inner); return errBoom })
		})
		// Panic: no hook.
		func() {
			defer func() { _ = recover() }()
			_ = d.InTx(ctx, func(ctx context.Context) error { wake(ctx); panic("boom") })
		}()
		if calls.Load() != 3 {
			t.Fatalf("hook ran on nested rollback or panic: %d", calls.Load())
		}
	}, widgets())
}

func TestErrorHelpers(t *testing.T) {
	testdb.EachOpen(t, func(t *testing.T, e *testdb.Engine) {
		d := e.DB
		ctx := context.Background()
		if err := insert(ctx, t, d, "unique"); err != nil {
			t.Fatal(err)
		}
		err := insert(ctx, t, d, "unique")
		if err == nil || !db.IsDuplicate(err) || !errors.Is(err, gorm.ErrDuplicatedKey) {
			t.Fatalf("unique violation: IsDuplicate(%v) = false", err)
		}
		// Primary-key violations are duplicates too.
		id := ids.New()
		if err := d.Conn(ctx).Create(&widget{ID: id, Name: "pk1"}).Error; err != nil {
			t.Fatal(err)
		}
		if err := d.Conn(ctx).Create(&widget{ID: id, Name: "pk2"}).Error; !db.IsDuplicate(err) {
			t.Fatalf("primary key violation: IsDuplicate(%v) = false", err)
		}
		// Other failures are not.
		if err := d.Conn(ctx).Exec("INSERT INTO widgets (id) VALUES (?)", ids.New()).Error; err == nil || db.IsDuplicate(err) {
			t.Fatalf("not-null violation: err = %v, IsDuplicate = %v", err, db.IsDuplicate(err))
		}
		if db.IsDuplicate(nil) || db.IsNotFound(nil) {
			t.Fatal("nil error classified")
		}

		var w widget
		err = d.Conn(ctx).Where("name = ?", "missing").First(&w).Error
		if !db.IsNotFound(err) || db.IsDuplicate(err) {
			t.Fatalf("IsNotFound(%v) = false", err)
		}
	}, widgets())
}

// TestOpenSQLiteCreatesDirectory checks that Open makes the SQLite file's directory.
func TestOpenSQLiteCreatesDirectory(t *testing.T) {
	if testing.Short() {
		t.Skip("database test skipped under -short")
	}
	cfg := config.Default()
	cfg.Database.URL = "sqlite://" + t.TempDir() + "/nested/dir/app.db"
	d, closeFn, err := db.Open(&cfg, zap.NewNop())
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	defer closeFn()
	if d.Dialect() != db.SQLite {
		t.Fatalf("Dialect = %q", d.Dialect())
	}
	if err := d.Ping(context.Background()); err != nil {
		t.Fatalf("Ping: %v", err)
	}
}

// AfterCommit: a function registered inside a (nested) transaction runs once, after the
// outermost commit, and sees the committed data; a rollback drops it; without a
// transaction it runs at once.
func TestAfterCommit(t *testing.T) {
	testdb.EachOpen(t, func(t *testing.T, e *testdb.Engine) {
		d := e.DB
		ctx := context.Background()
		count := func() int64 {
			var n int64
			if err := d.Conn(context.Background()).Model(&widget{}).Count(&n).Error; err != nil {
				t.Errorf("count: %v", err)
			}
			return n
		}
		var runs []int64
		record := func() { runs = append(runs, count()) }

		d.AfterCommit(ctx, record)
		if len(runs) != 1 {
			t.Fatalf("without a transaction: %d runs, want 1 at once", len(runs))
		}
		err := d.InTx(ctx, func(ctx context.Context) error {
			if err := insert(ctx, t, d, "one"); err != nil {
				return err
			}
			return d.InTx(ctx, func(ctx context.Context) error {
				d.AfterCommit(ctx, record)
				if len(runs) != 1 {
					t.Error("ran before the commit")
				}
				return nil
			})
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(runs) != 2 || runs[1] != 1 {
			t.Fatalf("after commit: runs %v, want a second run that sees the committed row", runs)
		}
		if err := d.InTx(ctx, func(ctx context.Context) error {
			d.AfterCommit(ctx, record)
			return errBoom
		}); !errors.Is(err, errBoom) {
			t.Fatal(err)
		}
		if len(runs) != 2 {
			t.Fatalf("ran after a rollback: %v", runs)
		}
	}, widgets())
}

// Exec and ExecQuery run in ctx's transaction when there is one (its reads see their
// uncommitted rows, its rollback undoes them), alone and committed otherwise; Rebind
// gives each engine its parameters.
func TestExecAndRebind(t *testing.T) {
	testdb.EachOpen(t, func(t *testing.T, e *testdb.Engine) {
		d := e.DB
		ctx := context.Background()
		q := d.Rebind("SELECT count(*) FROM widgets WHERE name = ? OR name = ?")
		want := map[db.Dialect]string{
			db.Postgres: "SELECT count(*) FROM widgets WHERE name = $1 OR name = $2",
			db.SQLite:   "SELECT count(*) FROM widgets WHERE name = ? OR name = ?",
		}[d.Dialect()]
		if q != want {
			t.Fatalf("Rebind = %q, want %q", q, want)
		}
		if d.Dialect() == db.Postgres {
			for in, want := range map[string]string{
				"": "", "SELECT 1": "SELECT 1", "?": "$1", "??": "$1$2", "? é ?": "$1 é $2",
				"a IN (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)": "a IN ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
				"x = 'ü' AND y = ?;":                     "x = 'ü' AND y = $1;",
			} {
				if got := d.Rebind(in); got != want {
					t.Errorf("Rebind(%q) = %q, want %q", in, got, want)
				}
			}
		}
		countRaw := func(ctx context.Context) int {
			var n int
			if err := d.QueryRow(ctx, q, []any{"a", "b"}, &n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		exec := func(ctx context.Context, query string, args ...any) int64 {
			n, err := d.Exec(ctx, d.Rebind(query), args...)
			if err != nil {
				t.Fatalf("Exec(%q): %v", query, err)
			}
			return n
		}
		if err := d.InTx(ctx, func(ctx context.Context) error {
			if n := exec(ctx, "INSERT INTO widgets (id, name) VALUES (?, ?), (?, ?)", ids.New(), "a", ids.New(), "b"); n != 2 {
				t.Errorf("Exec in the transaction: %d rows, want 2", n)
			}
			if n := countRaw(ctx); n != 2 {
				t.Errorf("inside the transaction: %d rows, want its own uncommitted 2", n)
			}
			return errBoom
		}); !errors.Is(err, errBoom) {
			t.Fatal(err)
		}
		if n := countRaw(ctx); n != 0 {
			t.Fatalf("after the rollback: %d rows, want 0", n)
		}
		// Alone, Exec commits at once; its count is what the statement changed.
		if n := exec(ctx, "INSERT INTO widgets (id, name) VALUES (?, ?)", ids.New(), "a"); n != 1 || countRaw(ctx) != 1 {
			t.Fatalf("Exec alone: %d rows, %d committed; want 1, 1", n, countRaw(ctx))
		}
		if n := exec(ctx, "UPDATE widgets SET name = ? WHERE name = ?", "b", "zz"); n != 0 {
			t.Fatalf("an UPDATE of no row: %d rows", n)
		}
		if _, err := d.Exec(ctx, d.Rebind("INSERT INTO widgets (id, name) VALUES (?, ?)"), ids.New(), "a"); err == nil {
			t.Fatal("a duplicate name gave no error")
		}
		// ExecQuery scans a write's RETURNING rows, alone and in a transaction.
		var name string
		var got []string
		returning := func(ctx context.Context) error {
			return d.ExecQuery(ctx, d.Rebind("UPDATE widgets SET name = name || ? RETURNING name"), []any{"+"}, []any{&name}, func() error {
				got = append(got, name)
				return nil
			})
		}
		if err := returning(ctx); err != nil || !slices.Equal(got, []string{"a+"}) {
			t.Fatalf("ExecQuery alone: %v, %v", got, err)
		}
		got = nil
		if err := d.InTx(ctx, func(ctx context.Context) error {
			if err := returning(ctx); err != nil {
				return err
			}
			return errBoom
		}); !errors.Is(err, errBoom) || !slices.Equal(got, []string{"a++"}) {
			t.Fatalf("ExecQuery in a transaction: %v, %v", got, err)
		}
		if n := exec(ctx, "DELETE FROM widgets WHERE name = ?", "a+"); n != 1 {
			t.Fatalf("the rolled-back ExecQuery wrote: DELETE of a+ changed %d rows", n)
		}
	}, widgets())
}

// BeforeCommit runs inside the outermost transaction after its work (nested InTx
// joins it), its error rolls everything back, and it is refused without a transaction;
// TxValue is one value per transaction.
func TestBeforeCommitAndTxValue(t *testing.T) {
	testdb.EachOpen(t, func(t *testing.T, e *testdb.Engine) {
		d := e.DB
		ctx := context.Background()
		if d.BeforeCommit(ctx, func(context.Context) error { return nil }) {
			t.Fatal("BeforeCommit accepted a context without a transaction")
		}
		if _, _, ok := db.TxValue(ctx, "k", func() any { return 1 }); ok {
			t.Fatal("TxValue outside a transaction")
		}
		type key struct{}
		var order []string
		err := d.InTx(ctx, func(ctx context.Context) error {
			v1, created1, _ := db.TxValue(ctx, key{}, func() any { return new(int) })
			return d.InTx(ctx, func(ctx context.Context) error {
				v2, created2, ok := db.TxValue(ctx, key{}, func() any { return new(int) })
				if !ok || !created1 || created2 || v1 != v2 {
					t.Errorf("TxValue: one value per transaction (created %v %v)", created1, created2)
				}
				if !d.BeforeCommit(ctx, func(ctx context.Context) error {
					order = append(order, "before")
					return insert(ctx, t, d, "from-before-commit")
				}) {
					t.Error("BeforeCommit refused in a transaction")
				}
				order = append(order, "work")
				return insert(ctx, t, d, "work")
			})
		})
		if err != nil || strings.Join(order, ",") != "work,before" {
			t.Fatalf("InTx = %v, order %v", err, order)
		}
		if n := count(t, d); n != 2 {
			t.Fatalf("%d rows committed, want 2", n)
		}
		err = d.InTx(ctx, func(ctx context.Context) error {
			d.BeforeCommit(ctx, func(context.Context) error { return errBoom })
			return insert(ctx, t, d, "rolled-back")
		})
		if !errors.Is(err, errBoom) || count(t, d) != 2 {
			t.Fatalf("a failing before-commit function: InTx = %v, %d rows", err, count(t, d))
		}
		// Another transaction starts without the last one's values.
		_ = d.InTx(ctx, func(ctx context.Context) error {
			if _, created, _ := db.TxValue(ctx, key{}, func() any { return new(int) }); !created {
				t.Error("TxValue kept a value across transactions")
			}
			return nil
		})
	}, widgets())
}

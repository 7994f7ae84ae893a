package db_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/testdb"
)

// mustPanicOutside runs f and reports whether it panicked with db.ErrOutsideTx.
func mustPanicOutside(t *testing.T, what string, f func()) {
	t.Helper()
	defer func() {
		t.Helper()
		r := recover()
		if err, ok := r.(error); !ok || !errors.Is(err, db.ErrOutsideTx) {
			t.Errorf("%s: panic = %v, want db.ErrOutsideTx", what, r)
		}
	}()
	f()
}

// A statement sent with the caller's context while the same goroutine holds a
// transaction open fails loudly in tests, on every entry point; the transaction's own
// context, other goroutines and the time after the commit are fine.
func TestStrictStatementOutsideTransaction(t *testing.T) {
	testdb.EachOpen(t, func(t *testing.T, e *testdb.Engine) {
		d := e.DB
		outer := context.Background()
		var n int
		err := d.InTx(outer, func(ctx context.Context) error {
			if err := insert(ctx, t, d, "in-tx"); err != nil {
				return err
			}
			mustPanicOutside(t, "Conn", func() { _ = d.Conn(outer).Exec("SELECT 1") })
			mustPanicOutside(t, "Exec", func() { _, _ = d.Exec(outer, "DELETE FROM widgets") })
			mustPanicOutside(t, "ExecQuery", func() {
				_ = d.ExecQuery(outer, "DELETE FROM widgets RETURNING name", nil, []any{new(string)}, func() error { return nil })
			})
			mustPanicOutside(t, "QueryRow", func() { _ = d.QueryRow(outer, "SELECT 1", nil, &n) })
			mustPanicOutside(t, "Query", func() {
				_ = d.Query(outer, "SELECT 1", nil, []any{&n}, func() error { return nil })
			})
			mustPanicOutside(t, "InTx", func() {
				_ = d.InTx(outer, func(context.Context) error { return nil })
			})
			// The transaction's context is the right one, nested InTx joins it.
			if err := d.QueryRow(ctx, "SELECT COUNT(*) FROM widgets", nil, &n); err != nil || n != 1 {
				t.Errorf("QueryRow in the transaction: %d, %v", n, err)
			}
			if err := d.InTx(ctx, func(ctx context.Context) error { return insert(ctx, t, d, "nested") }); err != nil {
				t.Errorf("nested InTx: %v", err)
			}
			return nil
		})
		if err != nil {
			t.Fatalf("InTx: %v", err)
		}
		// After the commit the goroutine holds nothing.
		if got := count(t, d); got != 2 {
			t.Fatalf("widgets = %d, want 2", got)
		}
	}, widgets())
}

// openPool opens a database whose pool has one connection and the given acquire timeout.
func openPool(t *testing.T, engine string, acquire time.Duration) *db.DB {
	t.Helper()
	d, _ := testdb.Connect(t, testdb.Open(t, engine, widgets()).URL, func(c *config.Database) {
		c.MaxOpenConns, c.AcquireTimeout = 1, acquire
	})
	return d
}

// While every connection is held, a transaction, a read or a write waits at most the acquire
// timeout and gets ErrBusy (503), not the request's whole deadline; once the
// connection is free, both work again.
func TestAcquireTimeoutAnswersBusy(t *testing.T) {
	testdb.EachEngine(t, func(t *testing.T, engine string) {
		d := openPool(t, engine, 150*time.Millisecond)
		held, release := make(chan struct{}), make(chan struct{})
		done := make(chan error, 1)
		go func() {
			done <- d.InTx(context.Background(), func(ctx context.Context) error {
				if err := insert(ctx, t, d, "holder"); err != nil {
					return err
				}
				close(held)
				<-release
				return nil
			})
		}()
		<-held
		// The caller's own deadline is far away: the acquire timeout decides.
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		start := time.Now()
		err := d.InTx(ctx, func(ctx context.Context) error { return insert(ctx, t, d, "waiter") })
		assertBusy(t, "InTx", err, start)
		var n int
		start = time.Now()
		err = d.QueryRow(ctx, "SELECT COUNT(*) FROM widgets", nil, &n)
		assertBusy(t, "QueryRow", err, start)
		start = time.Now()
		_, err = d.Exec(ctx, d.Rebind("DELETE FROM widgets WHERE name = ?"), "holder")
		assertBusy(t, "Exec", err, start)
		start = time.Now()
		err = d.ExecQuery(ctx, "DELETE FROM widgets RETURNING name", nil, []any{new(string)}, func() error { return nil })
		assertBusy(t, "ExecQuery", err, start)

		close(release)
		if err := <-done; err != nil {
			t.Fatalf("holder: %v", err)
		}
		if err := d.InTx(ctx, func(ctx context.Context) error { return insert(ctx, t, d, "after") }); err != nil {
			t.Fatalf("InTx after release: %v", err)
		}
		if err := d.QueryRow(ctx, "SELECT COUNT(*) FROM widgets", nil, &n); err != nil || n != 2 {
			t.Fatalf("count after release = %d, %v; want 2 (the busy insert wrote nothing)", n, err)
		}
	})
}

func assertBusy(t *testing.T, what string, err error, start time.Time) {
	t.Helper()
	e, ok := apperr.As(err)
	if !ok || e.Kind != apperr.Unavailable {
		t.Fatalf("%s: err = %v, want the 503 ErrBusy", what, err)
	}
	if waited := time.Since(start); waited > 10*time.Second {
		t.Fatalf("%s waited %v", what, waited)
	}
}

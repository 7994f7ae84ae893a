package db_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/ids"
	"github.com/gocommerce/commerce/platform/testdb"
)

// insertLater queues a widget's insert (gorm's Create through ConnLater).
func insertLater(ctx context.Context, d *db.DB, name string) error {
	return d.ConnLater(ctx).Create(&widget{ID: ids.New(), Name: name}).Error
}

// A PostgreSQL transaction sends BEGIN with its first statement, and a queued write
// with the statement after it (decision 0240): what the transaction reads sees it.
func TestQueuedWritesGoOutWithTheNextStatement(t *testing.T) {
	d := testdb.Open(t, "postgres", widgets()).DB
	ctx := context.Background()
	var seen int64
	err := d.InTx(ctx, func(ctx context.Context) error {
		if n := d.RoundTrips(ctx); n != 0 {
			t.Errorf("round trips before any statement = %d, want 0 (BEGIN waits)", n)
		}
		if err := insertLater(ctx, d, "a"); err != nil {
			return err
		}
		if _, err := d.Exec(db.Later(ctx), d.Rebind("INSERT INTO widgets (id, name) VALUES (?, ?)"), ids.New(), "b"); err != nil {
			return err
		}
		if n := d.RoundTrips(ctx); n != 0 {
			t.Errorf("round trips after two queued writes = %d, want 0", n)
		}
		// BEGIN, both inserts and this read: one round trip.
		if err := d.QueryRow(ctx, "SELECT count(*) FROM widgets", nil, &seen); err != nil {
			return err
		}
		if n := d.RoundTrips(ctx); n != 1 {
			t.Errorf("round trips after the read = %d, want 1", n)
		}
		// A write whose answer is read goes out at once, and answers its count.
		n, err := d.Exec(ctx, d.Rebind("UPDATE widgets SET name = name || '!' WHERE name IN (?, ?)"), "a", "b")
		if err != nil {
			return err
		}
		if n != 2 {
			t.Errorf("update answered %d rows, want 2", n)
		}
		if n := d.RoundTrips(ctx); n != 2 {
			t.Errorf("round trips after the update = %d, want 2", n)
		}
		// The last queued write goes out with COMMIT.
		return insertLater(ctx, d, "c")
	})
	if err != nil {
		t.Fatalf("InTx: %v", err)
	}
	if seen != 2 {
		t.Errorf("the transaction's read saw %d widgets, want its 2 queued inserts", seen)
	}
	if got := names(t, d); !slices.Equal(got, []string{"a!", "b!", "c"}) {
		t.Errorf("committed %v, want [a! b! c]", got)
	}
}

// A queued write that fails aborts the transaction: the statement that carried it
// fails, InTx answers the queued write's own error, and nothing is committed.
func TestQueuedWriteFailureIsTheTransactionsAnswer(t *testing.T) {
	d := testdb.Open(t, "postgres", widgets()).DB
	ctx := context.Background()
	if err := insert(ctx, t, d, "taken"); err != nil {
		t.Fatal(err)
	}
	for _, carrier := range []string{"raw read", "gorm read", "commit"} {
		t.Run(carrier, func(t *testing.T) {
			err := d.InTx(ctx, func(ctx context.Context) error {
				if err := insert(ctx, t, d, "kept-"+carrier); err != nil { // sent at once
					return err
				}
				if err := insertLater(ctx, d, "taken"); err != nil {
					t.Errorf("queued insert answered %v at once, want nil", err)
					return err
				}
				switch carrier {
				case "raw read":
					var n int64
					return d.QueryRow(ctx, "SELECT count(*) FROM widgets", nil, &n)
				case "gorm read":
					var n int64
					return d.Conn(ctx).Model(&widget{}).Count(&n).Error
				}
				return nil
			})
			var pg *pgconn.PgError
			if !errors.As(err, &pg) || pg.Code != "23505" {
				t.Fatalf("InTx = %v, want the queued insert's unique violation (23505)", err)
			}
			if got := names(t, d); !slices.Equal(got, []string{"taken"}) {
				t.Errorf("after the failed transaction: %v, want only [taken]", got)
			}
		})
	}
	// The connection is usable again (rolled back, back in the pool).
	for range 12 {
		if err := d.InTx(ctx, func(ctx context.Context) error { return insert(ctx, t, d, ids.New()) }); err != nil {
			t.Fatalf("a transaction after the failures: %v", err)
		}
	}
}

// A transaction that fails before anything went out sends nothing, and drops what it
// queued; one that ran no statement sends nothing either.
func TestQueuedWritesOfARolledBackTransactionAreDropped(t *testing.T) {
	d := testdb.Open(t, "postgres", widgets()).DB
	ctx := context.Background()
	var trips int
	err := d.InTx(ctx, func(ctx context.Context) error {
		if err := insertLater(ctx, d, "dropped"); err != nil {
			return err
		}
		trips = d.RoundTrips(ctx)
		return errBoom
	})
	if !errors.Is(err, errBoom) {
		t.Fatalf("InTx = %v, want errBoom", err)
	}
	if trips != 0 {
		t.Errorf("round trips = %d, want 0", trips)
	}
	if n := count(t, d); n != 0 {
		t.Errorf("%d widgets after the rollback, want 0", n)
	}
	if err := d.InTx(ctx, func(context.Context) error { return nil }); err != nil {
		t.Fatalf("empty transaction: %v", err)
	}
	// A failure after statements went out rolls them back.
	err = d.InTx(ctx, func(ctx context.Context) error {
		if err := insert(ctx, t, d, "sent"); err != nil {
			return err
		}
		if err := insertLater(ctx, d, "queued"); err != nil {
			return err
		}
		return errBoom
	})
	if !errors.Is(err, errBoom) {
		t.Fatalf("InTx = %v, want errBoom", err)
	}
	if n := count(t, d); n != 0 {
		t.Errorf("%d widgets after the rollback, want 0", n)
	}
}

// Later outside a transaction, and on SQLite, runs the statement at once.
func TestLaterOutsideAPipelinedTransactionRunsAtOnce(t *testing.T) {
	testdb.EachOpen(t, func(t *testing.T, e *testdb.Engine) {
		d := e.DB
		ctx := context.Background()
		if err := insertLater(ctx, d, "alone"); err != nil {
			t.Fatal(err)
		}
		if n := count(t, d); n != 1 {
			t.Fatalf("%d widgets after an insert outside a transaction, want 1", n)
		}
		err := d.InTx(ctx, func(ctx context.Context) error {
			if err := insertLater(ctx, d, "alone"); err == nil && d.Dialect() == db.SQLite {
				t.Error("a duplicate insert with Later on SQLite answered nil, want its error at once")
			}
			return nil
		})
		if d.Dialect() == db.Postgres {
			var pg *pgconn.PgError
			if !errors.As(err, &pg) || pg.Code != "23505" {
				t.Fatalf("InTx = %v, want the queued duplicate's error at commit", err)
			}
		}
		if n := count(t, d); n != 1 {
			t.Errorf("%d widgets, want 1", n)
		}
	}, widgets())
}

// A statement sent from a Query's each, while the transaction's rows are being read,
// is refused at once: it does not wait for the read it runs inside.
func TestStatementWhileReadingRowsIsRefused(t *testing.T) {
	d := testdb.Open(t, "postgres", widgets()).DB
	ctx := context.Background()
	for _, n := range []string{"a", "b"} {
		if err := insert(ctx, t, d, n); err != nil {
			t.Fatal(err)
		}
	}
	done := make(chan error, 1)
	go func() {
		done <- d.InTx(ctx, func(ctx context.Context) error {
			var name string
			return d.Query(ctx, "SELECT name FROM widgets", nil, []any{&name}, func() error {
				_, err := d.Exec(ctx, d.Rebind("UPDATE widgets SET name = ? WHERE name = ?"), name+"!", name)
				return err
			})
		})
	}()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("a statement inside a transaction's read succeeded, want it refused")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a statement inside a transaction's read waits for itself")
	}
	if got := names(t, d); !slices.Equal(got, []string{"a", "b"}) {
		t.Errorf("after the refused transaction: %v, want [a b]", got)
	}
}

var errRefused = errors.New("refused")

// A queued guarded write (Later and Expect) is checked when it goes out: a write that
// changed another number of rows fails the statement that carried it, and the
// transaction answers the write's failure and commits nothing; also when the check is
// still queued at COMMIT, which then does not go out.
func TestQueuedGuardedWrite(t *testing.T) {
	d := testdb.Open(t, "postgres", widgets()).DB
	ctx := context.Background()
	if err := insert(ctx, t, d, "a"); err != nil {
		t.Fatal(err)
	}
	rename := func(ctx context.Context, from, to string) error {
		_, err := d.Exec(db.Later(db.Expect(ctx, 1, errRefused)), d.Rebind("UPDATE widgets SET name = ? WHERE name = ?"), to, from)
		return err
	}
	for _, carrier := range []string{"read", "commit"} {
		t.Run(carrier+" refused", func(t *testing.T) {
			err := d.InTx(ctx, func(ctx context.Context) error {
				if err := insert(ctx, t, d, "new-"+carrier); err != nil {
					return err
				}
				if err := rename(ctx, "missing", "b"); err != nil {
					t.Errorf("queued guarded write answered %v at once, want nil", err)
				}
				if err := insertLater(ctx, d, "queued-"+carrier); err != nil {
					return err
				}
				if carrier == "read" {
					var n int64
					if err := d.QueryRow(ctx, "SELECT count(*) FROM widgets", nil, &n); !errors.Is(err, errRefused) {
						t.Errorf("the read that carried the refused write answered %v, want errRefused", err)
					}
				}
				return nil
			})
			if !errors.Is(err, errRefused) {
				t.Fatalf("InTx = %v, want errRefused", err)
			}
			if got := names(t, d); !slices.Equal(got, []string{"a"}) {
				t.Errorf("after the refused transaction: %v, want [a]", got)
			}
		})
	}
	t.Run("held", func(t *testing.T) {
		err := d.InTx(ctx, func(ctx context.Context) error { return rename(ctx, "a", "b") })
		if err != nil {
			t.Fatalf("InTx = %v", err)
		}
		if got := names(t, d); !slices.Equal(got, []string{"b"}) {
			t.Errorf("committed %v, want [b]", got)
		}
	})
}

// Expect without a queue (outside a transaction, or on SQLite) answers the failure at
// once.
func TestGuardedWriteAtOnce(t *testing.T) {
	testdb.EachOpen(t, func(t *testing.T, e *testdb.Engine) {
		d := e.DB
		ctx := context.Background()
		if err := insert(ctx, t, d, "a"); err != nil {
			t.Fatal(err)
		}
		update := d.Rebind("UPDATE widgets SET name = ? WHERE name = ?")
		if _, err := d.Exec(db.Expect(ctx, 1, errRefused), update, "b", "missing"); !errors.Is(err, errRefused) {
			t.Errorf("outside a transaction: %v, want errRefused", err)
		}
		if n, err := d.Exec(db.Expect(ctx, 1, errRefused), update, "b", "a"); err != nil || n != 1 {
			t.Errorf("a write that held: %d, %v", n, err)
		}
		err := d.InTx(ctx, func(ctx context.Context) error {
			_, err := d.Exec(db.Expect(ctx, 1, errRefused), update, "c", "missing")
			return err
		})
		if !errors.Is(err, errRefused) {
			t.Errorf("in a transaction, not queued: %v, want errRefused", err)
		}
	}, widgets())
}

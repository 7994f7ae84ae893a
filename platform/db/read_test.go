package db_test

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/ids"
	"github.com/gocommerce/commerce/platform/testdb"
)

// QueryRow and Query read the same on both engines, outside and inside a transaction,
// into the types repositories scan (text, decimal, nullable, JSON as text, time).
func TestQueryRowAndQuery(t *testing.T) {
	testdb.EachOpen(t, func(t *testing.T, e *testdb.Engine) {
		d := e.DB
		ctx := context.Background()
		for _, n := range []string{"b", "a", "c"} {
			if err := insert(ctx, t, d, n); err != nil {
				t.Fatal(err)
			}
		}
		var (
			name  string
			price decimal.Decimal
			none  sql.NullString
			doc   string
		)
		q := d.Rebind("SELECT name, ?, NULL, ? FROM widgets WHERE name = ?")
		if d.Dialect() == db.Postgres {
			q = "SELECT name, $1::numeric, NULL::text, $2::jsonb FROM widgets WHERE name = $3"
		}
		if err := d.QueryRow(ctx, q, []any{"19.90", `{"k":[1,2]}`, "a"}, &name, &price, &none, &doc); err != nil {
			t.Fatal(err)
		}
		if name != "a" || price.String() != "19.9" || none.Valid || doc != `{"k": [1, 2]}` && doc != `{"k":[1,2]}` {
			t.Fatalf("got %q %s %v %q", name, price, none, doc)
		}
		err := d.QueryRow(ctx, d.Rebind("SELECT name FROM widgets WHERE name = ?"), []any{"zz"}, &name)
		if !errors.Is(err, sql.ErrNoRows) {
			t.Fatalf("missing row: %v, want sql.ErrNoRows", err)
		}

		list := func(ctx context.Context) []string {
			var out []string
			if err := d.Query(ctx, "SELECT name FROM widgets ORDER BY name", nil, []any{&name}, func() error {
				out = append(out, name)
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			return out
		}
		if got := list(ctx); !slices.Equal(got, []string{"a", "b", "c"}) {
			t.Fatalf("Query = %v", got)
		}
		var seen int
		err = d.Query(ctx, "SELECT name FROM widgets ORDER BY name", nil, []any{&name}, func() error {
			seen++
			return errBoom
		})
		if !errors.Is(err, errBoom) || seen != 1 {
			t.Fatalf("each's error: %v after %d rows, want boom after 1", err, seen)
		}
		if err := d.Query(ctx, "SELECT nonsense FROM widgets", nil, []any{&name}, func() error { return nil }); err == nil {
			t.Fatal("a bad statement gave no error")
		}

		// In a transaction both see its uncommitted rows.
		if err := d.InTx(ctx, func(ctx context.Context) error {
			if err := insert(ctx, t, d, "d"); err != nil {
				return err
			}
			if got := list(ctx); !slices.Equal(got, []string{"a", "b", "c", "d"}) {
				t.Errorf("Query in the transaction = %v", got)
			}
			if err := d.QueryRow(ctx, d.Rebind("SELECT name FROM widgets WHERE name = ?"), []any{"d"}, &name); err != nil {
				t.Errorf("QueryRow in the transaction: %v", err)
			}
			return errBoom
		}); !errors.Is(err, errBoom) {
			t.Fatal(err)
		}
		if got := list(ctx); len(got) != 3 {
			t.Fatalf("after the rollback: %v", got)
		}
	}, widgets())
}

// openReads opens a fresh PostgreSQL database whose reads run n at a time.
func openReads(t *testing.T, n int) *db.DB {
	t.Helper()
	if !slices.Contains(testdb.Engines(), "postgres") {
		t.Skip("the read gate is PostgreSQL's")
	}
	d, _ := testdb.Connect(t, testdb.MigratedURL(t, "postgres", widgets()), func(c *config.Database) { c.ReadConcurrency = n })
	return d
}

// hold runs a read that stays admitted until release is closed; it returns once the
// read is running.
func hold(t *testing.T, d *db.DB, release <-chan struct{}) {
	t.Helper()
	running := make(chan struct{})
	go func() {
		var n int
		_ = d.Query(context.Background(), "SELECT 1", nil, []any{&n}, func() error {
			close(running)
			<-release
			return nil
		})
	}()
	<-running
}

// At most read_concurrency reads run at once, although the pool has more connections.
func TestReadsRunAtMostReadConcurrencyAtOnce(t *testing.T) {
	d := openReads(t, 2)
	const readers = 8
	var active, peak, finished atomic.Int32
	var wg sync.WaitGroup
	for range readers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var n int
			err := d.Query(context.Background(), "SELECT 1", nil, []any{&n}, func() error {
				now := active.Add(1)
				for p := peak.Load(); now > p && !peak.CompareAndSwap(p, now); p = peak.Load() {
				}
				// Stay admitted until a second read runs too (while another can come),
				// so that a busy machine's scheduling cannot hide a gate that admits
				// one; then a little longer, for a third to show if the gate let it in.
				for deadline := time.Now().Add(2 * time.Second); active.Load() < 2 && readers-finished.Load() > 1 && time.Now().Before(deadline); {
					time.Sleep(time.Millisecond)
				}
				time.Sleep(30 * time.Millisecond)
				active.Add(-1)
				finished.Add(1)
				return nil
			})
			if err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if p := peak.Load(); p != 2 {
		t.Fatalf("%d reads ran at once, want 2", p)
	}
}

// Waiting reads are admitted in the order they came, and one that gives up waiting
// returns its context's error.
func TestReadsAreAdmittedInOrder(t *testing.T) {
	d := openReads(t, 1)
	release := make(chan struct{})
	hold(t, d, release)

	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	var n int
	if err := d.QueryRow(ctx, "SELECT 1", nil, &n); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a read that waits past its deadline: %v", err)
	}

	var (
		mu    sync.Mutex
		order []int
		wg    sync.WaitGroup
	)
	for i := range 5 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var n int
			if err := d.Query(context.Background(), "SELECT $1::int", []any{i}, []any{&n}, func() error {
				mu.Lock() // while admitted
				order = append(order, n)
				mu.Unlock()
				return nil
			}); err != nil {
				t.Error(err)
			}
		}()
		time.Sleep(20 * time.Millisecond) // queued behind the previous one
	}
	close(release)
	wg.Wait()
	if !slices.Equal(order, []int{0, 1, 2, 3, 4}) {
		t.Fatalf("admitted in the order %v, want 0 1 2 3 4", order)
	}
}

// Transactions and writes alone (Exec, ExecQuery) do not wait for reads: a read held
// open does not stop one.
func TestTransactionsAndWritesDoNotWaitForReads(t *testing.T) {
	d := openReads(t, 1)
	release := make(chan struct{})
	defer close(release)
	hold(t, d, release)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := d.InTx(ctx, func(ctx context.Context) error {
		var n int
		return d.QueryRow(ctx, "SELECT 1", nil, &n)
	}); err != nil {
		t.Fatalf("a transaction's read while the read slot is taken: %v", err)
	}
	if n, err := d.Exec(ctx, d.Rebind("INSERT INTO widgets (id, name) VALUES (?, ?)"), ids.New(), "w"); err != nil || n != 1 {
		t.Fatalf("Exec while the read slot is taken: %d rows, %v", n, err)
	}
	var name string
	if err := d.ExecQuery(ctx, "DELETE FROM widgets RETURNING name", nil, []any{&name}, func() error { return nil }); err != nil || name != "w" {
		t.Fatalf("ExecQuery while the read slot is taken: %q, %v", name, err)
	}
}

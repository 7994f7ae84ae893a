package db

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"gorm.io/gorm"
)

// A PostgreSQL transaction sends its statements in as few round trips as it can
// (decision 0240). On this kind of host a round trip costs more than most statements
// (the system calls and context switches of both ends), so:
//
//   - BEGIN is not sent alone: it goes out with the transaction's first statement, and
//     a transaction that ran no statement sends nothing at all;
//   - a write sent with Later(ctx) is queued and goes out with the transaction's next
//     statement, or with its COMMIT, in the same round trip (a pgx pipeline);
//   - Query, QueryRow, Exec and ExecQuery in the transaction take what is queued
//     along; a statement of gorm's that reads rows (database/sql's) sends what is
//     queued first.
//
// The transaction runs on the connection InTx took (a *sql.Conn), which database/sql
// sees as a plain connection: BEGIN, COMMIT and ROLLBACK are ours. A queued statement's
// failure aborts the transaction: the statement that carried it fails (a gorm read:
// PostgreSQL's "current transaction is aborted"), and InTx answers the queued
// statement's own error.

// laterKey marks a context whose writes are queued (Later).
type laterKey struct{}

// Later returns ctx for writes whose answer nobody reads: in a PostgreSQL transaction a
// statement that returns no rows (gorm's Create, Updates and Delete without RETURNING,
// or Exec) sent with it is queued and goes out with the transaction's next statement
// or its COMMIT, in the same round trip. Its rows-affected count is not known when the
// call returns (gorm reports 0, Exec 0), so a caller that checks it must not use Later;
// its error fails the transaction, and InTx answers it. Outside a PostgreSQL
// transaction the statement runs at once, as without Later.
func Later(ctx context.Context) context.Context {
	return context.WithValue(ctx, laterKey{}, true)
}

// ConnLater is Conn(ctx) for writes whose answer nobody reads (Later): gorm's Create,
// Updates and Delete sent through it in a PostgreSQL transaction are queued. Outside
// one it is Conn(ctx).
func (d *DB) ConnLater(ctx context.Context) *gorm.DB {
	tx, ok := ctx.Value(txKey{}).(*gorm.DB)
	if !ok || d.dialect != Postgres {
		return d.Conn(ctx)
	}
	return tx.WithContext(Later(tx.Statement.Context))
}

func later(ctx context.Context) bool {
	v, _ := ctx.Value(laterKey{}).(bool)
	return v
}

// rollbackTimeout bounds a ROLLBACK, which runs also when the transaction's context
// has ended (as database/sql's would not: it closes the connection instead).
const rollbackTimeout = 5 * time.Second

// expectKey carries Expect's check.
type expectKey struct{}

// expectation is the number of rows a write must change, and its failure otherwise.
type expectation struct {
	rows int64
	fail error
}

// Expect returns ctx for a write that must change exactly rows rows (a guarded update):
// Exec sent with it answers fail when it changed another number. With Later in a
// PostgreSQL transaction the check runs when the write goes out with the transaction's
// next statement, which then answers fail, and fail is the transaction's answer (InTx's);
// a COMMIT waits for the check (what is queued goes out first, and COMMIT only if every
// check held).
func Expect(ctx context.Context, rows int64, fail error) context.Context {
	return context.WithValue(ctx, expectKey{}, &expectation{rows: rows, fail: fail})
}

func expected(ctx context.Context) *expectation {
	e, _ := ctx.Value(expectKey{}).(*expectation)
	return e
}

// queued is a statement waiting for the next round trip.
type queued struct {
	sql   string
	args  []any
	check *expectation // Expect's, nil for none
}

// pipeConn is the connection a PostgreSQL transaction begins on (gorm's ConnPool for
// InTx): its BeginTx sends nothing and answers a pipeTx.
type pipeConn struct {
	c *sql.Conn
}

var (
	_ gorm.ConnPool         = (*pipeConn)(nil)
	_ gorm.ConnPoolBeginner = (*pipeConn)(nil)
	_ gorm.ConnPool         = (*pipeTx)(nil)
	_ gorm.TxCommitter      = (*pipeTx)(nil)
)

func (p *pipeConn) PrepareContext(ctx context.Context, query string) (*sql.Stmt, error) {
	return p.c.PrepareContext(ctx, query)
}

func (p *pipeConn) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return p.c.ExecContext(ctx, query, args...)
}

func (p *pipeConn) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	return p.c.QueryContext(ctx, query, args...)
}

func (p *pipeConn) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	return p.c.QueryRowContext(ctx, query, args...)
}

// BeginTx queues BEGIN (with the options' isolation level and access mode).
func (p *pipeConn) BeginTx(ctx context.Context, opts *sql.TxOptions) (gorm.ConnPool, error) {
	begin, err := beginStatement(opts)
	if err != nil {
		return nil, err
	}
	return &pipeTx{c: p.c, ctx: ctx, pending: []queued{{sql: begin}}}, nil
}

// beginStatement is the BEGIN of opts.
func beginStatement(opts *sql.TxOptions) (string, error) {
	if opts == nil {
		return "begin", nil
	}
	s := "begin"
	switch opts.Isolation {
	case sql.LevelDefault:
	case sql.LevelReadCommitted:
		s += " isolation level read committed"
	case sql.LevelRepeatableRead, sql.LevelSnapshot:
		s += " isolation level repeatable read"
	case sql.LevelSerializable:
		s += " isolation level serializable"
	default:
		return "", fmt.Errorf("database: unsupported isolation level %v", opts.Isolation)
	}
	if opts.ReadOnly {
		s += " read only"
	}
	return s, nil
}

// pipeTx is a PostgreSQL transaction on a pipeConn's connection.
type pipeTx struct {
	c   *sql.Conn
	ctx context.Context // BeginTx's: COMMIT and ROLLBACK run with it, as database/sql's

	mu      sync.Mutex
	pending []queued // BEGIN until it is sent, then queued writes
	begun   bool     // BEGIN was sent: the transaction needs its COMMIT or ROLLBACK
	done    bool
	err     error        // the first failure of a statement sent from pending
	trips   atomic.Int64 // round trips so far (tests)
}

// errBusy answers a statement sent while the transaction's connection is reading the
// rows of another (a Query's each that runs a statement): pgx refuses it too, and
// waiting for the lock would wait for itself.
var errBusy = errors.New("database: a statement was sent while the transaction was reading rows")

// lock takes the transaction for one statement (unlock with p.mu.Unlock).
func (p *pipeTx) lock() error {
	if !p.mu.TryLock() {
		return errBusy
	}
	return nil
}

// errQueued wraps the failure of a queued statement.
type errQueued struct {
	sql string
	err error
}

func (e *errQueued) Error() string { return e.err.Error() }
func (e *errQueued) Unwrap() error { return e.err }

// failed is the first failure of a statement queued with Later in the transaction tx
// (nil when there was none): it, not what the transaction's later statements answered,
// is why the transaction failed.
func failed(tx *gorm.DB) error {
	if p, ok := tx.Statement.ConnPool.(*pipeTx); ok {
		p.mu.Lock()
		defer p.mu.Unlock()
		return p.err
	}
	return nil
}

// send sends what is queued and, when q is set, q after it, in one round trip; each
// then reads q's result. A failure of a queued statement is recorded (err) and
// answered.
func (p *pipeTx) send(ctx context.Context, q *queued, each func(br pgx.BatchResults) error) error {
	if p.done {
		return sql.ErrTxDone
	}
	if p.err != nil {
		return p.err
	}
	if len(p.pending) == 0 && q == nil {
		return nil
	}
	b := &pgx.Batch{QueuedQueries: make([]*pgx.QueuedQuery, 0, len(p.pending)+1)}
	for _, s := range p.pending {
		b.Queue(s.sql, s.args...)
	}
	if q != nil {
		b.Queue(q.sql, q.args...)
	}
	sent := p.pending
	p.pending = nil
	return onPgx(p.c, func(c *pgx.Conn) error {
		p.begun = true // BEGIN (when queued) went out first
		p.trips.Add(1)
		br := c.SendBatch(ctx, b)
		for _, s := range sent {
			tag, err := br.Exec()
			if err != nil {
				_ = br.Close()
				p.err = &errQueued{sql: s.sql, err: err}
				return p.err
			}
			if s.check != nil && tag.RowsAffected() != s.check.rows {
				// The statements after it ran; the transaction rolls back.
				_ = br.Close()
				p.err = s.check.fail
				return p.err
			}
		}
		var err error
		if each != nil {
			err = each(br)
		}
		if cerr := br.Close(); err == nil {
			err = cerr
		}
		return err
	})
}

// flush sends what is queued (before a statement of database/sql's).
func (p *pipeTx) flush(ctx context.Context) error {
	if err := p.lock(); err != nil {
		return err
	}
	defer p.mu.Unlock()
	return p.send(ctx, nil, nil)
}

// query runs a statement that returns rows after what is queued, in one round trip:
// fn reads its rows (raw.go's Query and QueryRow in a transaction).
func (p *pipeTx) query(ctx context.Context, query string, args []any, fn func(pgx.Rows) error) error {
	if err := p.lock(); err != nil {
		return err
	}
	defer p.mu.Unlock()
	return p.send(ctx, &queued{sql: query, args: args}, func(br pgx.BatchResults) error {
		rows, err := br.Query()
		if err != nil {
			return err
		}
		defer rows.Close()
		if err := fn(rows); err != nil {
			return err
		}
		rows.Close()
		return rows.Err()
	})
}

// exec runs a statement that returns no rows after what is queued, or queues it with
// Later.
func (p *pipeTx) exec(ctx context.Context, query string, args []any) (int64, error) {
	if err := p.lock(); err != nil {
		return 0, err
	}
	defer p.mu.Unlock()
	if later(ctx) {
		if p.done {
			return 0, sql.ErrTxDone
		}
		if p.err != nil {
			return 0, p.err
		}
		p.pending = append(p.pending, queued{sql: query, args: args, check: expected(ctx)})
		return 0, nil
	}
	var n int64
	err := p.send(ctx, &queued{sql: query, args: args}, func(br pgx.BatchResults) error {
		tag, err := br.Exec()
		n = tag.RowsAffected()
		return err
	})
	return checked(ctx, n, err)
}

func (p *pipeTx) PrepareContext(ctx context.Context, query string) (*sql.Stmt, error) {
	if err := p.flush(ctx); err != nil {
		return nil, err
	}
	p.count()
	return p.c.PrepareContext(ctx, query)
}

func (p *pipeTx) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	n, err := p.exec(ctx, query, args)
	if err != nil {
		return nil, err
	}
	return driver.RowsAffected(n), nil
}

func (p *pipeTx) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if err := p.flush(ctx); err != nil {
		return nil, err
	}
	p.count()
	return p.c.QueryContext(ctx, query, args...)
}

// count counts a round trip of database/sql's.
func (p *pipeTx) count() { p.trips.Add(1) }

// QueryRowContext sends what is queued first; should that fail, the row's error is
// PostgreSQL's for the aborted transaction (InTx answers the queued statement's).
func (p *pipeTx) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	_ = p.flush(ctx)
	p.count()
	return p.c.QueryRowContext(ctx, query, args...)
}

// Commit sends what is queued with COMMIT. A transaction that sent nothing commits
// nothing; one whose queued statement failed rolls back and answers that failure.
func (p *pipeTx) Commit() error {
	if err := p.lock(); err != nil {
		return err
	}
	defer p.mu.Unlock()
	if p.done {
		return sql.ErrTxDone
	}
	if p.err != nil {
		return p.end()
	}
	if !p.begun && len(p.pending) == 1 { // BEGIN alone: nothing ran
		p.pending, p.done = nil, true
		return nil
	}
	if slices.ContainsFunc(p.pending, func(q queued) bool { return q.check != nil }) {
		// A check must hold before COMMIT goes out.
		if err := p.send(p.ctx, nil, nil); err != nil {
			return p.abort(err)
		}
	}
	err := p.send(p.ctx, &queued{sql: "commit"}, func(br pgx.BatchResults) error {
		tag, err := br.Exec()
		if err == nil && tag.String() == "ROLLBACK" {
			err = pgx.ErrTxCommitRollback
		}
		return err
	})
	if err != nil {
		return p.abort(err)
	}
	p.done = true
	return nil
}

// abort ends a transaction whose COMMIT could not go out (or failed), answering why.
func (p *pipeTx) abort(err error) error {
	if rerr := p.end(); rerr != nil && !errors.Is(rerr, err) {
		return errors.Join(err, rerr)
	}
	return err
}

// Rollback drops what is queued and rolls back what was sent.
func (p *pipeTx) Rollback() error {
	if err := p.lock(); err != nil {
		return err
	}
	defer p.mu.Unlock()
	if p.done {
		return sql.ErrTxDone
	}
	if err := p.end(); err != nil && !errors.Is(err, p.err) {
		return err
	}
	return nil
}

// end rolls back a transaction that sent BEGIN (its failure closes the connection:
// it may still be in the transaction) and answers the queued statement's failure.
func (p *pipeTx) end() error {
	p.pending, p.done = nil, true
	if !p.begun {
		return p.err
	}
	err := onPgx(p.c, func(c *pgx.Conn) error {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(p.ctx), rollbackTimeout)
		defer cancel()
		p.trips.Add(1)
		if _, err := c.Exec(ctx, "rollback"); err != nil {
			_ = c.Close(ctx) // database/sql drops a closed connection
			return err
		}
		return nil
	})
	if p.err != nil {
		return p.err
	}
	return err
}

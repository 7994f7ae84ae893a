package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"gorm.io/gorm"
)

// querier is where ctx's statements run without gorm: the transaction ctx carries
// (*sql.Tx), or the pool (*sql.DB). Callers outside this file go through QueryRow,
// Query, Exec and ExecQuery, which bound the wait for a pooled connection.
func (d *DB) querier(ctx context.Context) gorm.ConnPool {
	if InTransaction(ctx) {
		return d.Conn(ctx).Statement.ConnPool
	}
	d.owners.check(ctx)
	return d.g.Statement.ConnPool
}

// Rebind rewrites the ? parameters of query as $1, $2 ... on PostgreSQL (SQLite takes ?
// as written). The query must have no ? inside literals or identifiers.
func (d *DB) Rebind(query string) string {
	if d.dialect != Postgres {
		return query
	}
	i := strings.IndexByte(query, '?')
	if i < 0 {
		return query
	}
	b := make([]byte, 0, len(query)+2*strings.Count(query[i:], "?"))
	for n := 1; i >= 0; n++ {
		b = append(b, query[:i]...)
		b = append(b, '$')
		b = strconv.AppendInt(b, int64(n), 10)
		query = query[i+1:]
		i = strings.IndexByte(query, '?')
	}
	return string(append(b, query...))
}

// Params is n comma-separated ? parameters: an IN list for Query, QueryRow and Exec
// (Rebind turns them into $1, $2 ... on PostgreSQL).
func Params(n int) string {
	return strings.TrimSuffix(strings.Repeat("?, ", n), ", ")
}

// QueryRow runs query, which returns at most one row, and scans that row into dest;
// it returns sql.ErrNoRows when there is none. query uses the dialect's bind parameters
// (Rebind); dest takes what database/sql's Scan takes.
//
// In a transaction it is the transaction's QueryRowContext; on SQLite, that of a
// connection taken within the acquire timeout. On PostgreSQL
// outside a transaction the read waits its turn (admit) and runs through pgx on a pooled
// connection (database/sql's Conn.Raw), which skips database/sql's rows, its goroutine
// per query watching ctx and its value conversions: half the allocations of
// QueryRowContext (docs/performance.md, finding 11).
func (d *DB) QueryRow(ctx context.Context, query string, args []any, dest ...any) error {
	if p := d.pipe(ctx); p != nil {
		return p.query(ctx, query, args, func(rows pgx.Rows) error {
			if !rows.Next() {
				if err := rows.Err(); err != nil {
					return err
				}
				return sql.ErrNoRows
			}
			return rows.Scan(dest...)
		})
	}
	pool, ok := d.direct(ctx)
	if !ok {
		q, release, err := d.conn(ctx)
		if err != nil {
			return err
		}
		defer release()
		return q.QueryRowContext(ctx, query, args...).Scan(dest...)
	}
	return d.withPgx(ctx, pool, true, func(c *pgx.Conn) error {
		err := c.QueryRow(ctx, query, args...).Scan(dest...)
		if errors.Is(err, pgx.ErrNoRows) {
			return sql.ErrNoRows
		}
		return err
	})
}

// Query runs query and, for each row, scans it into dest and calls each; an error from
// each stops the loop and is returned. each must not run statements itself (on
// PostgreSQL the read holds its turn and its connection until the rows are read). The
// paths are QueryRow's.
func (d *DB) Query(ctx context.Context, query string, args []any, dest []any, each func() error) error {
	return d.query(ctx, true, query, args, dest, each)
}

// query is Query; admit says whether a statement outside a transaction on PostgreSQL
// waits for a read's turn.
func (d *DB) query(ctx context.Context, admit bool, query string, args []any, dest []any, each func() error) error {
	if p := d.pipe(ctx); p != nil {
		return p.query(ctx, query, args, func(rows pgx.Rows) error { return scanEach(rows, dest, each) })
	}
	pool, ok := d.direct(ctx)
	if !ok {
		return d.queryConn(ctx, query, args, dest, each)
	}
	return d.withPgx(ctx, pool, admit, func(c *pgx.Conn) error {
		rows, err := c.Query(ctx, query, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		return scanEach(rows, dest, each)
	})
}

// Exec runs a statement that returns no rows (INSERT, UPDATE, DELETE) and answers how
// many rows it changed. query uses the dialect's bind parameters (Rebind). It runs in
// ctx's transaction, or alone (through pgx on PostgreSQL, database/sql on SQLite) on a
// connection taken within the acquire timeout (ErrBusy), without waiting for a read's
// turn. Alone, it is committed when it returns, so a writer of outbox rows calls
// Committed itself. Its errors are the driver's, which IsDuplicate does not read.
// With Later(ctx) in a PostgreSQL transaction it is queued and answers 0; with
// Expect(ctx, ...) it answers Expect's failure when it changed another number of rows,
// or, queued, fails its transaction (pipe.go).
func (d *DB) Exec(ctx context.Context, query string, args ...any) (int64, error) {
	if p := d.pipe(ctx); p != nil {
		return p.exec(ctx, query, args)
	}
	pool, ok := d.direct(ctx)
	if !ok {
		q, release, err := d.conn(ctx)
		if err != nil {
			return 0, err
		}
		defer release()
		res, err := q.ExecContext(ctx, query, args...)
		if err != nil {
			return 0, err
		}
		n, err := res.RowsAffected()
		return checked(ctx, n, err)
	}
	var n int64
	err := d.withPgx(ctx, pool, false, func(c *pgx.Conn) error {
		tag, err := c.Exec(ctx, query, args...)
		n = tag.RowsAffected()
		return err
	})
	return checked(ctx, n, err)
}

// checked answers Expect's failure for a write that changed another number of rows.
func checked(ctx context.Context, n int64, err error) (int64, error) {
	if e := expected(ctx); err == nil && e != nil && n != e.rows {
		return n, e.fail
	}
	return n, err
}

// ExecQuery runs a statement that writes and returns rows (RETURNING) as Query does,
// but a write does not wait for a read's turn (decision 0091). It runs in ctx's
// transaction, or alone through pgx on PostgreSQL (on SQLite database/sql), on a
// connection taken within the acquire timeout.
func (d *DB) ExecQuery(ctx context.Context, query string, args []any, dest []any, each func() error) error {
	return d.query(ctx, false, query, args, dest, each)
}

// queryConn runs query through database/sql on conn's connection.
func (d *DB) queryConn(ctx context.Context, query string, args []any, dest []any, each func() error) error {
	q, release, err := d.conn(ctx)
	if err != nil {
		return err
	}
	defer release()
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer func() { _ = rows.Close() }()
	if err := scanEach(rows, dest, each); err != nil {
		return err
	}
	return rows.Err()
}

// rows is what database/sql's and pgx's result sets share.
type rows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
}

func scanEach(r rows, dest []any, each func() error) error {
	for r.Next() {
		if err := r.Scan(dest...); err != nil {
			return err
		}
		if err := each(); err != nil {
			return err
		}
	}
	return r.Err()
}

// pipe is the PostgreSQL transaction ctx carries (pipe.go), nil when there is none.
func (d *DB) pipe(ctx context.Context) *pipeTx {
	tx, ok := ctx.Value(txKey{}).(*gorm.DB)
	if !ok {
		return nil
	}
	p, _ := tx.Statement.ConnPool.(*pipeTx)
	return p
}

// direct returns the pool a statement in ctx runs on through pgx: PostgreSQL outside a
// transaction. Otherwise it goes through conn.
func (d *DB) direct(ctx context.Context) (*sql.DB, bool) {
	if d.dialect != Postgres || d.pool == nil || InTransaction(ctx) {
		return nil, false
	}
	d.owners.check(ctx)
	return d.pool, true
}

// conn is where a statement that does not go through pgx runs: ctx's transaction, or a
// connection taken from the pool within the acquire timeout, which release returns.
func (d *DB) conn(ctx context.Context) (gorm.ConnPool, func(), error) {
	if InTransaction(ctx) || d.pool == nil {
		return d.querier(ctx), func() {}, nil
	}
	d.owners.check(ctx)
	c, release, err := d.take(ctx)
	if err != nil {
		return nil, nil, err
	}
	return c, release, nil
}

// withPgx runs fn on a pooled connection's pgx.Conn, once the read is admitted when
// admit is set.
//
// Reads are admitted in order, at most database.read_concurrency at once. A read holds
// its connection only while PostgreSQL runs it, so a few more than the database has
// cores keep it busy; beyond that they only interleave (context switches). Waiting here
// instead of for a connection matters for the tail: database/sql hands a freed
// connection to a random waiter, the gate to the work that arrived first (decisions
// 0091, 0237). A write alone (admit false) waits at the transactions' gate.
func (d *DB) withPgx(ctx context.Context, pool *sql.DB, admit bool, fn func(*pgx.Conn) error) error {
	actx, cancel := d.acquireCtx(ctx)
	defer cancel()
	g := d.turns // a write alone takes its turn with the transactions
	if admit {
		g = d.reads
	}
	if err := g.enter(actx); err != nil {
		return busy(ctx, err)
	}
	defer g.leave()
	conn, err := pool.Conn(actx)
	if err != nil {
		return busy(ctx, err)
	}
	defer func() { _ = conn.Close() }()
	return onPgx(conn, fn)
}

// onPgx runs fn on the pgx.Conn under c (database/sql's Conn.Raw).
func onPgx(c *sql.Conn, fn func(*pgx.Conn) error) error {
	return c.Raw(func(driverConn any) error {
		pc, ok := driverConn.(interface{ Conn() *pgx.Conn })
		if !ok {
			return fmt.Errorf("database: the driver's connection %T is not pgx's", driverConn)
		}
		return fn(pc.Conn())
	})
}

// Package db opens the store (PostgreSQL in production through the pgx driver, pure-Go
// SQLite embedded), carries the transaction in the context (InTx; Conn gives gorm on
// it), runs plain SQL on hot paths (raw.go: QueryRow and Query, through pgx directly on
// PostgreSQL outside a transaction, admitted in order, decision 0091; Exec and
// ExecQuery for writes), and runs the embedded migrations of every module.
package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/glebarez/sqlite"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"go.uber.org/zap"
	"gorm.io/driver/postgres"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"

	"github.com/gocommerce/commerce/platform/config"
)

// Dialect names the SQL engine.
type Dialect string

const (
	Postgres Dialect = "postgres"
	SQLite   Dialect = "sqlite"
)

// DB is the database handle every repository uses through Conn(ctx).
type DB struct {
	g       *gorm.DB
	dialect Dialect
	mu      sync.RWMutex
	commit  []func()
	// reads admits QueryRow and Query outside transactions on PostgreSQL in the order
	// their work arrived (raw.go); nil admits everything (SQLite, Wrap).
	reads *gate
	// turns admits transactions and writes alone (take, withPgx) in the order their
	// work arrived, at most txTurns() at once; nil admits everything (SQLite, Wrap).
	turns *gate
	// pool is the connection pool transactions take their connection from (nil when
	// gorm's pool is not database/sql's); acquire bounds that wait.
	pool    *sql.DB
	acquire time.Duration
	owners  owners
}

type txKey struct{}

// afterKey carries the outermost transaction's state (txState).
type afterKey struct{}

// txState is what one outermost transaction collects: the functions AfterCommit and
// BeforeCommit register, and the values of TxValue.
type txState struct {
	mu     sync.Mutex
	fns    []func()
	before []func(ctx context.Context) error
	values map[any]any
}

// Open connects to the database named by cfg.
func Open(cfg *config.Config, log *zap.Logger) (*DB, func(), error) {
	gcfg := &gorm.Config{
		TranslateError:         true,
		SkipDefaultTransaction: true,
		// pgx caches prepared statements per connection itself; gorm's PrepareStmt
		// re-prepared every statement inside each transaction (docs/performance.md).
		PrepareStmt: false,
		Logger:      logger.Discard,
		NowFunc:     func() time.Time { return time.Now().UTC().Truncate(time.Microsecond) },
	}
	var (
		g       *gorm.DB
		err     error
		dialect Dialect
	)
	if cfg.Postgres() {
		dialect = Postgres
		g, err = gorm.Open(postgres.New(postgres.Config{DSN: cfg.Database.URL, OptionOpenDB: []stdlib.OptionOpenDB{
			stdlib.OptionAfterConnect(func(_ context.Context, c *pgx.Conn) error {
				registerDecimal(c.TypeMap())
				return nil
			}),
		}}), gcfg)
	} else {
		dialect = SQLite
		path := cfg.SQLitePath()
		if dir := filepath.Dir(path); dir != "" {
			if mkErr := os.MkdirAll(dir, 0o750); mkErr != nil {
				return nil, nil, fmt.Errorf("database: create %s: %w", dir, mkErr)
			}
		}
		dsn := path + "?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=foreign_keys(1)&_pragma=synchronous(NORMAL)&_txlock=immediate"
		g, err = gorm.Open(sqlite.Open(dsn), gcfg)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("database: open: %w", err)
	}
	sqlDB, err := g.DB()
	if err != nil {
		return nil, nil, fmt.Errorf("database: %w", err)
	}
	if dialect == SQLite {
		// One writer connection: SQLite serialises writes anyway, and gorm's SQLite
		// dialect drops row locks, so invariants rely on conditional updates.
		sqlDB.SetMaxOpenConns(1)
	} else {
		open, idle := cfg.Database.PoolSize()
		sqlDB.SetMaxOpenConns(open)
		sqlDB.SetMaxIdleConns(idle)
		sqlDB.SetConnMaxLifetime(cfg.Database.ConnMaxLifetime)
	}
	d := &DB{g: g, dialect: dialect, pool: sqlDB, acquire: cfg.Database.AcquireTimeout}
	if d.acquire <= 0 {
		d.acquire = defaultAcquire
	}
	if dialect == Postgres {
		d.reads = newGate(cfg.Database.Reads())
		d.turns = newGate(txTurns(cfg.Database))
	}
	log.Named("db").Debug("database opened", zap.String("dialect", string(dialect)))
	return d, func() { _ = sqlDB.Close() }, nil
}

// txTurns is how many transactions and lone writes hold a connection at once: the pool
// less the reads' share when that leaves them more than half of it (8 of 12 on two
// cores), so that a transaction waits for its turn and seldom again for database/sql's
// random hand-off; else the whole pool, as before, and the gate only orders the waits
// (a small pool, or one an operator gives mostly to reads). Decision 0237.
func txTurns(c config.Database) int {
	open, _ := c.PoolSize()
	if rest := open - c.Reads(); rest > open/2 {
		return rest
	}
	return max(open, 1)
}

// Wrap builds a DB around an existing gorm handle (tests).
func Wrap(g *gorm.DB, dialect Dialect) *DB {
	pool, _ := g.Statement.ConnPool.(*sql.DB)
	return &DB{g: g, dialect: dialect, pool: pool, acquire: defaultAcquire}
}

// Dialect reports the engine.
func (d *DB) Dialect() Dialect { return d.dialect }

// Gorm returns the root handle (no transaction); prefer Conn(ctx).
func (d *DB) Gorm() *gorm.DB { return d.g }

// Conn returns the transaction carried by ctx, or the root handle bound to ctx.
func (d *DB) Conn(ctx context.Context) *gorm.DB {
	if tx, ok := ctx.Value(txKey{}).(*gorm.DB); ok {
		return tx
	}
	d.owners.check(ctx)
	return d.g.WithContext(ctx)
}

// InTx runs fn in a transaction; nested calls join the outer one. After the outermost
// transaction commits, its after-commit functions run (AfterCommit).
//
// fn must run every statement with the context it is given: one sent with another
// context (the caller's) waits for a second connection while the transaction holds
// one. The strict mode of tests panics on it (ErrOutsideTx). The wait for the
// transaction's connection is bounded by database.acquire_timeout (ErrBusy).
func (d *DB) InTx(ctx context.Context, fn func(ctx context.Context) error) error {
	if _, ok := ctx.Value(txKey{}).(*gorm.DB); ok {
		return fn(ctx)
	}
	d.owners.check(ctx) // a second transaction beside the one this goroutine holds
	g, release, err := d.session(ctx)
	if err != nil {
		return err
	}
	after := &txState{}
	err = d.transaction(g, release, func(tx *gorm.DB) error {
		defer d.owners.enter()()
		ctx := context.WithValue(context.WithValue(ctx, txKey{}, tx), afterKey{}, after)
		if err := fn(ctx); err != nil {
			return err
		}
		// Before-commit functions may register more (each runs once, in order).
		for i := 0; ; i++ {
			after.mu.Lock()
			if i == len(after.before) {
				after.mu.Unlock()
				return nil
			}
			f := after.before[i]
			after.mu.Unlock()
			if err := f(ctx); err != nil {
				return err
			}
		}
	})
	if err == nil {
		after.mu.Lock()
		fns := after.fns
		after.mu.Unlock()
		for _, f := range fns {
			f()
		}
	}
	return err
}

// transaction runs fn in a transaction begun on g and gives the connection back
// (release) once it has ended, also when fn panics: the after-commit functions that
// follow may need it (SQLite has one).
func (d *DB) transaction(g *gorm.DB, release func(), fn func(tx *gorm.DB) error) error {
	defer release()
	var in *gorm.DB
	err := g.Transaction(func(tx *gorm.DB) error {
		in = tx
		return fn(tx)
	})
	if err != nil && in != nil {
		// A statement queued with Later failed: the statements after it only
		// answered that the transaction was aborted (pipe.go).
		if qerr := failed(in); qerr != nil {
			return qerr
		}
	}
	return err
}

// session is the handle a transaction begins on: gorm bound to ctx, on a connection
// taken from the pool within the acquire timeout (release returns it).
func (d *DB) session(ctx context.Context) (*gorm.DB, func(), error) {
	g := d.g.WithContext(ctx)
	if d.pool == nil {
		return g, func() {}, nil
	}
	conn, release, err := d.take(ctx)
	if err != nil {
		return nil, nil, err
	}
	g.Statement.ConnPool = conn
	if d.dialect == Postgres {
		// BEGIN with the first statement, queued writes with the next (pipe.go).
		g.Statement.ConnPool = &pipeConn{c: conn}
	}
	return g, release, nil
}

// BeforeCommit runs fn in the outermost transaction carried by ctx once its work is
// done, just before it commits: fn's error rolls the transaction back and is InTx's
// answer. It answers false, and does not keep fn, when ctx carries no transaction.
// Writers use it to send what they collected during the transaction in one statement.
func (d *DB) BeforeCommit(ctx context.Context, fn func(ctx context.Context) error) bool {
	st, ok := ctx.Value(afterKey{}).(*txState)
	if !ok {
		return false
	}
	st.mu.Lock()
	st.before = append(st.before, fn)
	st.mu.Unlock()
	return true
}

// TxValue returns the value stored under key in the outermost transaction carried by
// ctx, storing make()'s first (created reports that); ok is false when ctx carries no
// transaction. key must be comparable, and private to its package.
func TxValue(ctx context.Context, key any, make func() any) (v any, created, ok bool) {
	st, ok := ctx.Value(afterKey{}).(*txState)
	if !ok {
		return nil, false, false
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if v, found := st.values[key]; found {
		return v, false, true
	}
	if st.values == nil {
		st.values = map[any]any{}
	}
	v = make()
	st.values[key] = v
	return v, true, true
}

// AfterCommit runs fn after the outermost transaction carried by ctx commits (it is
// dropped if the transaction rolls back), or at once when ctx carries none.
func (d *DB) AfterCommit(ctx context.Context, fn func()) {
	after, ok := ctx.Value(afterKey{}).(*txState)
	if !ok {
		fn()
		return
	}
	after.mu.Lock()
	after.fns = append(after.fns, fn)
	after.mu.Unlock()
}

// Committed runs the commit hooks. The writer of something the hooks wait for calls it
// once that is committed: the outbox, after storing pending events, through
// AfterCommit (at once when autocommitted). A transaction that stored nothing of the
// kind (the relay's own claim, most of all) wakes nobody.
func (d *DB) Committed() {
	d.mu.RLock()
	hooks := d.commit
	d.mu.RUnlock()
	for _, h := range hooks {
		h()
	}
}

// InTransaction reports whether ctx carries a transaction.
func InTransaction(ctx context.Context) bool {
	_, ok := ctx.Value(txKey{}).(*gorm.DB)
	return ok
}

// OnCommit registers a hook Committed runs (the relay's wake-up).
// Hooks must be quick and must not block (e.g. a non-blocking channel send).
func (d *DB) OnCommit(h func()) {
	d.mu.Lock()
	d.commit = append(d.commit, h)
	d.mu.Unlock()
}

// Ping checks the connection.
func (d *DB) Ping(ctx context.Context) error {
	sqlDB, err := d.g.DB()
	if err != nil {
		return err
	}
	return sqlDB.PingContext(ctx)
}

// IsDuplicate reports a unique-constraint violation (TranslateError is on).
func IsDuplicate(err error) bool { return errors.Is(err, gorm.ErrDuplicatedKey) }

// IsNotFound reports gorm's record-not-found.
func IsNotFound(err error) bool { return errors.Is(err, gorm.ErrRecordNotFound) }

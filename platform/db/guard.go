package db

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/gocommerce/commerce/platform/apperr"
)

// ErrBusy answers a request that waited database.acquire_timeout for a pooled
// connection: 503, and the HTTP layer adds Retry-After (docs/decisions/0103).
var ErrBusy = apperr.New(apperr.Unavailable, "", "The store is busy; retry shortly")

// ErrOutsideTx is the strict mode's panic for a statement sent outside the transaction
// the same goroutine holds open (docs/decisions/0103).
var ErrOutsideTx = errors.New("database: a statement ran outside the transaction this goroutine holds open " +
	"(use the context InTx gives the function, not the caller's)")

// strict is on in test binaries (and with COMMERCE_DB_STRICT=1): every statement of a
// goroutine that holds a transaction open must run in it.
var strict = testing.Testing() || os.Getenv("COMMERCE_DB_STRICT") == "1"

// owners records the goroutines holding one of a DB's transactions open (strict mode).
// A statement such a goroutine sends with a context that does not carry the
// transaction asks the pool for a second connection while holding one: on SQLite
// (one connection) it waits forever, on PostgreSQL it waits for a connection the lock
// waiters hold. The strict mode panics instead, so tests show the line.
type owners struct {
	mu sync.Mutex
	m  map[uint64]int
}

func (o *owners) enter() (leave func()) {
	if !strict {
		return func() {}
	}
	id := goid()
	o.mu.Lock()
	if o.m == nil {
		o.m = map[uint64]int{}
	}
	o.m[id]++
	o.mu.Unlock()
	return func() {
		o.mu.Lock()
		if o.m[id]--; o.m[id] <= 0 {
			delete(o.m, id)
		}
		o.mu.Unlock()
	}
}

// check panics when the calling goroutine holds a transaction open and ctx does not
// carry one (strict mode only).
func (o *owners) check(ctx context.Context) {
	if !strict || InTransaction(ctx) {
		return
	}
	id := goid()
	o.mu.Lock()
	n := o.m[id]
	o.mu.Unlock()
	if n > 0 {
		panic(ErrOutsideTx)
	}
}

// goid is the calling goroutine's id, read from its stack header ("goroutine 7 [").
func goid() uint64 {
	var buf [64]byte
	b := buf[:runtime.Stack(buf[:], false)]
	b = bytes.TrimPrefix(b, []byte("goroutine "))
	if i := bytes.IndexByte(b, ' '); i > 0 {
		b = b[:i]
	}
	id, err := strconv.ParseUint(string(b), 10, 64)
	if err != nil {
		panic(fmt.Sprintf("database: goroutine id: %v", err))
	}
	return id
}

// acquireCtx is the context a wait for a pooled connection runs under: ctx, ended at
// the latest after the acquire timeout.
func (d *DB) acquireCtx(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, d.acquire)
}

// take takes a connection from the pool within the acquire timeout (ErrBusy past it),
// after its turn at the transactions' gate (turns) when there is one; release gives
// both back.
func (d *DB) take(ctx context.Context) (c *sql.Conn, release func(), err error) {
	actx, cancel := d.acquireCtx(ctx)
	defer cancel()
	if err := d.turns.enter(actx); err != nil {
		return nil, nil, busy(ctx, err)
	}
	c, err = d.pool.Conn(actx)
	if err != nil {
		d.turns.leave()
		return nil, nil, busy(ctx, err)
	}
	return c, func() {
		_ = c.Close()
		d.turns.leave()
	}, nil
}

// busy turns the error of a wait for a connection into ErrBusy when the acquire
// timeout, not ctx, ended it.
func busy(ctx context.Context, err error) error {
	if err != nil && ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded) {
		return ErrBusy.WithCause(err)
	}
	return err
}

// defaultAcquire is the acquire timeout of a DB built by Wrap.
const defaultAcquire = 5 * time.Second

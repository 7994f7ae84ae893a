// Package clock gives the domain a replaceable notion of now.
package clock

import (
	"sync"
	"time"
)

// Clock returns the current time in UTC.
type Clock interface{ Now() time.Time }

// System is the real clock.
type System struct{}

// Now returns time.Now in UTC, truncated to microseconds (what Postgres keeps).
func (System) Now() time.Time { return time.Now().UTC().Truncate(time.Microsecond) }

// New returns the system clock.
func New() Clock { return System{} }

// Fake is a settable clock for tests.
type Fake struct {
	mu sync.Mutex
	t  time.Time
}

// NewFake returns a fake clock at t.
func NewFake(t time.Time) *Fake { return &Fake{t: t.UTC()} }

// Now returns the fake time.
func (f *Fake) Now() time.Time { f.mu.Lock(); defer f.mu.Unlock(); return f.t }

// Advance moves the fake time forward.
func (f *Fake) Advance(d time.Duration) { f.mu.Lock(); f.t = f.t.Add(d); f.mu.Unlock() }

// UTCPtr returns *t in UTC, or nil for nil (an optional time on its way to the wire).
func UTCPtr(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

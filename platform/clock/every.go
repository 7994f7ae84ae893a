package clock

import (
	"context"
	"time"
)

// Every calls f every period, the first time one period from now, until ctx ends; it
// returns when ctx ends. A call that outlasts the period delays the next one (ticks
// are not queued). The periodic loops of the process (re-checks, polls, lease
// renewals, registrations) run on it.
func Every(ctx context.Context, period time.Duration, f func(ctx context.Context)) {
	t := time.NewTicker(period)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			f(ctx)
		}
	}
}

package modkit_test

import (
	"context"
	"errors"
	"testing"

	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"

	"github.com/gocommerce/commerce/platform/event"
	"github.com/gocommerce/commerce/platform/events"
	"github.com/gocommerce/commerce/platform/modkit"
)

type widget struct{ ID string }

var errFinal = errors.New("no retry fixes this")

// The listener hands a good payload to the use case, drops (logs, answers nil) a bad
// one and a final error, and answers any other error so the relay retries.
func TestListener(t *testing.T) {
	for _, c := range []struct {
		name, data string
		runErr     error
		want       error
		ran        bool
		dropped    int
	}{
		{name: "handled", data: `{"ID":"w-1"}`, ran: true},
		{name: "not json", data: `x`, dropped: 1},
		{name: "refused", data: `{"ID":""}`, dropped: 1},
		{name: "retried", data: `{"ID":"w-1"}`, runErr: context.DeadlineExceeded, want: context.DeadlineExceeded, ran: true},
		{name: "final", data: `{"ID":"w-1"}`, runErr: errFinal, ran: true, dropped: 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			core, logs := observer.New(zap.InfoLevel)
			ran := false
			l := &modkit.Listener[widget]{
				Reactor: modkit.NewReactor(func(_ context.Context, w widget) error { ran = w.ID == "w-1"; return c.runErr }, zap.New(core), "widgets.events"),
				Type:    "widget.created", Dropped: "widget.created dropped", Valid: func(w widget) bool { return w.ID != "" },
				Final: func(err error) bool { return errors.Is(err, errFinal) },
			}
			bus := events.NewBus()
			l.Subscribe(bus)
			err := bus.Dispatch(t.Context(), event.Event{ID: "e-1", Type: "widget.created", Data: []byte(c.data)})
			if !errors.Is(err, c.want) || (c.want == nil && err != nil) || ran != c.ran {
				t.Errorf("err %v (want %v), ran %v", err, c.want, ran)
			}
			if got := logs.FilterMessage("widget.created dropped").FilterLoggerName("widgets.events").Len(); got != c.dropped {
				t.Errorf("%d drops logged, want %d", got, c.dropped)
			}
		})
	}
	var none *modkit.Listener[widget] // a module built without its subscriber
	_ = none.Subscribe
}

// A sweep logs the rows a run changed (none: nothing) and answers the run's error, so
// the task is retried.
func TestSweepHandle(t *testing.T) {
	core, logs := observer.New(zap.InfoLevel)
	n, runErr := int64(0), error(nil)
	s := modkit.Sweep{Task: "widgets:expire", Run: func(context.Context) (int64, error) { return n, runErr },
		Log: zap.New(core), Done: "widgets expired"}
	if err := s.Handle(t.Context(), nil); err != nil || logs.Len() != 0 {
		t.Errorf("nothing due: %v, %d logs", err, logs.Len())
	}
	n = 3
	if err := s.Handle(t.Context(), nil); err != nil || logs.FilterMessage("widgets expired").FilterField(zap.Int64("count", 3)).Len() != 1 {
		t.Errorf("3 rows: %v, logs %v", err, logs.All())
	}
	n, runErr = 0, context.DeadlineExceeded
	if err := s.Handle(t.Context(), nil); !errors.Is(err, runErr) {
		t.Errorf("run error answered as %v", err)
	}
}

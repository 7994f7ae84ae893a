package modkit_test

import (
	"context"
	"testing"
	"testing/fstest"
	"time"

	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/event"
	"github.com/gocommerce/commerce/platform/events"
	"github.com/gocommerce/commerce/platform/httpx"
	"github.com/gocommerce/commerce/platform/jobs"
	"github.com/gocommerce/commerce/platform/modkit"
)

type routes struct{ mounted int }

func (r *routes) RegisterRoutes(*httpx.Routes) { r.mounted++ }

type registry struct{ every map[string]time.Duration }

func (r *registry) Handle(string, jobs.Handler) {}

func (r *registry) Every(task string, d time.Duration) { r.every[task] = d }

type widgets struct{ modkit.Parts }

func newWidgets(h httpx.Module, subscribe func(event.Subscriber), j interface{ Register(jobs.Registry) }) *widgets {
	return &widgets{modkit.NewParts(modkit.Spec{Name: "widgets", Routes: h, OpenAPI: []byte("paths: {}"),
		Migrations: db.MigrationSource{Module: "widgets", FS: fstest.MapFS{}}, Subscribe: subscribe, Jobs: j})}
}

func TestPartsAnswerFromTheSpec(t *testing.T) {
	h := &routes{}
	m := newWidgets(h, nil, nil)
	if m.Name() != "widgets" || m.Migrations().Module != "widgets" {
		t.Errorf("name %q, migrations %q", m.Name(), m.Migrations().Module)
	}
	if f := m.OpenAPI(); f.Module != "widgets" || string(f.Data) != "paths: {}" {
		t.Errorf("fragment %q: %q", f.Module, f.Data)
	}
	m.RegisterRoutes(&httpx.Routes{})
	if h.mounted != 1 {
		t.Errorf("routes mounted %d times", h.mounted)
	}
	if got := modkit.HTTPModules([]modkit.Module{m}); len(got) != 1 {
		t.Errorf("HTTPModules: %d", len(got))
	}
	srcs := modkit.MigrationSources([]modkit.Module{m})
	if len(srcs) != 2 || srcs[0].Module != events.Migrations().Module || srcs[1].Module != "widgets" {
		t.Errorf("MigrationSources: %+v", srcs)
	}
}

// A module with subscriptions and jobs registers them; one without answers Subscribe
// and RegisterJobs with nothing, so it gets no consumer and no task.
func TestSubscriptionsAndJobsOnlyWhereTheSpecHasThem(t *testing.T) {
	sweep := modkit.Sweep{Task: "widgets:expire", Every: time.Hour, Run: func(context.Context) (int64, error) { return 0, nil }}
	busy := newWidgets(&routes{}, func(s event.Subscriber) {
		s.Subscribe("widget.created", func(context.Context, event.Event) error { return nil })
	}, sweep)
	idle := newWidgets(&routes{}, nil, nil)

	bus := events.NewBus()
	modkit.SubscribeAll([]modkit.Module{idle}, bus)
	if bus.Handles("widget.created") {
		t.Error("a module without subscriptions subscribed")
	}
	modkit.SubscribeAll([]modkit.Module{idle, busy}, bus)
	if !bus.Handles("widget.created") {
		t.Error("the module's subscription is missing")
	}

	reg := &registry{every: map[string]time.Duration{}}
	modkit.RegisterJobs([]modkit.Module{idle}, reg)
	if len(reg.every) != 0 {
		t.Errorf("a module without jobs registered %v", reg.every)
	}
	modkit.RegisterJobs([]modkit.Module{idle, busy}, reg)
	if reg.every["widgets:expire"] != time.Hour {
		t.Errorf("jobs: %v", reg.every)
	}
}

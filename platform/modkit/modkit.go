// Package modkit is the contract between cmd/commerce and the business modules: a
// module has a name and may register routes, migrations, event subscriptions and
// background jobs. cmd lists the modules by hand (wire has no multibinding).
package modkit

import (
	"context"
	"time"

	"go.uber.org/zap"

	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/event"
	"github.com/gocommerce/commerce/platform/events"
	"github.com/gocommerce/commerce/platform/httpx"
	"github.com/gocommerce/commerce/platform/jobs"
	"github.com/gocommerce/commerce/platform/openapi"
)

// Module is a business module.
type Module interface {
	Name() string
}

// Routes is implemented by modules with HTTP endpoints.
type Routes interface {
	httpx.Module
}

// Migrations is implemented by modules that own tables.
type Migrations interface {
	Migrations() db.MigrationSource
}

// Subscriptions is implemented by modules that react to events.
type Subscriptions interface {
	Subscribe(s event.Subscriber)
}

// Jobs is implemented by modules with background work.
type Jobs interface {
	RegisterJobs(r jobs.Registry)
}

// HTTPModules picks the modules with routes.
func HTTPModules(mods []Module) []httpx.Module {
	var out []httpx.Module
	for _, m := range mods {
		if r, ok := m.(httpx.Module); ok {
			out = append(out, r)
		}
	}
	return out
}

// MigrationSources collects the platform's and the modules' migrations.
func MigrationSources(mods []Module) []db.MigrationSource {
	out := []db.MigrationSource{events.Migrations()}
	for _, m := range mods {
		if r, ok := m.(Migrations); ok {
			out = append(out, r.Migrations())
		}
	}
	return out
}

// SubscribeAll lets every module subscribe to events, each as the bus's consumer named
// after the module, so deliveries are recorded per module (docs/decisions/0109).
func SubscribeAll(mods []Module, b *events.Bus) {
	for _, m := range mods {
		if r, ok := m.(Subscriptions); ok {
			r.Subscribe(b.Consumer(m.Name()))
		}
	}
}

// RegisterJobs lets every module register its background work.
func RegisterJobs(mods []Module, r jobs.Registry) {
	for _, m := range mods {
		if j, ok := m.(Jobs); ok {
			j.RegisterJobs(r)
		}
	}
}

// Spec is what a business module is made of (decision 0222): every module has a name,
// routes with their OpenAPI fragment and migrations; Subscribe and Jobs are set only
// by a module that reacts to events or runs background work.
type Spec struct {
	Name       string
	Routes     httpx.Module // the module's HTTP handler
	OpenAPI    []byte       // the handler's OpenAPI fragment
	Migrations db.MigrationSource
	Subscribe  func(s event.Subscriber)
	// Jobs is the module's jobs adapter: anything with a Register(jobs.Registry), such
	// as a Sweep.
	Jobs interface{ Register(r jobs.Registry) }
}

// Parts gives a module every method cmd calls, from its Spec, so a module's Module
// type is Parts embedded and NewModule one Spec (decisions 0123, 0222):
//
//	type Module struct{ modkit.Parts }
//
//	func NewModule(h *widgetshttp.Handler, s *widgetsevents.Subscriber) *Module {
//		return &Module{modkit.NewParts(modkit.Spec{Name: "widgets", Routes: h, OpenAPI: widgetshttp.OpenAPI(),
//			Migrations: Migrations(), Subscribe: s.Subscribe})}
//	}
//
// A module without subscriptions or jobs answers Subscribe and RegisterJobs with
// nothing (its event consumer stays empty, so the bus records nothing for it). The
// methods are promoted from a value type: a module built with nil parts (the OpenAPI
// tests' NewModule(nil, ...)) still answers Name, OpenAPI and Migrations.
type Parts struct{ spec Spec }

// NewParts builds a module's parts from its spec.
func NewParts(s Spec) Parts { return Parts{spec: s} }

// Name names the module.
func (p Parts) Name() string { return p.spec.Name }

// RegisterRoutes mounts the module's endpoints.
func (p Parts) RegisterRoutes(r *httpx.Routes) { p.spec.Routes.RegisterRoutes(r) }

// OpenAPI returns the module's OpenAPI fragment (openapi.Documented).
func (p Parts) OpenAPI() openapi.Fragment {
	return openapi.Fragment{Module: p.spec.Name, Data: p.spec.OpenAPI}
}

// Migrations returns the module's table migrations.
func (p Parts) Migrations() db.MigrationSource { return p.spec.Migrations }

// Subscribe registers the module's event handlers, if it has any.
func (p Parts) Subscribe(s event.Subscriber) {
	if p.spec.Subscribe != nil {
		p.spec.Subscribe(s)
	}
}

// RegisterJobs registers the module's background work, if it has any.
func (p Parts) RegisterJobs(r jobs.Registry) {
	if p.spec.Jobs != nil {
		p.spec.Jobs.Register(r)
	}
}

// Sweep is a periodic background task: every Every it runs Run, a use case that reads
// what is due from the database and answers how many rows it changed, and logs the
// count when there were any. A module's jobs adapter builds one per sweep (a module
// whose only work is one sweep builds it in module.go: decision 0227):
//
//	j := &Jobs{Sweep: modkit.Sweep{Task: "widgets:expire", Every: time.Hour,
//		Run: svc.ExpireWidgets, Log: log.Named("widgets.jobs"), Done: "widgets expired"}}
type Sweep struct {
	Task  string
	Every time.Duration
	Run   func(ctx context.Context) (int64, error)
	Log   *zap.Logger
	// Done is the log message of a run that changed rows.
	Done string
}

// Register declares the task's handler and its schedule.
func (s Sweep) Register(r jobs.Registry) {
	r.Handle(s.Task, s.Handle)
	r.Every(s.Task, s.Every)
}

// Handle runs the sweep (the payload is ignored: the database says what is due).
func (s Sweep) Handle(ctx context.Context, _ []byte) error {
	n, err := s.Run(ctx)
	if n > 0 {
		s.Log.Info(s.Done, zap.Int64("count", n))
	}
	return err
}

// Reactor is the base of a module's events adapter, as Sweep is of its jobs adapter:
// the use cases the handlers call (App) and the logger named after the module. A
// module's subscriber embeds one:
//
//	type Subscriber struct{ modkit.Reactor[Recorder] }
//
//	func NewSubscriber(app Recorder, log *zap.Logger) *Subscriber {
//		return &Subscriber{modkit.NewReactor(app, log, "widgets.events")}
//	}
type Reactor[A any] struct {
	App A
	Log *zap.Logger
}

// NewReactor builds the base on the use cases, its logger named name.
func NewReactor[A any](app A, log *zap.Logger, name string) Reactor[A] {
	return Reactor[A]{App: app, Log: log.Named(name)}
}

// Drop logs e under msg as an event the handler cannot act on (a payload a retry cannot
// fix) and answers nil, so the relay does not retry it.
func (r Reactor[A]) Drop(msg string, e event.Event, err error) error {
	r.Log.Warn(msg, zap.String("event_id", e.ID), zap.String("type", e.Type), zap.Error(err))
	return nil
}

// Decode reads e's data into a T. A payload that does not decode, or that valid (when
// not nil) refuses, is dropped (logged by r under msg): ok is false.
func Decode[T any, A any](r Reactor[A], msg string, e event.Event, valid func(T) bool) (data T, ok bool) {
	err := e.Decode(&data)
	if err == nil && (valid == nil || valid(data)) {
		return data, true
	}
	_ = r.Drop(msg, e, err)
	return data, false
}

// Package modkit is the contract between cmd/commerce and the business modules: a
// module has a name and may register routes, migrations, event subscriptions and
// background jobs. cmd lists the modules by hand (wire has no multibinding).
package modkit

import (
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/event"
	"github.com/gocommerce/commerce/platform/events"
	"github.com/gocommerce/commerce/platform/httpx"
	"github.com/gocommerce/commerce/platform/jobs"
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

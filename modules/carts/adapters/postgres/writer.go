package postgres

import (
	"context"

	"github.com/gocommerce/commerce/modules/carts/domain"
	"github.com/gocommerce/commerce/modules/carts/ports"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/events"
)

// WriteOptions selects the write path of ports.CartWriter (add to cart): each field
// switches one optimisation of docs/decisions/0089 on. They exist to measure each one
// (docs/performance.md, "Carts write path: each optimisation measured"); production
// runs with all of them (Optimised). Configuration: carts.write (docs/decisions/0119).
type WriteOptions struct {
	// Versioned writes the change in one statement without a row lock, at the version
	// it was made from (0089 §2; PostgreSQL outside a transaction). Off, every change
	// is the row-locked transaction with the outbox's Publish, and the options below do
	// nothing.
	Versioned bool
	// Cache starts a change from this process's copy of the cart it wrote last,
	// skipping the read (§3).
	Cache bool
	// GroupCommit writes concurrent changes together, one statement per batch (§5);
	// off, each change is its own statement.
	GroupCommit bool
}

// Optimised is every optimisation on: the production write path.
var Optimised = WriteOptions{Versioned: true, Cache: true, GroupCommit: true}

// NewConfiguredRepository builds the repository with the write path carts.write
// selects (every optimisation unless switched off).
func NewConfiguredRepository(cfg *config.Config, d *db.DB, outbox *events.Outbox) *CartRepository {
	return NewCartRepositoryWith(d, outbox, WriteOptions(cfg.Carts.Write))
}

// newWriter builds the write path o selects for the repository.
func newWriter(r *CartRepository, o WriteOptions) ports.CartWriter {
	locked := lockedWriter{r}
	if !o.Versioned {
		return locked
	}
	if o.Cache {
		r.cache = newCartCache()
	}
	w := &versionedWriter{db: r.db, outbox: r.outbox, cache: r.cache, combiner: newCombiner(r.db), locked: locked}
	w.write = w.combiner.write
	if !o.GroupCommit {
		w.write = w.combiner.writeAlone
	}
	return w
}

// lockedWriter is the plain write path: the row-locked Update and the outbox's Publish
// (the normal publish path every other use case takes), in one transaction.
type lockedWriter struct{ repo *CartRepository }

func (w lockedWriter) Apply(ctx context.Context, id domain.CartID, change func(context.Context, *domain.Cart) ([]ports.Event, error)) (*domain.Cart, error) {
	var out *domain.Cart
	err := w.repo.db.InTx(ctx, func(ctx context.Context) error {
		var evts []ports.Event
		c, err := w.repo.Update(ctx, id, func(ctx context.Context, c *domain.Cart) error {
			var err error
			evts, err = change(ctx, c)
			return err
		})
		if err != nil {
			return err
		}
		for _, e := range evts {
			if err := w.repo.outbox.Publish(ctx, e.Type, e.AggregateID, e.Data); err != nil {
				return err
			}
		}
		out = c
		return nil
	})
	return out, err
}

// optimisticAttempts is how often the versioned writer reads and changes a cart
// before it takes the row lock instead.
const optimisticAttempts = 3

// versionedWriter is the optimised write path (docs/decisions/0089). On PostgreSQL
// outside a transaction, the change is made to the cart as this process last wrote it
// (cache) or as read, without a lock, and written with its events in one statement
// (batch.go) that applies only if the cart's version is still that one; when another
// change came first, the change runs again on a fresh read. Elsewhere, for changes
// that remove items, and after repeated conflicts, it is the locked path.
type versionedWriter struct {
	db       *db.DB
	outbox   *events.Outbox
	cache    *cartCache // nil: off
	combiner *combiner
	write    func(context.Context, *pendingWrite) (bool, error) // queued (group commit) or alone
	locked   lockedWriter
}

func (w *versionedWriter) Apply(ctx context.Context, id domain.CartID, change func(context.Context, *domain.Cart) ([]ports.Event, error)) (*domain.Cart, error) {
	if w.db.Dialect() == db.Postgres && !db.InTransaction(ctx) {
		c, done, err := w.applyVersioned(ctx, id, change)
		if done || err != nil {
			return c, err
		}
	}
	return w.locked.Apply(ctx, id, change)
}

// applyVersioned answers done=false when the change must be made under the row lock
// instead. A cached copy of the cart only ever leads to a write its version confirms:
// every other answer is taken from a fresh read.
func (w *versionedWriter) applyVersioned(ctx context.Context, id domain.CartID, change func(context.Context, *domain.Cart) ([]ports.Event, error)) (*domain.Cart, bool, error) {
	useCache := true
	for attempt := 0; attempt < optimisticAttempts; {
		c, cached := (*domain.Cart)(nil), false
		if useCache {
			c, cached = w.cache.get(id)
		}
		useCache = false
		if !cached {
			attempt++
			var err error
			if c, err = first(find(ctx, w.db, "c.id = ?", "c.id", string(id))); err != nil {
				return nil, true, err
			}
		}
		var evts []ports.Event
		d, err := edit(ctx, c, func(ctx context.Context, c *domain.Cart) error {
			var err error
			evts, err = change(ctx, c)
			return err
		})
		switch {
		case err != nil && cached:
			continue
		case err != nil:
			return nil, true, err
		case len(d.removed) > 0:
			return nil, false, nil // a removal and an insert of the same identity need their order
		}
		recs, err := w.records(evts)
		if err != nil {
			return nil, true, err
		}
		ok, err := w.write(ctx, pendingOf(d, recs))
		if err != nil {
			return nil, true, err
		}
		if ok {
			c.Version++
			w.cache.put(c)
			for _, rec := range recs {
				if !rec.Delivered {
					w.db.AfterCommit(ctx, w.db.Committed) // wake the relay
					break
				}
			}
			return c, true, nil
		}
	}
	return nil, false, nil
}

// records renders events for the outbox as its Publish does (events.Outbox.Record).
func (w *versionedWriter) records(evts []ports.Event) ([]events.Record, error) {
	out := make([]events.Record, len(evts))
	for i, e := range evts {
		rec, err := w.outbox.Record(e.Type, e.AggregateID, e.Data)
		if err != nil {
			return nil, err
		}
		out[i] = rec
	}
	return out, nil
}

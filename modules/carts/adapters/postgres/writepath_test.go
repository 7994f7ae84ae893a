package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/carts/api"
	"github.com/gocommerce/commerce/modules/carts/app"
	"github.com/gocommerce/commerce/modules/carts/domain"
	"github.com/gocommerce/commerce/modules/carts/ports"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/event"
	"github.com/gocommerce/commerce/platform/events"
	"github.com/gocommerce/commerce/platform/ids"
	"github.com/gocommerce/commerce/platform/testdb"
)

// switchedOff is each optimisation with its variable, and the options without it.
var switchedOff = []struct {
	name, env string
	o         WriteOptions
}{
	{"versioned write", "COMMERCE_CARTS__WRITE__VERSIONED", WriteOptions{Cache: true, GroupCommit: true}},
	{"cache", "COMMERCE_CARTS__WRITE__CACHE", WriteOptions{Versioned: true, GroupCommit: true}},
	{"group commit", "COMMERCE_CARTS__WRITE__GROUP_COMMIT", WriteOptions{Versioned: true, Cache: true}},
}

// storedEvent is an outbox row as both write paths must store it: every column but
// the id, with the times as their relations to occurred_at.
type storedEvent struct {
	Type, AggregateID, Payload, DeliveredTo, Claim, LastError string
	Attempts                                                  int
	NextAttemptAt, PublishedAt, LockedUntil                   string
}

// outboxRow is the outbox table's row (every column).
type outboxRow struct {
	ID, Type, AggregateID, Payload, DeliveredTo, Claim, LastError string
	Attempts                                                      int
	OccurredAt, NextAttemptAt                                     time.Time
	PublishedAt, LockedUntil                                      *time.Time
}

// relation writes a time as its relation to occurred_at.
func relation(t *time.Time, occurred time.Time) string {
	switch {
	case t == nil:
		return "null"
	case t.Equal(occurred):
		return "occurred_at"
	}
	return "other: " + t.Sub(occurred).String()
}

// writePath is one repository on its own database, and the events it stored so far.
type writePath struct {
	name    string
	db      *testdb.Engine
	repo    *CartRepository
	seen    map[string]bool
	batches atomic.Int64 // versioned writes sent (batch statements' changes)
}

func newWritePath(t *testing.T, engine, name string, o WriteOptions) *writePath {
	e := testdb.Open(t, engine, events.Migrations(), Migrations())
	outbox := events.NewOutbox(e.DB)
	// A subscribed type is stored pending, the others delivered (Outbox.Route).
	bus := events.NewBus()
	bus.Subscribe(api.EventCartItemAdded, func(context.Context, event.Event) error { return nil })
	outbox.Route(bus)
	p := &writePath{name: name, db: e, repo: NewCartRepositoryWith(e.DB, outbox, o), seen: map[string]bool{}}
	if v, ok := p.repo.writer.(*versionedWriter); ok {
		write := v.write
		v.write = func(ctx context.Context, w *pendingWrite) (bool, error) {
			p.batches.Add(1)
			return write(ctx, w)
		}
	}
	return p
}

// newEvents answers the outbox rows stored since the last call, in a stable order.
func (p *writePath) newEvents(t *testing.T) []storedEvent {
	t.Helper()
	var rows []outboxRow
	if err := p.db.DB.Gorm().Raw("SELECT * FROM outbox_events").Scan(&rows).Error; err != nil {
		t.Fatal(err)
	}
	var out []storedEvent
	for _, r := range rows {
		if p.seen[r.ID] {
			continue
		}
		p.seen[r.ID] = true
		var payload any
		if err := json.Unmarshal([]byte(r.Payload), &payload); err != nil {
			t.Fatalf("%s: payload of %s: %v", p.name, r.Type, err)
		}
		canonical, _ := json.Marshal(payload)
		out = append(out, storedEvent{
			Type: r.Type, AggregateID: r.AggregateID, Payload: string(canonical), DeliveredTo: r.DeliveredTo, Claim: r.Claim,
			LastError: r.LastError, Attempts: r.Attempts, NextAttemptAt: relation(&r.NextAttemptAt, r.OccurredAt),
			PublishedAt: relation(r.PublishedAt, r.OccurredAt), LockedUntil: relation(r.LockedUntil, r.OccurredAt),
		})
	}
	slices.SortFunc(out, func(a, b storedEvent) int { return strings.Compare(a.Type+a.Payload, b.Type+b.Payload) })
	return out
}

// TestWritePathsStoreTheSameRows: the same changes, written by the plain write path
// (the row-locked Update and the outbox's Publish, in one transaction) and by the
// optimised one with each optimisation switched off in turn, leave the same outbox
// rows (every column; the times as relations) and the same cart and items. On
// PostgreSQL the versioned paths write through the batch statement (counted), except
// the removal, which takes the locked path.
func TestWritePathsStoreTheSameRows(t *testing.T) {
	testdb.EachEngine(t, func(t *testing.T, engine string) {
		plain := newWritePath(t, engine, "plain", WriteOptions{})
		paths := []*writePath{plain, newWritePath(t, engine, "optimised", Optimised)}
		for _, v := range switchedOff {
			if v.o.Versioned { // without it, the path is the plain one
				paths = append(paths, newWritePath(t, engine, "no "+v.name, v.o))
			}
		}
		now := time.Date(2026, 11, 25, 10, 0, 0, 123456000, time.UTC)
		cart := domain.New("0190a7f0-0000-7000-8000-0000000000c1", "", "EUR", now, time.Hour)
		for _, p := range paths {
			if err := p.repo.Create(context.Background(), cart.Clone()); err != nil {
				t.Fatal(err)
			}
		}
		ops := writeOps(now)
		for _, op := range ops {
			var (
				want      []storedEvent
				wantState string
			)
			for _, p := range paths {
				got, err := p.repo.Apply(context.Background(), cart.ID, op.change)
				if err != nil {
					t.Fatalf("%s, %s: %v", op.name, p.name, err)
				}
				stored, err := p.repo.Get(context.Background(), cart.ID)
				if err != nil {
					t.Fatal(err)
				}
				if state(got) != state(stored) {
					t.Errorf("%s, %s: answered\n%s\nstored\n%s", op.name, p.name, state(got), state(stored))
				}
				evts := p.newEvents(t)
				if len(evts) == 0 {
					t.Fatalf("%s, %s: no event stored", op.name, p.name)
				}
				if p == plain {
					want, wantState = evts, state(stored)
					continue
				}
				if !reflect.DeepEqual(evts, want) {
					t.Errorf("%s: outbox rows of %s\n%+v\nplain path's\n%+v", op.name, p.name, evts, want)
				}
				if state(stored) != wantState {
					t.Errorf("%s: cart of %s\n%s\nplain path's\n%s", op.name, p.name, state(stored), wantState)
				}
			}
		}
		versioned := int64(0)
		if engine == "postgres" {
			for _, op := range ops {
				if !op.removes {
					versioned++
				}
			}
		}
		for _, p := range paths {
			if _, ok := p.repo.writer.(*versionedWriter); ok && p.batches.Load() != versioned {
				t.Errorf("%s: %d versioned writes, want %d", p.name, p.batches.Load(), versioned)
			}
		}
	})
}

// state is what a cart holds: its resource, status, version and coupons.
func state(c *domain.Cart) string {
	r, _ := json.Marshal(app.ToResource(c))
	return fmt.Sprintf("%s %s v%d %+v", r, c.Status, c.Version, c.Coupons)
}

// writeOp is a change with the events the service publishes for it.
type writeOp struct {
	name    string
	removes bool
	change  func(context.Context, *domain.Cart) ([]ports.Event, error)
}

// writeOps are adds (a new line, the same line again, a line with custom attributes),
// a quantity update, a coupon, a change of the cart's own fields, a removal and an add
// after it: as the service makes them, re-priced and touched, with its events.
func writeOps(now time.Time) []writeOp {
	product := func(n int) domain.Product {
		return domain.Product{
			ProductID: fmt.Sprintf("0190a7f0-0000-7000-8000-00000000010%d", n), VariantID: fmt.Sprintf("0190a7f0-0000-7000-8000-00000000020%d", n),
			Title: "Tee \"été\" <b>&</b>", VariantTitle: "M", SKU: fmt.Sprintf("TEE-%d", n), Status: domain.ProductActive, Currency: "EUR",
			Price: decimal.RequireFromString("19.90"), RequiresShipping: true,
		}
	}
	step := 0
	op := func(name string, fn func(c *domain.Cart, at time.Time) ([]ports.Event, error)) writeOp {
		step++
		at := now.Add(time.Duration(step) * time.Minute)
		return writeOp{name: name, change: func(_ context.Context, c *domain.Cart) ([]ports.Event, error) {
			evts, err := fn(c, at)
			if err != nil {
				return nil, err
			}
			reprice(c)
			c.Touch(at, time.Hour)
			return evts, nil
		}}
	}
	item := func(typ string, c *domain.Cart, it *domain.Item) ports.Event {
		return ports.Event{Type: typ, AggregateID: string(c.ID), Data: api.CartItemEvent{
			CartID: string(c.ID), Item: app.ToItemResource(it, c.Currency), Subtotal: domain.Format(c.Subtotal, c.Currency),
			Total: domain.Format(c.Total(), c.Currency), Currency: c.Currency,
		}}
	}
	add := func(name, id string, p domain.Product, qty int, attrs map[string]string) writeOp {
		return op(name, func(c *domain.Cart, at time.Time) ([]ports.Event, error) {
			it, err := c.AddItem(domain.ItemID(id), p, qty, attrs, at)
			if err != nil {
				return nil, err
			}
			reprice(c)
			return []ports.Event{item(api.EventCartItemAdded, c, it)}, nil
		})
	}
	const shirt, hat = "0190a7f0-0000-7000-8000-000000000301", "0190a7f0-0000-7000-8000-000000000302"
	attrs := map[string]string{"engraving": "À \"toi\"\n", "gift": "yes"}
	remove := op("remove an item", func(c *domain.Cart, _ time.Time) ([]ports.Event, error) {
		it, err := c.RemoveItem(hat)
		if err != nil {
			return nil, err
		}
		reprice(c)
		return []ports.Event{item(api.EventCartItemRemoved, c, it)}, nil
	})
	remove.removes = true
	return []writeOp{
		add("add an item", shirt, product(1), 1, nil),
		add("add the same item again", "0190a7f0-0000-7000-8000-000000000399", product(1), 2, nil),
		add("add an item with custom attributes", hat, product(2), 1, attrs),
		op("update a quantity", func(c *domain.Cart, at time.Time) ([]ports.Event, error) {
			qty := 5
			it, _, err := c.UpdateItem(shirt, domain.ItemChange{Quantity: &qty}, at)
			if err != nil {
				return nil, err
			}
			reprice(c)
			return []ports.Event{item(api.EventCartItemUpdated, c, it)}, nil
		}),
		op("apply a coupon", func(c *domain.Cart, _ time.Time) ([]ports.Event, error) {
			c.Coupons = append(c.Coupons, domain.AppliedCoupon{Code: "TEN", ID: "0190a7f0-0000-7000-8000-000000000401", Type: "percentage", Applicable: true})
			reprice(c)
			return []ports.Event{
				{Type: api.EventCartCouponApplied, AggregateID: string(c.ID), Data: app.ToResource(c)},
				{Type: "coupon.applied", AggregateID: c.Coupons[0].ID, Data: map[string]string{"code": "TEN", "cart_id": string(c.ID)}},
			}, nil
		}),
		op("change the cart's fields", func(c *domain.Cart, _ time.Time) ([]ports.Event, error) {
			c.Email, c.Notes, c.ShippingMethod = "a@example.test", "ring twice\t«ok»", "standard"
			return []ports.Event{{Type: api.EventCartUpdated, AggregateID: string(c.ID), Data: app.ToResource(c)}}, nil
		}),
		remove,
		add("add after a removal", hat, product(2), 3, attrs),
	}
}

// reprice gives the cart's coupons 10 % of each line and recalculates the totals.
func reprice(c *domain.Cart) {
	d := domain.Discounts{Items: map[domain.ItemID]decimal.Decimal{}, Shipping: decimal.Zero}
	c.Recalculate(d)
	for i := range c.Coupons {
		c.Coupons[i].Amount = decimal.Zero
		for _, it := range c.Items {
			off := it.Subtotal().Div(decimal.NewFromInt(10)).Round(2)
			d.Items[it.ID] = d.Items[it.ID].Add(off)
			c.Coupons[i].Amount = c.Coupons[i].Amount.Add(off)
		}
	}
	c.Recalculate(d)
}

// The environment variables docs/performance.md gives switch each optimisation off,
// and only that one.
func TestWriteOptionsFromTheEnvironment(t *testing.T) {
	e := testdb.Open(t, "sqlite", events.Migrations(), Migrations())
	for _, c := range append([]struct {
		name, env string
		o         WriteOptions
	}{{"nothing", "", Optimised}}, switchedOff...) {
		t.Run(c.name, func(t *testing.T) {
			if c.env != "" {
				t.Setenv(c.env, "false")
			}
			cfg, err := config.Load("")
			if err != nil {
				t.Fatal(err)
			}
			if got := WriteOptions(cfg.Carts.Write); got != c.o {
				t.Fatalf("options %+v, want %+v", got, c.o)
			}
			r := NewConfiguredRepository(cfg, e.DB, events.NewOutbox(e.DB))
			v, versioned := r.writer.(*versionedWriter)
			switch {
			case versioned != c.o.Versioned:
				t.Fatalf("writer %T", r.writer)
			case versioned && (v.cache != nil) != c.o.Cache:
				t.Fatalf("cache %v", v.cache != nil)
			case versioned && (reflect.ValueOf(v.write).Pointer() == reflect.ValueOf(v.combiner.write).Pointer()) != c.o.GroupCommit:
				t.Fatal("group commit switched wrongly")
			case versioned && strings.Contains(v.combiner.sql, "synchronous_commit"):
				t.Fatalf("statement:\n%s", v.combiner.sql)
			}
		})
	}
}

// Concurrent adds of one line to one cart, on every write path: the line ends with
// the sum of the quantities, the cart with the matching count and version, and every
// add has its event (the locked path reads the lines after it holds the lock, so no
// add is lost or makes a second line).
func TestConcurrentAddsOnEveryWritePath(t *testing.T) {
	for _, engine := range testdb.Engines() {
		for name, o := range map[string]WriteOptions{"plain": {}, "optimised": Optimised, "versioned alone": {Versioned: true}} {
			t.Run(engine+"/"+name, func(t *testing.T) {
				t.Parallel()
				p := newWritePath(t, engine, name, o)
				now := testdb.Now()
				cart := domain.New("0190a7f0-0000-7000-8000-0000000000c2", "", "EUR", now, time.Hour)
				if err := p.repo.Create(context.Background(), cart); err != nil {
					t.Fatal(err)
				}
				shirt := domain.Product{ProductID: "p1", VariantID: "v1", Title: "Shirt", Status: domain.ProductActive, Currency: "EUR", Price: decimal.RequireFromString("10.00")}
				const adds = 12
				errs := make(chan error, adds)
				for i := 0; i < adds; i++ {
					go func() {
						_, err := p.repo.Apply(context.Background(), cart.ID, func(_ context.Context, c *domain.Cart) ([]ports.Event, error) {
							it, err := c.AddItem(domain.ItemID(ids.New()), shirt, 1, nil, now)
							if err != nil {
								return nil, err
							}
							reprice(c)
							return []ports.Event{{Type: api.EventCartItemAdded, AggregateID: string(c.ID), Data: map[string]int{"quantity": it.Quantity}}}, nil
						})
						errs <- err
					}()
				}
				for i := 0; i < adds; i++ {
					if err := <-errs; err != nil {
						t.Fatal(err)
					}
				}
				got, err := p.repo.Get(context.Background(), cart.ID)
				if err != nil {
					t.Fatal(err)
				}
				if len(got.Items) != 1 || got.Items[0].Quantity != adds || got.ItemCount != adds || got.Version != adds {
					t.Fatalf("%d lines, quantity %d, count %d, version %d; want 1 line of %d", len(got.Items), got.Items[0].Quantity, got.ItemCount, got.Version, adds)
				}
				if n := len(p.newEvents(t)); n != adds {
					t.Fatalf("%d events, want %d", n, adds)
				}
			})
		}
	}
}

package postgres_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	paymentspg "github.com/gocommerce/commerce/modules/payments/adapters/postgres"
	"github.com/gocommerce/commerce/modules/payments/domain"
	"github.com/gocommerce/commerce/modules/payments/ports"
	"github.com/gocommerce/commerce/platform/ids"
	"github.com/gocommerce/commerce/platform/testdb"
)

// TestRepositories runs the stores' contract on every engine.
func TestRepositories(t *testing.T) {
	testdb.EachOpen(t, func(t *testing.T, e *testdb.Engine) {
		ctx := context.Background()
		now := testdb.Now()
		payments := paymentspg.NewPaymentRepository(e.DB)

		p := &domain.Payment{
			ID: "pay_" + ids.New(), Gateway: "test", TransactionID: "pi_1", Status: domain.StatusRequiresAction,
			Amount: decimal.RequireFromString("19.99"), AmountCaptured: decimal.Zero, AmountRefunded: decimal.Zero, Currency: "USD",
			CaptureMethod: "automatic", Metadata: map[string]any{"k": "v"}, MethodType: "card",
			Card:      domain.CardDetails{Brand: "visa", LastFour: "4242", ExpMonth: 12, ExpYear: 2030, Name: "Ada"},
			Action:    &domain.Action{Type: "three_d_secure", Data: map[string]any{"redirect_url": "https://x"}, ExpiresAt: now.Add(time.Minute)},
			CreatedAt: now, UpdatedAt: now,
		}
		if err := payments.Create(ctx, p); err != nil {
			t.Fatal(err)
		}
		got, err := payments.Get(ctx, p.ID)
		if err != nil || !got.Amount.Equal(p.Amount) || got.Card != p.Card || got.Action == nil || !got.Action.ExpiresAt.Equal(p.Action.ExpiresAt) ||
			got.Action.Data["redirect_url"] != "https://x" || got.Metadata["k"] != "v" || got.Version != 1 || !got.CreatedAt.Equal(now) {
			t.Fatalf("Get = %+v, %v", got, err)
		}
		if byTxn, err := payments.FindByTransaction(ctx, "test", "pi_1"); err != nil || byTxn.ID != p.ID {
			t.Fatalf("FindByTransaction = %+v, %v", byTxn, err)
		}
		if _, err := payments.Get(ctx, "pay_missing"); !errors.Is(err, domain.ErrPaymentNotFound) {
			t.Fatalf("missing: %v", err)
		}
		// Optimistic update: the second writer with the old version is stale.
		a, _ := payments.Get(ctx, p.ID)
		b, _ := payments.Get(ctx, p.ID)
		a.Succeed(now)
		if err := payments.Update(ctx, a); err != nil || a.Version != 2 {
			t.Fatalf("update: %v (version %d)", err, a.Version)
		}
		b.Fail("card_declined", "no", now)
		if err := payments.Update(ctx, b); !errors.Is(err, ports.ErrStale) {
			t.Fatalf("stale update: %v", err)
		}
		if got, _ := payments.Get(ctx, p.ID); got.Status != domain.StatusSucceeded || got.Action != nil || !got.AmountCaptured.Equal(p.Amount) {
			t.Fatalf("after update: %+v", got)
		}

		idem := paymentspg.NewIdempotencyRepository(e.DB)
		rec := ports.IdempotencyRecord{Scope: "api_key:1", Key: "k1", RequestHash: "h", PaymentID: p.ID, CreatedAt: now}
		if ok, err := idem.Insert(ctx, rec); !ok || err != nil {
			t.Fatalf("insert key: %v %v", ok, err)
		}
		// A duplicate inside a transaction neither fails it nor stores anything.
		err = e.DB.InTx(ctx, func(ctx context.Context) error {
			ok, err := idem.Insert(ctx, ports.IdempotencyRecord{Scope: "api_key:1", Key: "k1", RequestHash: "other", CreatedAt: now})
			if ok || err != nil {
				t.Errorf("duplicate key: %v %v", ok, err)
			}
			_, err = idem.Insert(ctx, ports.IdempotencyRecord{Scope: "api_key:2", Key: "k1", RequestHash: "h2", CreatedAt: now})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if r, err := idem.Get(ctx, "api_key:1", "k1"); err != nil || r.RequestHash != "h" || r.PaymentID != p.ID {
			t.Fatalf("get key: %+v %v", r, err)
		}

		hooks := paymentspg.NewWebhookEventRepository(e.DB)
		ev := ports.WebhookEventRecord{ID: ids.New(), Gateway: "stripe", ProviderEventID: "evt_1", Type: "x", Payload: []byte("{}"), ReceivedAt: now}
		if ok, err := hooks.Record(ctx, ev); !ok || err != nil {
			t.Fatalf("record: %v %v", ok, err)
		}
		ev.ID = ids.New()
		if ok, err := hooks.Record(ctx, ev); ok || err != nil {
			t.Fatalf("duplicate event: %v %v", ok, err)
		}
		ev.ID, ev.Gateway = ids.New(), "paypal"
		if ok, err := hooks.Record(ctx, ev); !ok || err != nil {
			t.Fatalf("same id, other gateway: %v %v", ok, err)
		}

		methods := paymentspg.NewSavedMethodRepository(e.DB)
		m1 := &domain.SavedMethod{Token: "pm_" + ids.New(), Owner: "customer:1", Gateway: "test", MethodType: "card", IsDefault: true, CreatedAt: now}
		m2 := &domain.SavedMethod{Token: "pm_" + ids.New(), Owner: "customer:1", Gateway: "test", MethodType: "card", IsDefault: true, CreatedAt: now.Add(time.Second)}
		if err := methods.Create(ctx, m1); err != nil {
			t.Fatal(err)
		}
		if err := methods.Create(ctx, m2); !errors.Is(err, ports.ErrDuplicate) {
			t.Fatalf("second default: %v", err)
		}
		m2.IsDefault = false
		if err := methods.Create(ctx, m2); err != nil {
			t.Fatal(err)
		}
		if list, n, err := methods.List(ctx, "customer:1", 0, 10); err != nil || n != 2 || list[0].Token != m1.Token {
			t.Fatalf("list: %v %d %v", list, n, err)
		}
		if newest, err := methods.Newest(ctx, "customer:1"); err != nil || newest.Token != m2.Token {
			t.Fatalf("newest: %v %v", newest, err)
		}
		if _, err := methods.Get(ctx, "pm_missing"); !errors.Is(err, domain.ErrPaymentMethodNotFound) {
			t.Fatalf("missing method: %v", err)
		}
	}, paymentspg.Migrations())
}

package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	checkoutpg "github.com/gocommerce/commerce/modules/checkout/adapters/postgres"
	"github.com/gocommerce/commerce/modules/checkout/domain"
	"github.com/gocommerce/commerce/platform/ids"
	"github.com/gocommerce/commerce/platform/testdb"
)

var errStale = errors.New("stale")

// TestSessions runs the sessions repository on every engine: the plain-SQL reads and
// writes round-trip every field, the version and status guards refuse a stale writer,
// and SaveLater's check fails its transaction (and writes nothing) when the version is
// not the stored one.
func TestSessions(t *testing.T) {
	testdb.EachOpen(t, func(t *testing.T, e *testdb.Engine) {
		ctx := context.Background()
		repo := checkoutpg.NewSessions(e.DB)
		now := time.Date(2026, 12, 2, 10, 0, 0, 123456000, time.UTC)
		cartID := ids.New()
		sess := &domain.Session{
			ID: ids.New(), CartID: cartID, Email: "a@example.com", Currency: "USD", Status: domain.StatusOpen,
			ShippingAddress: &domain.Address{FirstName: "A", City: "Berlin", CountryCode: "DE", PostalCode: "10115"},
			Rates:           []domain.Rate{{ID: "r1", Carrier: "dhl", Name: "Standard", Price: decimal.RequireFromString("4.90"), Currency: "USD", EstimatedDays: 3}},
			CreatedAt:       now, UpdatedAt: now,
		}
		if _, found, err := repo.Get(ctx, cartID); err != nil || found {
			t.Fatalf("get before create: found %v, %v", found, err)
		}
		if err := repo.Create(ctx, sess); err != nil {
			t.Fatal(err)
		}
		got, found, err := repo.Get(ctx, cartID)
		if err != nil || !found {
			t.Fatalf("get: found %v, %v", found, err)
		}
		if got.ID != sess.ID || got.Version != 1 || got.Status != domain.StatusOpen || got.Email != "a@example.com" || got.HoldExpiresAt != nil ||
			len(got.Rates) != 1 || !got.Rates[0].Price.Equal(decimal.RequireFromString("4.90")) || got.ShippingAddress.City != "Berlin" ||
			!got.CreatedAt.Equal(now) || !got.UpdatedAt.Equal(now) {
			t.Fatalf("stored session = %+v", got)
		}

		// Claim: open at the read version, once.
		hold := now.Add(15 * time.Minute)
		claim := *got
		claim.Status, claim.OrderID, claim.PaymentID, claim.HoldExpiresAt = domain.StatusProcessing, ids.New(), "pay_1", &hold
		claim.Reservations = []string{ids.New()}
		if ok, err := repo.Claim(ctx, &claim); err != nil || !ok || claim.Version != 2 || claim.Attempt != 1 {
			t.Fatalf("claim: %v, %v (version %d, attempt %d)", ok, err, claim.Version, claim.Attempt)
		}
		again := *got
		again.Status = domain.StatusProcessing
		if ok, err := repo.Claim(ctx, &again); err != nil || ok {
			t.Fatalf("second claim of the read version: %v, %v", ok, err)
		}
		byPay, found, err := repo.ByPayment(ctx, "pay_1")
		if err != nil || !found || byPay.Attempt != 1 || byPay.Version != 2 || byPay.OrderID != claim.OrderID || byPay.HoldExpiresAt == nil ||
			!byPay.HoldExpiresAt.Equal(hold) || len(byPay.Reservations) != 1 {
			t.Fatalf("by payment = %+v, %v, %v", byPay, found, err)
		}

		// Save: only over the stored version.
		stale := *got // version 1
		if ok, err := repo.Save(ctx, &stale); err != nil || ok {
			t.Fatalf("save of a stale version: %v, %v", ok, err)
		}

		// SaveLater in a transaction: a stale version fails the transaction with
		// stale, and nothing of it is written.
		err = e.DB.InTx(ctx, func(ctx context.Context) error {
			s := *got
			s.Status = domain.StatusCompleted
			if err := repo.SaveLater(ctx, &s, errStale); err != nil {
				return err
			}
			_, _, err := repo.Get(ctx, cartID) // the next statement carries it
			return err
		})
		if !errors.Is(err, errStale) {
			t.Fatalf("stale SaveLater: %v", err)
		}
		if cur, _, _ := repo.Get(ctx, cartID); cur.Status != domain.StatusProcessing || cur.Version != 2 {
			t.Fatalf("after the failed transaction: %s v%d", cur.Status, cur.Version)
		}
		// ... and at the stored version it is written, visible to the transaction's
		// next read and committed.
		done := claim
		done.Status, done.OrderNumber, done.HoldExpiresAt, done.UpdatedAt = domain.StatusCompleted, "1001", nil, now.Add(time.Minute)
		err = e.DB.InTx(ctx, func(ctx context.Context) error {
			if err := repo.SaveLater(ctx, &done, errStale); err != nil {
				return err
			}
			in, _, err := repo.Get(ctx, cartID)
			if err == nil && (in.Status != domain.StatusCompleted || in.Version != 3) {
				t.Errorf("inside the transaction: %s v%d", in.Status, in.Version)
			}
			return err
		})
		if err != nil || done.Version != 3 {
			t.Fatalf("SaveLater: %v (version %d)", err, done.Version)
		}
		cur, _, err := repo.Get(ctx, cartID)
		if err != nil || cur.Status != domain.StatusCompleted || cur.OrderNumber != "1001" || cur.HoldExpiresAt != nil || cur.Version != 3 ||
			cur.Attempt != 1 || !cur.UpdatedAt.Equal(now.Add(time.Minute)) {
			t.Fatalf("completed session = %+v, %v", cur, err)
		}
		// Outside a transaction SaveLater answers stale itself.
		if err := repo.SaveLater(ctx, &stale, errStale); !errors.Is(err, errStale) {
			t.Fatalf("stale SaveLater alone: %v", err)
		}
	}, checkoutpg.Migrations())
}

// TestSessionDataStaysInTheRow: on PostgreSQL a session's data (here ten shipping
// rates and eight lines, about 5 KB of JSON, over 2 KB compressed) is stored compressed in its row, and
// neither it nor the short columns beside it go to the TOAST table (decision 0245):
// a rewrite of the session writes its row alone.
func TestSessionDataStaysInTheRow(t *testing.T) {
	if !slices.Contains(testdb.Engines(), "postgres") {
		t.Skip("PostgreSQL is not among the test engines")
	}
	e := testdb.Open(t, "postgres", checkoutpg.Migrations())
	ctx := context.Background()
	repo := checkoutpg.NewSessions(e.DB)
	now := time.Now().UTC()
	sess := &domain.Session{
		ID: ids.New(), CartID: ids.New(), Email: "a@example.com", Currency: "USD", Status: domain.StatusOpen,
		ShippingAddress: &domain.Address{FirstName: "A", LastName: "B", Address1: "1 Main St", City: "Springfield", CountryCode: "US", RegionCode: "IL", PostalCode: "12345"},
		CreatedAt:       now, UpdatedAt: now,
	}
	for i := range 10 {
		sess.Rates = append(sess.Rates, domain.Rate{ID: ids.New(), Carrier: "carrier", Name: fmt.Sprintf("Carrier service %d", i), Code: fmt.Sprintf("SERVICE_%d", i),
			Price: decimal.New(int64(1000+i*137), -2), Currency: "USD", EstimatedDays: i%5 + 1})
	}
	for i := range 8 {
		sess.Totals.Lines = append(sess.Totals.Lines, domain.Line{ItemID: ids.New(), ProductID: ids.New(), VariantID: ids.New(), Title: fmt.Sprintf("Product %d", i),
			VariantTitle: "XS", SKU: fmt.Sprintf("SKU-%d-XS", i), Quantity: 1, UnitPrice: decimal.New(19293, -2), Subtotal: decimal.New(19293, -2), RequiresShipping: true})
	}
	if err := repo.Create(ctx, sess); err != nil {
		t.Fatal(err)
	}
	claim := *sess
	claim.Status, claim.OrderID, claim.PaymentID = domain.StatusProcessing, ids.New(), ids.New()
	if ok, err := repo.Claim(ctx, &claim); err != nil || !ok {
		t.Fatalf("claim: %v, %v", ok, err)
	}
	var raw, stored, toast int64
	err := e.DB.Conn(ctx).Raw(`SELECT octet_length(data), pg_column_size(data),
		(SELECT pg_relation_size(reltoastrelid) FROM pg_class WHERE relname = 'checkout_sessions')
		FROM checkout_sessions WHERE cart_id = ?`, sess.CartID).Row().Scan(&raw, &stored, &toast)
	if err != nil {
		t.Fatal(err)
	}
	if raw < 3000 || stored >= raw || toast != 0 {
		t.Fatalf("data of %d bytes stored in %d bytes in the row; TOAST table of %d bytes (want a compressed value in the row and an empty TOAST table)", raw, stored, toast)
	}
}

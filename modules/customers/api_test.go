package customers_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/gocommerce/commerce/modules/customers/api"
	"github.com/gocommerce/commerce/platform/httpxtest"
	"github.com/gocommerce/commerce/platform/ids"
)

// TestCustomersAPI covers what identity's registration uses: CreateCustomer,
// GetCustomer, FindCustomerByEmail and CustomerContact, joining the caller's transaction.
func TestCustomersAPI(t *testing.T) {
	eachEngine(t, func(t *testing.T, h *harness) {
		var svc api.Customers = h.svc
		ctx := context.Background()
		c, err := svc.CreateCustomer(ctx, api.CreateCustomerCommand{Email: "Grace@Example.com", FirstName: "Grace", LastName: "Hopper", State: api.StateEnabled})
		if err != nil {
			t.Fatal(err)
		}
		if !ids.Valid(c.ID) || c.Email != "grace@example.com" || c.State != api.StateEnabled || c.CreatedAt.IsZero() || c.Tags == nil || c.Addresses == nil {
			t.Fatalf("created %+v", c)
		}
		evs := h.Events(api.EventCustomerCreated)
		if len(evs) != 1 || evs[0].AggregateID != c.ID {
			t.Fatalf("events %+v", evs)
		}
		var payload map[string]any
		if err := json.Unmarshal([]byte(evs[0].Payload), &payload); err != nil {
			t.Fatal(err)
		}
		if httpxtest.Keys(payload) != customerKeys || payload["email"] != "grace@example.com" || payload["state"] != "enabled" {
			t.Errorf("event data %v", payload)
		}
		got, err := svc.GetCustomer(ctx, c.ID)
		if err != nil || got.ID != c.ID || !got.CreatedAt.Equal(c.CreatedAt) || got.FirstName != "Grace" {
			t.Fatalf("GetCustomer = %+v, %v", got, err)
		}
		if got, err := svc.FindCustomerByEmail(ctx, " GRACE@example.com"); err != nil || got.ID != c.ID {
			t.Fatalf("FindCustomerByEmail = %+v, %v", got, err)
		}
		for _, bad := range []string{"not-a-uuid", ids.New()} {
			if _, err := svc.GetCustomer(ctx, bad); !errors.Is(err, api.ErrCustomerNotFound) {
				t.Fatalf("GetCustomer(%s): %v", bad, err)
			}
		}
		if _, err := svc.FindCustomerByEmail(ctx, "bad"); !errors.Is(err, api.ErrCustomerNotFound) {
			t.Fatalf("FindCustomerByEmail(bad): %v", err)
		}
		// CustomerContact: GetCustomer's contact by id, FindCustomerByEmail's by email.
		for _, by := range [][2]string{{c.ID, ""}, {"", " GRACE@example.com"}, {c.ID, "someone@else.io"}} {
			if got, err := svc.CustomerContact(ctx, by[0], by[1]); err != nil || got != api.ContactOf(c) || got.FirstName != "Grace" {
				t.Fatalf("CustomerContact(%q, %q) = %+v, %v", by[0], by[1], got, err)
			}
		}
		for _, by := range [][2]string{{"not-a-uuid", ""}, {ids.New(), ""}, {"", "bad"}, {"", "nobody@example.com"}, {"", ""}} {
			if _, err := svc.CustomerContact(ctx, by[0], by[1]); !errors.Is(err, api.ErrCustomerNotFound) {
				t.Fatalf("CustomerContact(%q, %q): %v", by[0], by[1], err)
			}
		}
		if _, err := svc.CreateCustomer(ctx, api.CreateCustomerCommand{Email: "grace@example.com"}); !errors.Is(err, api.ErrEmailTaken) {
			t.Fatalf("duplicate: %v", err)
		}
		if _, err := svc.CreateCustomer(ctx, api.CreateCustomerCommand{Email: "bad"}); !errors.Is(err, api.ErrInvalidEmail) {
			t.Fatalf("bad email: %v", err)
		}

		// A registered (enabled) customer has a password: it may ask for a reset, and be
		// re-enabled after being disabled.
		if err := h.svc.RequestPasswordReset(ctx, "grace@example.com"); err != nil {
			t.Fatal(err)
		}
		if n := len(h.Payloads(api.EventCustomerPasswordReset, c.ID)); n != 1 {
			t.Fatalf("reset for a registered customer: %d events", n)
		}
		h.Must(200, "PUT", "/api/v1/customers/"+c.ID, map[string]any{"state": "disabled"}, "admin")
		h.Must(200, "PUT", "/api/v1/customers/"+c.ID, map[string]any{"state": "enabled"}, "admin")

		// Joined transaction: when the caller's transaction fails, neither the customer
		// nor its event survives.
		boom := errors.New("boom")
		var created api.Customer
		err = h.db.InTx(ctx, func(ctx context.Context) error {
			var err error
			if created, err = svc.CreateCustomer(ctx, api.CreateCustomerCommand{Email: "rollback@example.com", State: api.StateInvited}); err != nil {
				return err
			}
			return boom
		})
		if !errors.Is(err, boom) {
			t.Fatalf("tx: %v", err)
		}
		if _, err := svc.GetCustomer(ctx, created.ID); !errors.Is(err, api.ErrCustomerNotFound) {
			t.Fatalf("rolled back customer still there: %v", err)
		}
		if n := len(h.Events(api.EventCustomerCreated)); n != 1 {
			t.Fatalf("events after rollback: %d, want 1", n)
		}
	})
}

package customers_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	customerspg "github.com/gocommerce/commerce/modules/customers/adapters/postgres"
	"github.com/gocommerce/commerce/modules/customers/api"
	"github.com/gocommerce/commerce/modules/customers/app"
	"github.com/gocommerce/commerce/platform/clock"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/events"
	"github.com/gocommerce/commerce/platform/ids"
	"github.com/gocommerce/commerce/platform/testdb"
)

type outboxEvent struct {
	Type        string
	AggregateID string
	Payload     string
}

func outbox(t *testing.T, d *db.DB, eventType string) []outboxEvent {
	t.Helper()
	var rows []outboxEvent
	if err := d.Gorm().Table("outbox_events").Select("type", "aggregate_id", "payload").Where("type = ?", eventType).Find(&rows).Error; err != nil {
		t.Fatal(err)
	}
	return rows
}

func TestService(t *testing.T) {
	for _, engine := range testdb.Engines() {
		t.Run(engine, func(t *testing.T) {
			t.Parallel()
			e := testdb.Open(t, engine, events.Migrations(), customerspg.Migrations())
			svc := app.NewService(e.DB, customerspg.NewCustomerRepository(e.DB), events.NewOutbox(e.DB), clock.New())
			ctx := context.Background()

			c, err := svc.CreateCustomer(ctx, api.CreateCustomerCommand{Email: "Grace@Example.com", FirstName: "Grace", LastName: "Hopper"})
			if err != nil {
				t.Fatal(err)
			}
			if !ids.Valid(c.ID) || c.Email != "grace@example.com" || c.State != api.StateEnabled || c.CreatedAt.IsZero() {
				t.Fatalf("created %+v", c)
			}
			evs := outbox(t, e.DB, api.EventCustomerCreated)
			if len(evs) != 1 || evs[0].AggregateID != c.ID {
				t.Fatalf("events %+v", evs)
			}
			var payload map[string]any
			if err := json.Unmarshal([]byte(evs[0].Payload), &payload); err != nil {
				t.Fatal(err)
			}
			for _, k := range []string{"id", "email", "first_name", "last_name", "state", "created_at", "updated_at"} {
				if _, ok := payload[k]; !ok {
					t.Errorf("event data lacks %q: %v", k, payload)
				}
			}
			if payload["email"] != "grace@example.com" || payload["state"] != "enabled" {
				t.Errorf("event data %v", payload)
			}

			got, err := svc.GetCustomer(ctx, c.ID)
			if err != nil || got.ID != c.ID || !got.CreatedAt.Equal(c.CreatedAt) {
				t.Fatalf("GetCustomer = %+v, %v", got, err)
			}
			if got, err := svc.FindCustomerByEmail(ctx, " GRACE@example.com"); err != nil || got.ID != c.ID {
				t.Fatalf("FindCustomerByEmail = %+v, %v", got, err)
			}
			if _, err := svc.GetCustomer(ctx, "not-a-uuid"); !errors.Is(err, api.ErrCustomerNotFound) {
				t.Fatalf("malformed id: %v", err)
			}
			if _, err := svc.CreateCustomer(ctx, api.CreateCustomerCommand{Email: "grace@example.com"}); !errors.Is(err, api.ErrEmailTaken) {
				t.Fatalf("duplicate: %v", err)
			}
			if _, err := svc.CreateCustomer(ctx, api.CreateCustomerCommand{Email: "bad"}); !errors.Is(err, api.ErrInvalidEmail) {
				t.Fatalf("bad email: %v", err)
			}

			// Joined transaction: when the caller's transaction fails, neither the
			// customer nor its event survives.
			boom := errors.New("boom")
			var created api.Customer
			err = e.DB.InTx(ctx, func(ctx context.Context) error {
				var err error
				created, err = svc.CreateCustomer(ctx, api.CreateCustomerCommand{Email: "rollback@example.com", State: api.StateInvited})
				if err != nil {
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
			if n := len(outbox(t, e.DB, api.EventCustomerCreated)); n != 1 {
				t.Fatalf("events after rollback: %d, want 1", n)
			}
		})
	}
}

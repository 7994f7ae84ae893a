package postgres_test

import (
	"context"
	"testing"
	"time"

	webhookspg "github.com/gocommerce/commerce/modules/webhooks/adapters/postgres"
	"github.com/gocommerce/commerce/modules/webhooks/domain"
	"github.com/gocommerce/commerce/platform/ids"
	"github.com/gocommerce/commerce/platform/testdb"
)

// TestAddSkipsDisabledEndpoints: a delivery routed to an endpoint that is disabled by
// the time it is inserted (the router read the enabled endpoints before) is not added,
// on every engine; one for an enabled endpoint of the same event is.
func TestAddSkipsDisabledEndpoints(t *testing.T) {
	testdb.EachOpen(t, func(t *testing.T, e *testdb.Engine) {
		ctx := context.Background()
		now := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
		endpoints, deliveries := webhookspg.NewEndpointRepository(e.DB), webhookspg.NewDeliveryRepository(e.DB)
		endpoint := func(enabled bool) *domain.Endpoint {
			ep := &domain.Endpoint{ID: ids.New(), URL: "https://example.com/hook", Events: []string{"*"}, Secret: "whsec_x", Enabled: enabled,
				CreatedAt: now, UpdatedAt: now}
			if err := endpoints.Create(ctx, ep); err != nil {
				t.Fatal(err)
			}
			return ep
		}
		on, off := endpoint(true), endpoint(true)
		off.Enabled, off.DisabledAt, off.DisabledReason = false, &now, "4 consecutive failed attempts"
		if err := endpoints.Update(ctx, off); err != nil {
			t.Fatal(err)
		}
		delivery := func(ep *domain.Endpoint) *domain.Delivery {
			return &domain.Delivery{ID: ids.New(), EndpointID: ep.ID, EventID: "evt_1", EventType: "order.created", Payload: []byte(`{}`),
				Status: domain.StatusPending, NextAttemptAt: &now, CreatedAt: now, UpdatedAt: now}
		}
		if err := deliveries.Add(ctx, delivery(on), delivery(off)); err != nil {
			t.Fatal(err)
		}
		for ep, want := range map[*domain.Endpoint]int{on: 1, off: 0} {
			got, _, total, err := deliveries.List(ctx, ep.ID, 0, 10)
			if err != nil || int(total) != want || len(got) != want {
				t.Errorf("endpoint enabled=%v: %d deliveries (%v), want %d", ep.Enabled, total, err, want)
			}
		}
	}, webhookspg.Migrations())
}

// TestAddRacingDisable (PostgreSQL): a delivery added while its endpoint is being
// disabled ends up failed with the endpoint's other pending deliveries, never pending
// for good. The disabling transaction (the endpoint's row first, then its pending
// deliveries, as the delivery worker's record does) waits for the adding one, which
// holds the endpoint's row with a share lock until it commits.
func TestAddRacingDisable(t *testing.T) {
	testdb.EachOpen(t, func(t *testing.T, e *testdb.Engine) {
		if e.Name != "postgres" {
			t.Skip("SQLite runs one writing transaction at a time")
		}
		ctx := context.Background()
		now := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
		endpoints, deliveries := webhookspg.NewEndpointRepository(e.DB), webhookspg.NewDeliveryRepository(e.DB)
		ep := &domain.Endpoint{ID: ids.New(), URL: "https://example.com/hook", Events: []string{"*"}, Secret: "whsec_x", Enabled: true,
			CreatedAt: now, UpdatedAt: now}
		if err := endpoints.Create(ctx, ep); err != nil {
			t.Fatal(err)
		}
		added, commit, disabled := make(chan struct{}), make(chan struct{}), make(chan error, 1)
		go func() {
			disabled <- func() error {
				<-added // the delivery is inserted, not committed
				return e.DB.InTx(ctx, func(ctx context.Context) error {
					if _, err := endpoints.RecordOutcome(ctx, ep.ID, false, 1, now); err != nil {
						return err
					}
					return deliveries.FailPending(ctx, ep.ID, "endpoint disabled", now)
				})
			}()
		}()
		errAdd := e.DB.InTx(ctx, func(ctx context.Context) error {
			d := &domain.Delivery{ID: ids.New(), EndpointID: ep.ID, EventID: "evt_1", EventType: "order.created", Payload: []byte(`{}`),
				Status: domain.StatusPending, NextAttemptAt: &now, CreatedAt: now, UpdatedAt: now}
			if err := deliveries.Add(ctx, d); err != nil {
				return err
			}
			close(added)
			select {
			case err := <-disabled: // it must wait for this transaction
				disabled <- err
				t.Errorf("the endpoint was disabled while a delivery was being added to it (%v)", err)
			case <-time.After(300 * time.Millisecond):
			}
			close(commit)
			return nil
		})
		if errAdd != nil {
			t.Fatal(errAdd)
		}
		<-commit
		if err := <-disabled; err != nil {
			t.Fatal(err)
		}
		got, _, _, err := deliveries.List(ctx, ep.ID, 0, 10)
		if err != nil || len(got) != 1 || got[0].Status != domain.StatusFailed {
			t.Fatalf("deliveries after the race: %+v, %v", got, err)
		}
	}, webhookspg.Migrations())
}

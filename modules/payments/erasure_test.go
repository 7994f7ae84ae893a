package payments_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"sync"
	"testing"

	"github.com/gocommerce/commerce/modules/payments/adapters/testgateway"
	"github.com/gocommerce/commerce/modules/payments/ports"
	"github.com/gocommerce/commerce/platform/event"
	"github.com/gocommerce/commerce/platform/testdb"
)

// vaultGateway is a tokenizing gateway that remembers what it was asked to forget; it
// refuses to forget the tokens in fail.
type vaultGateway struct {
	*testgateway.Gateway
	mu       sync.Mutex
	n        int
	detached []string
	fail     map[string]bool
}

func (*vaultGateway) ID() string { return "vault" }

func (v *vaultGateway) SaveMethod(ctx context.Context, req ports.SaveMethodRequest) (ports.SavedMethodResult, error) {
	res, err := v.Gateway.SaveMethod(ctx, req)
	v.mu.Lock()
	v.n++
	res.ProviderToken = "vault_pm_" + string(rune('a'+v.n))
	v.mu.Unlock()
	return res, err
}

func (v *vaultGateway) DeleteMethod(_ context.Context, providerToken, _ string) error {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.detached = append(v.detached, providerToken)
	if v.fail[providerToken] {
		return errors.New("provider unavailable")
	}
	return nil
}

func sorted(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return out
}

func (v *vaultGateway) forgotten() []string {
	v.mu.Lock()
	defer v.mu.Unlock()
	return append([]string(nil), v.detached...)
}

// TestSavedMethodsGoWithTheCustomer: customer.deleted and customer.anonymized remove
// every method saved for that customer, detached at the gateway first (best effort: a
// gateway failure is logged and the method still goes); other owners keep theirs, and a
// second delivery of the event changes nothing (docs/decisions/0097).
func TestSavedMethodsGoWithTheCustomer(t *testing.T) {
	testdb.EachEngine(t, func(t *testing.T, engine string) {
		for _, eventType := range []string{"customer.deleted", "customer.anonymized"} {
			t.Run(eventType, func(t *testing.T) {
				vault := &vaultGateway{Gateway: testgateway.New(testgateway.Config{}), fail: map[string]bool{"vault_pm_c": true}}
				s := newStack(t, engine, stackOptions{extra: []ports.Gateway{vault}})
				save := func(cred, gateway string) string {
					t.Helper()
					r := s.do(http.MethodPost, "/api/v1/payments/saved-methods", cred, map[string]any{
						"gateway_id": gateway, "payment_method_data": card("4242424242424242"),
					})
					if r.Code != http.StatusCreated {
						t.Fatalf("save: %d %s", r.Code, r.Raw)
					}
					return r.Body["token"].(string)
				}
				save("alice", "vault") // vault_pm_b
				save("alice", "vault") // vault_pm_c: the provider fails to forget it
				save("alice", "test")
				bobs := save("bob", "vault") // vault_pm_d
				count := func(cred string) int {
					t.Helper()
					r := s.do(http.MethodGet, "/api/v1/payments/saved-methods", cred, nil)
					if r.Code != http.StatusOK {
						t.Fatalf("list: %d %s", r.Code, r.Raw)
					}
					return len(r.Body["data"].([]any))
				}
				if count("alice") != 3 || count("bob") != 1 {
					t.Fatalf("before: alice %d, bob %d", count("alice"), count("bob"))
				}

				data, _ := json.Marshal(map[string]any{"id": aliceID})
				ev := event.Event{ID: "evt_1", Type: eventType, AggregateID: aliceID, Data: data}
				if err := s.sub.HandleCustomerGone(context.Background(), ev); err != nil {
					t.Fatal(err)
				}
				if n := count("alice"); n != 0 {
					t.Fatalf("alice keeps %d saved methods", n)
				}
				if n := s.Count("payments_saved_methods", "owner = ?", "customer:"+aliceID); n != 0 {
					t.Fatalf("rows left for alice: %d", n)
				}
				if got := vault.forgotten(); !slices.Equal(sorted(got), []string{"vault_pm_b", "vault_pm_c"}) {
					t.Fatalf("detached at the gateway: %v", got)
				}
				if s.logs.FilterMessage("gateway could not forget a saved method of an erased customer").Len() != 1 {
					t.Errorf("the failed detach is not logged")
				}
				if count("bob") != 1 {
					t.Fatalf("bob lost his method %s", bobs)
				}
				// At-least-once delivery: the second time finds nothing to do.
				if err := s.sub.HandleCustomerGone(context.Background(), ev); err != nil {
					t.Fatal(err)
				}
				if got := vault.forgotten(); len(got) != 2 {
					t.Fatalf("second delivery detached again: %v", got)
				}
				// A payload without an id is dropped, not retried.
				if err := s.sub.HandleCustomerGone(context.Background(), event.Event{ID: "evt_2", Type: eventType, Data: []byte(`{}`)}); err != nil {
					t.Fatal(err)
				}
			})
		}
	})
}

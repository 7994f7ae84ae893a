package tax_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/tax"
	taxevents "github.com/gocommerce/commerce/modules/tax/adapters/events"
	taxhttp "github.com/gocommerce/commerce/modules/tax/adapters/http"
	taxpg "github.com/gocommerce/commerce/modules/tax/adapters/postgres"
	"github.com/gocommerce/commerce/modules/tax/adapters/vies"
	"github.com/gocommerce/commerce/modules/tax/app"
	"github.com/gocommerce/commerce/platform/clock"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/event"
	"github.com/gocommerce/commerce/platform/httpxtest"
)

// Ids of the shipped data (the migration's fixed ids).
const (
	zoneDE     = "00000000-0000-4000-8000-0000000a0011"
	zoneFR     = "00000000-0000-4000-8000-0000000a0010"
	zoneCA     = "00000000-0000-4000-8000-0000000a0101"
	rateDE     = "00000000-0000-4000-8000-0000000b0011"
	rateFR     = "00000000-0000-4000-8000-0000000b0010"
	rateCA     = "00000000-0000-4000-8000-0000000b0101"
	catDigital = "00000000-0000-4000-8000-0000000c0001"
	catFood    = "00000000-0000-4000-8000-0000000c0002"
)

// VAT ids the VIES stand-in knows.
const (
	vatDE      = "DE123456789" // valid, Musterfirma GmbH
	vatFR      = "FR40303265045"
	vatUnknown = "DE999999999" // well formed, not registered
	vatBusy    = "NL123456789B01"
)

var principals = httpxtest.Preset().With(httpxtest.ReadWrite("tax")).With(httpxtest.Principals{
	"taxadmin": httpxtest.APIKey("k4", "tax:admin"),
	"products": httpxtest.APIKey("k5", "products:read"),
	"customer": httpxtest.Customer("0190a000-0000-7000-8000-0000000000c1", ""),
})

// viesStandIn answers like the VIES REST API (GET /ms/{cc}/vat/{number}); mode
// "outage" answers 500, "slow" waits past the client's timeout, "busy" answers
// userError MS_UNAVAILABLE.
type viesStandIn struct {
	srv   *httptest.Server
	calls atomic.Int32
	mu    sync.Mutex
	mode  string
}

func newVIES(t testing.TB) *viesStandIn {
	v := &viesStandIn{}
	v.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		v.calls.Add(1)
		v.mu.Lock()
		mode := v.mode
		v.mu.Unlock()
		parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/") // ms/{cc}/vat/{number}
		if len(parts) != 4 || parts[0] != "ms" || parts[2] != "vat" {
			http.NotFound(w, r)
			return
		}
		id := parts[1] + parts[3]
		switch {
		case mode == "outage":
			http.Error(w, `{"errorWrappers":[{"error":"SERVICE_UNAVAILABLE"}]}`, http.StatusInternalServerError)
			return
		case mode == "slow":
			select {
			case <-time.After(2 * time.Second):
			case <-r.Context().Done():
				return
			}
		case id == vatBusy:
			writeJSON(w, map[string]any{"isValid": false, "userError": "MS_UNAVAILABLE", "name": "---", "address": "---"})
			return
		}
		switch id {
		case vatDE:
			writeJSON(w, map[string]any{"isValid": true, "requestDate": "2026-06-15T10:00:00.000Z", "userError": "VALID",
				"name": "Musterfirma GmbH", "address": "Musterstr. 1, 10115 Berlin", "vatNumber": parts[3]})
		case vatFR:
			writeJSON(w, map[string]any{"isValid": true, "userError": "VALID", "name": "---", "address": "---", "vatNumber": parts[3]})
		default:
			writeJSON(w, map[string]any{"isValid": false, "userError": "INVALID", "name": "---", "address": "---", "vatNumber": parts[3]})
		}
	}))
	t.Cleanup(v.srv.Close)
	return v
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

func (v *viesStandIn) set(mode string) { v.mu.Lock(); v.mode = mode; v.mu.Unlock() }

// harness is the module on a fresh database; its Server checks each answer against
// the OpenAPI fragment.
type harness struct {
	*httpxtest.Harness
	svc   *app.Service
	bare  http.Handler // the server alone (benchmarks)
	vies  *viesStandIn
	clock *clock.Fake
	sub   *taxevents.Subscriber
}

// today is the harness's day: the shipped rates are valid from 2026-01-01.
var t0 = time.Date(2026, 6, 15, 10, 0, 0, 0, time.UTC)

// newHarness builds the module on a fresh database of engine; the defaults: the store
// is in DE (tax.oss_member_state), VIES validation on against the stand-in.
func newHarness(t testing.TB, engine string, mutate func(*config.Config)) *harness {
	t.Helper()
	env := httpxtest.NewEnv(t, engine, t0, tax.Migrations())
	v := newVIES(t)
	cfg := &env.Config
	cfg.Tax.OSSMemberState = "DE"
	cfg.Tax.ValidateVATIDs = true
	cfg.Tax.VIESURL = v.srv.URL
	cfg.Tax.VIESTimeout = 300 * time.Millisecond
	if mutate != nil {
		mutate(cfg)
	}
	provider, err := tax.NewProvider(cfg)
	if err != nil {
		t.Fatal(err)
	}
	svc := app.NewService(tax.NewSettings(cfg), env.DB,
		app.Deps{Repo: taxpg.NewRepository(env.DB), VIES: vies.New(cfg), Provider: provider}, env.Clock)
	sub := taxevents.NewSubscriber(svc, zap.NewNop())
	srv := httpxtest.NewServer(t, cfg, nil, principals, tax.NewModule(taxhttp.NewHandler(svc), sub))
	return &harness{Harness: httpxtest.New(t, docs.Wrap(t, srv), env.DB), svc: svc, bare: srv, vies: v, clock: env.Clock, sub: sub}
}

// eachEngine runs fn on a fresh harness per engine, in parallel.
func eachEngine(t *testing.T, mutate func(*config.Config), fn func(t *testing.T, h *harness)) {
	t.Helper()
	httpxtest.EachEngine(t, func(t *testing.T, engine string) *harness { return newHarness(t, engine, mutate) }, fn)
}

// docs checks every response against the module's OpenAPI document.
var docs = httpxtest.Docs(func() *tax.Module { return tax.NewModule(nil, nil) })

// calc posts a calculation with the reader key and wants 200.
func (h *harness) calc(body map[string]any) map[string]any {
	h.T.Helper()
	return h.As("reader").Must(http.StatusOK, http.MethodPost, calcPath, body).Body
}

// order hands an order.created to the module's subscriber.
func (h *harness) order(data map[string]any) {
	h.T.Helper()
	if err := h.sub.Handle(h.T.Context(), orderEvent(h.T, data)); err != nil {
		h.T.Fatal(err)
	}
}

func item(id string, price any, qty int, extra ...any) map[string]any {
	m := map[string]any{"id": id, "product_id": "p-" + id, "quantity": qty, "unit_price": price, "title": "Item " + id}
	for i := 0; i+1 < len(extra); i += 2 {
		m[extra[i].(string)] = extra[i+1]
	}
	return m
}

func addr(country string, region ...string) map[string]any {
	m := map[string]any{"country_code": country, "postal_code": "12345", "city": "City"}
	if len(region) > 0 {
		m["region_code"] = region[0]
	}
	return m
}

func lines(r map[string]any) []map[string]any { return httpxtest.Objects(r["line_items"]) }

func breakdown(r map[string]any) []map[string]any { return httpxtest.Objects(r["tax_breakdown"]) }

func orderEvent(t testing.TB, data map[string]any) event.Event {
	t.Helper()
	raw, err := json.Marshal(data)
	if err != nil {
		t.Fatal(err)
	}
	return eventOf(string(raw))
}

func eventOf(data string) event.Event {
	return event.Event{ID: "evt_1", Type: "order.created", Data: json.RawMessage(data)}
}

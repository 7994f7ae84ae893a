package shipping_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"
	"go.uber.org/zap"

	orders "github.com/gocommerce/commerce/modules/orders/api"
	"github.com/gocommerce/commerce/modules/shipping"
	"github.com/gocommerce/commerce/modules/shipping/adapters/carriers"
	shippinghttp "github.com/gocommerce/commerce/modules/shipping/adapters/http"
	shippingpg "github.com/gocommerce/commerce/modules/shipping/adapters/postgres"
	"github.com/gocommerce/commerce/modules/shipping/app"
	"github.com/gocommerce/commerce/modules/shipping/domain"
	"github.com/gocommerce/commerce/modules/shipping/ports"
	"github.com/gocommerce/commerce/platform/clock"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/httpx"
	"github.com/gocommerce/commerce/platform/httpxtest"
	"github.com/gocommerce/commerce/platform/testdb"
)

const (
	customer1 = "0190a000-0000-7000-8000-0000000000c1"
	customer2 = "0190a000-0000-7000-8000-0000000000c2"
	orderID   = "0190a000-0000-7000-8000-00000000d001"
	secret    = "whsec-test"
)

var principals = httpxtest.Preset().With(httpxtest.ReadWrite("shipping")).With(httpxtest.Principals{
	"other":     httpxtest.APIKey("k4", "products:read"),
	"customer":  httpxtest.Customer(customer1, ""),
	"customer2": httpxtest.Customer(customer2, ""),
})

// fakeOrders knows one order, of customer1.
type fakeOrders struct{}

func (fakeOrders) Order(_ context.Context, id string) (ports.Order, error) {
	if id != orderID {
		return ports.Order{}, orders.ErrOrderNotFound
	}
	c := customer1
	return ports.Order{ID: id, CustomerID: customer1, Resource: orders.Order{ID: id, OrderNumber: "1001", CustomerID: &c}}, nil
}

// memStorage keeps label files in memory.
type memStorage struct {
	mu    sync.Mutex
	files map[string][]byte
}

func (m *memStorage) Put(_ context.Context, key, _ string, data []byte) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.files[key] = data
	return "/uploads/" + key, nil
}

// stubCarrier is a programmable live carrier: fixed rates, an error, a delay, and
// tracking events to report.
type stubCarrier struct {
	code  string
	delay time.Duration
	err   error
	rates []domain.Rate

	mu     sync.Mutex
	events []domain.TrackingEvent
	calls  int
	// push reads the carrier's own webhook body (nil: the carrier pushes none).
	push func(body []byte) (string, []domain.TrackingEvent, error)
}

func (s *stubCarrier) ParsePush(body []byte) (string, []domain.TrackingEvent, error) {
	if s.push == nil {
		return "", nil, domain.ErrInvalidCarrier
	}
	return s.push(body)
}

func (s *stubCarrier) Code() string                { return s.code }
func (s *stubCarrier) Live() bool                  { return true }
func (s *stubCarrier) TrackingURL(n string) string { return "https://track.example/" + n }
func (s *stubCarrier) Rates(ctx context.Context, _ domain.RateRequest) ([]domain.Rate, error) {
	if s.delay > 0 {
		select {
		case <-time.After(s.delay):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return s.rates, s.err
}
func (s *stubCarrier) CreateLabel(_ context.Context, req ports.LabelRequest) (ports.Label, error) {
	if s.err != nil {
		return ports.Label{}, s.err
	}
	return ports.Label{TrackingNumber: "STUB" + req.Shipment.ID[:8], ServiceName: "Stub", Price: decimal.RequireFromString("12.34"),
		Currency: "USD", Image: []byte("label"), ContentType: "image/png"}, nil
}
func (s *stubCarrier) Track(context.Context, string) ([]domain.TrackingEvent, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls++
	return append([]domain.TrackingEvent(nil), s.events...), s.err
}

type harness struct {
	*httpxtest.Harness
	t        *testing.T
	svc      *app.Service
	clock    *clock.Fake
	storage  *memStorage
	jobs     *shipping.Jobs
	carriers app.Carriers
}

// Wednesday, so business days are easy to count.
var t0 = time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)

// tables are the carriers of a store without credentials: the built-in rate tables.
func tables() app.Carriers {
	cfg := config.Default()
	return carriers.New(&cfg)
}

func newHarness(t *testing.T, engine string, carriers app.Carriers) *harness {
	t.Helper()
	env := httpxtest.NewEnv(t, engine, t0, shipping.Migrations())
	clk := env.Clock
	store := &memStorage{files: map[string][]byte{}}
	settings := app.SettingsFrom(&env.Config)
	settings.RatesTimeout = 300 * time.Millisecond
	settings.WebhookSecret = secret
	svc := app.NewService(env.DB, shippingpg.NewShipmentRepository(env.DB), carriers, store, fakeOrders{}, env.Outbox(), clk, settings)
	j := shipping.NewJobs(svc, zap.NewNop())
	mod := shipping.NewModule(shippinghttp.NewHandler(svc), j)
	return &harness{Harness: env.Serve(principals, docs, mod), t: t, svc: svc, clock: clk, storage: store, jobs: j, carriers: carriers}
}

// eachEngine runs fn on a fresh harness (built-in tables) per engine, in parallel.
func eachEngine(t *testing.T, fn func(t *testing.T, h *harness)) {
	t.Helper()
	eachEngineWith(t, tables, fn)
}

func eachEngineWith(t *testing.T, carriers func() app.Carriers, fn func(t *testing.T, h *harness)) {
	t.Helper()
	testdb.EachEngine(t, func(t *testing.T, engine string) { fn(t, newHarness(t, engine, carriers())) })
}

var docs = httpxtest.Docs(func() *shipping.Module { return shipping.NewModule(nil, nil) })

// outbox returns the types of the stored events, oldest first.
func (h *harness) outbox() []string {
	h.t.Helper()
	return httpx.Map(h.Events(), func(e httpxtest.Event) string { return e.Type })
}

// svcCarrier returns the harness's stub carrier of a code.
func (h *harness) svcCarrier(code string) *stubCarrier {
	h.t.Helper()
	for _, c := range h.carriers {
		if s, ok := c.(*stubCarrier); ok && s.code == code {
			return s
		}
	}
	h.t.Fatalf("no stub carrier %s", code)
	return nil
}

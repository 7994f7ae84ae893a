package customers_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"

	"github.com/shopspring/decimal"
	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/customers"
	customersevents "github.com/gocommerce/commerce/modules/customers/adapters/events"
	customershttp "github.com/gocommerce/commerce/modules/customers/adapters/http"
	customersjobs "github.com/gocommerce/commerce/modules/customers/adapters/jobs"
	"github.com/gocommerce/commerce/modules/customers/adapters/none"
	customerspg "github.com/gocommerce/commerce/modules/customers/adapters/postgres"
	"github.com/gocommerce/commerce/modules/customers/app"
	"github.com/gocommerce/commerce/modules/customers/domain"
	"github.com/gocommerce/commerce/modules/customers/ports"
	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/auth"
	"github.com/gocommerce/commerce/platform/clock"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/event"
	"github.com/gocommerce/commerce/platform/events"
	"github.com/gocommerce/commerce/platform/httpx"
	"github.com/gocommerce/commerce/platform/httpxtest"
	"github.com/gocommerce/commerce/platform/ids"
	"github.com/gocommerce/commerce/platform/openapi"
	"github.com/gocommerce/commerce/platform/testdb"
)

// fakeAuth maps bearer credentials to principals: fixed API keys and staff, and
// "cust:<id>" for a customer token with the default customer scopes.
type fakeAuth struct{ customerScopes []string }

func (f fakeAuth) Authenticate(_ context.Context, cred, _ string) (*auth.Principal, error) {
	switch cred {
	case "admin":
		return &auth.Principal{Kind: auth.APIKey, ID: "k1", KeyPrefix: "AdMiN123", Scopes: []string{"admin"}}, nil
	case "staff":
		return &auth.Principal{Kind: auth.Staff, ID: "s1", Scopes: []string{"admin"}}, nil
	case "reader":
		return &auth.Principal{Kind: auth.APIKey, ID: "k2", KeyPrefix: "ReAdEr12", Scopes: []string{"customers:read"}}, nil
	case "writer":
		return &auth.Principal{Kind: auth.APIKey, ID: "k3", KeyPrefix: "WrItEr12", Scopes: []string{"customers:write"}}, nil
	case "orders":
		return &auth.Principal{Kind: auth.APIKey, ID: "k4", KeyPrefix: "OrDeRs12", Scopes: []string{"orders:read"}}, nil
	}
	if id, ok := strings.CutPrefix(cred, "cust:"); ok {
		return &auth.Principal{Kind: auth.Customer, ID: id, Email: "x@example.com", Scopes: f.customerScopes}, nil
	}
	return nil, apperr.Unauthorized("Unauthorized: Invalid token")
}

// fakeCredentials stands in for identity's api.Credentials behind the customers port.
// Rows go through db.Conn(ctx), so they join the use case's transaction like the real
// ones; "hashes" are "hash:<password>".
type fakeCredentials struct{ db *db.DB }

type credentialRow struct {
	CustomerID string `gorm:"primaryKey"`
	Email      string `gorm:"uniqueIndex"`
	Hash       string
}

func (credentialRow) TableName() string { return "test_credentials" }

func (f *fakeCredentials) HashPassword(p string) (string, error) {
	var letter, digit bool
	for _, r := range p {
		letter = letter || unicode.IsLetter(r)
		digit = digit || unicode.IsDigit(r)
	}
	if len(p) < 8 || len(p) > 72 || !letter || !digit {
		return "", domain.ErrInvalidPassword
	}
	return "hash:" + p, nil
}

func (f *fakeCredentials) SetPasswordHash(ctx context.Context, id, email, hash string) error {
	conn := f.db.Conn(ctx)
	if err := conn.Where("customer_id = ?", id).Delete(&credentialRow{}).Error; err != nil {
		return err
	}
	if err := conn.Create(&credentialRow{CustomerID: id, Email: email, Hash: hash}).Error; err != nil {
		if db.IsDuplicate(err) {
			return domain.ErrEmailTaken
		}
		return err
	}
	return nil
}

func (f *fakeCredentials) DeleteCredentials(ctx context.Context, id string) error {
	return f.db.Conn(ctx).Where("customer_id = ?", id).Delete(&credentialRow{}).Error
}

func (f *fakeCredentials) UpdateEmail(ctx context.Context, id, email string) error {
	return f.db.Conn(ctx).Model(&credentialRow{}).Where("customer_id = ?", id).Update("email", email).Error
}

// revocationRow records a RevokeTokens call; it joins the use case's transaction, so a
// rolled-back use case leaves none.
type revocationRow struct {
	ID         uint `gorm:"primaryKey"`
	CustomerID string
}

func (revocationRow) TableName() string { return "test_token_revocations" }

func (f *fakeCredentials) RevokeTokens(ctx context.Context, id string) error {
	return f.db.Conn(ctx).Create(&revocationRow{CustomerID: id}).Error
}

// revocations counts the committed RevokeTokens calls for the customer.
func (f *fakeCredentials) revocations(t *testing.T, id string) int64 {
	t.Helper()
	var n int64
	if err := f.db.Gorm().Model(&revocationRow{}).Where("customer_id = ?", id).Count(&n).Error; err != nil {
		t.Fatal(err)
	}
	return n
}

// get returns the customer's credential (email, hash) or ok false.
func (f *fakeCredentials) get(t *testing.T, id string) (credentialRow, bool) {
	t.Helper()
	var rows []credentialRow
	if err := f.db.Gorm().Where("customer_id = ?", id).Find(&rows).Error; err != nil {
		t.Fatal(err)
	}
	if len(rows) == 0 {
		return credentialRow{}, false
	}
	return rows[0], true
}

// fakeOrders is the orders port with settable answers.
type fakeOrders struct {
	none.Orders
	mu         sync.Mutex
	has        map[string]bool
	orders     map[string][]ports.OrderSummary
	lastFilter ports.OrderFilter
	anonymized []string
}

func (f *fakeOrders) HasOrders(_ context.Context, id string) (bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.has[id], nil
}

func (f *fakeOrders) ListOrders(_ context.Context, id string, flt ports.OrderFilter, offset, limit int) ([]ports.OrderSummary, int64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.lastFilter = flt
	all := f.orders[id]
	end := min(offset+limit, len(all))
	if offset > len(all) {
		offset = end
	}
	return all[offset:end], int64(len(all)), nil
}

func (f *fakeOrders) ExportOrders(_ context.Context, id string) ([]ports.Record, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []ports.Record
	for _, o := range f.orders[id] {
		out = append(out, ports.Record{"id": o.ID, "order_number": o.OrderNumber})
	}
	return out, nil
}

func (f *fakeOrders) AnonymizeCustomerOrders(_ context.Context, id string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.anonymized = append(f.anonymized, id)
	return nil
}

type harness struct {
	t      *testing.T
	engine string
	db     *db.DB
	svc    *app.Service
	srv    http.Handler
	creds  *fakeCredentials
	orders *fakeOrders
	clock  *clock.Fake
	sub    *customersevents.Subscriber
	jobs   *customersjobs.Jobs
}

var t0 = time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)

func newHarness(t *testing.T, engine string) *harness {
	t.Helper()
	e := testdb.Open(t, engine, events.Migrations(), customers.Migrations())
	if err := e.DB.Gorm().AutoMigrate(&credentialRow{}, &revocationRow{}); err != nil {
		t.Fatal(err)
	}
	cfg := config.Default()
	cfg.Security.JWT.Secret = "test-secret-0123456789-abcdefghijklmnop"
	cfg.HTTP.PublicURL = "https://shop.example.com/"
	clk := clock.NewFake(t0)
	creds := &fakeCredentials{db: e.DB}
	orders := &fakeOrders{has: map[string]bool{}, orders: map[string][]ports.OrderSummary{}}
	stores := app.Stores{
		Customers: customerspg.NewCustomerRepository(e.DB), Addresses: customerspg.NewAddressRepository(e.DB),
		Tokens: customerspg.NewTokenRepository(e.DB), Stats: customerspg.NewOrderStatsRepository(e.DB),
		Segments: customerspg.NewSegmentRepository(e.DB), Audit: customerspg.NewAuditRepository(e.DB),
	}
	others := app.Collaborators{Credentials: creds, Orders: orders, Carts: none.NewCarts(), Subscriptions: none.NewSubscriptions(), Notifications: none.NewNotifications()}
	svc := app.NewService(customers.NewSettings(&cfg), e.DB, stores, others, events.NewOutbox(e.DB), clk)
	sub := customersevents.NewSubscriber(svc, zap.NewNop())
	jobs := customersjobs.NewJobs(svc, zap.NewNop())
	srv, err := httpx.NewServer(&cfg, zap.NewNop(), fakeAuth{customerScopes: cfg.Security.CustomerScopes}, nil, nil, nil,
		[]httpx.Module{customers.NewModule(customershttp.NewHandler(svc), sub, jobs)})
	if err != nil {
		t.Fatal(err)
	}
	return &harness{t: t, engine: engine, db: e.DB, svc: svc, srv: docs.Wrap(t, srv), creds: creds, orders: orders, clock: clk, sub: sub, jobs: jobs}
}

// eachEngine runs fn on a fresh harness per engine, in parallel.
func eachEngine(t *testing.T, fn func(t *testing.T, h *harness)) {
	t.Helper()
	for _, engine := range testdb.Engines() {
		t.Run(engine, func(t *testing.T) {
			t.Parallel()
			fn(t, newHarness(t, engine))
		})
	}
}

type response httpxtest.Response

func (r response) data() map[string]any { return httpxtest.Response(r).Data() }

func (r response) list() []map[string]any { return httpxtest.Response(r).List() }

func (r response) pagination() map[string]any { return httpxtest.Response(r).Pagination() }

func (r response) err() map[string]any { return httpxtest.Response(r).Err() }

// do sends a request; body is JSON-encoded unless it is a string (sent raw).
func (h *harness) do(method, path string, body any, cred string) response {
	h.t.Helper()
	return response(httpxtest.Do(h.t, h.srv, method, path, body, cred))
}

// must sends a request and fails unless the status matches.
func (h *harness) must(status int, method, path string, body any, cred string) response {
	h.t.Helper()
	return response(httpxtest.Must(h.t, h.srv, status, method, path, body, cred))
}

// assertError checks the envelope: status, code (spec string or the status), category
// and a request id.
func assertError(t *testing.T, r response, status int, code any, category string) {
	t.Helper()
	httpxtest.AssertError(t, httpxtest.Response(r), status, code, category)
	httpxtest.AssertRequestID(t, httpxtest.Response(r))
}

// fields returns the validation fields of an error response.
func fields(r response) map[string]any { return httpxtest.Response(r).Fields() }

// createCustomer creates a customer through the API with the admin key.
func (h *harness) createCustomer(body map[string]any) map[string]any {
	h.t.Helper()
	return h.must(http.StatusCreated, http.MethodPost, "/api/v1/customers", body, "admin").data()
}

// enabled creates an enabled customer with a password.
func (h *harness) enabled(email string, extra map[string]any) map[string]any {
	h.t.Helper()
	body := map[string]any{"email": email, "first_name": "Test", "last_name": "User", "password": "secret-pass-1", "password_confirmation": "secret-pass-1"}
	for k, v := range extra {
		body[k] = v
	}
	return h.createCustomer(body)
}

type outboxEvent struct {
	Type        string
	AggregateID string
	Payload     string
}

// events returns the outbox events of a type (all types when empty), oldest first.
func (h *harness) events(eventType string) []outboxEvent {
	h.t.Helper()
	q := h.db.Gorm().Table("outbox_events").Select("type", "aggregate_id", "payload").Order("occurred_at, id")
	if eventType != "" {
		q = q.Where("type = ?", eventType)
	}
	var rows []outboxEvent
	if err := q.Find(&rows).Error; err != nil {
		h.t.Fatal(err)
	}
	return rows
}

// eventsFor returns the decoded payloads of a type for one aggregate.
func (h *harness) eventsFor(eventType, aggregate string) []map[string]any {
	h.t.Helper()
	var out []map[string]any
	for _, e := range h.events(eventType) {
		if e.AggregateID != aggregate {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(e.Payload), &m); err != nil {
			h.t.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}

// order feeds an order event through the module's subscriber, as the relay would.
func (h *harness) order(eventType string, data map[string]any) {
	h.t.Helper()
	raw, err := json.Marshal(data)
	if err != nil {
		h.t.Fatal(err)
	}
	if err := h.sub.HandleOrder(context.Background(), event.Event{ID: "evt_" + ids.New(), Type: eventType, Data: raw}); err != nil {
		h.t.Fatal(err)
	}
}

func orderData(id, customer, number, total, status, financial string, created, updated time.Time) map[string]any {
	return map[string]any{
		"id": id, "order_number": number, "customer_id": customer, "total_price": total, "currency": "USD",
		"status": status, "financial_status": financial, "fulfillment_status": "unfulfilled",
		"created_at": created.Format(time.RFC3339Nano), "updated_at": updated.Format(time.RFC3339Nano),
	}
}

func keys(m map[string]any) string { return httpxtest.Keys(m) }

func count(t *testing.T, d *db.DB, table, where string, args ...any) int64 {
	t.Helper()
	var n int64
	if err := d.Gorm().Table(table).Where(where, args...).Count(&n).Error; err != nil {
		t.Fatal(err)
	}
	return n
}

func ids_(list []map[string]any) []string {
	out := make([]string, len(list))
	for i, m := range list {
		out[i], _ = m["id"].(string)
	}
	return out
}

func isErr(err, target error) bool { return errors.Is(err, target) }

type ports_OrderSummary = ports.OrderSummary

func orderSummary(id, number string) ports.OrderSummary {
	return ports.OrderSummary{ID: id, OrderNumber: number, Email: "x@example.com", TotalPrice: decimal.RequireFromString("25.5"), Currency: "USD",
		Status: "open", FinancialStatus: "paid", FulfillmentStatus: "unfulfilled", CreatedAt: t0, UpdatedAt: t0}
}

// docs checks every response against the module's OpenAPI fragment: each answer the
// tests provoke must be documented with its status and match its schema.
var docs = httpxtest.NewValidator(func() openapi.Fragment { return customers.NewModule(nil, nil, nil).OpenAPI() })

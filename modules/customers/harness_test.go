package customers_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"sync"
	"testing"
	"time"
	"unicode"

	"github.com/shopspring/decimal"
	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/customers"
	customersevents "github.com/gocommerce/commerce/modules/customers/adapters/events"
	customershttp "github.com/gocommerce/commerce/modules/customers/adapters/http"
	"github.com/gocommerce/commerce/modules/customers/adapters/none"
	customerspg "github.com/gocommerce/commerce/modules/customers/adapters/postgres"
	"github.com/gocommerce/commerce/modules/customers/app"
	"github.com/gocommerce/commerce/modules/customers/domain"
	"github.com/gocommerce/commerce/modules/customers/ports"
	"github.com/gocommerce/commerce/platform/clock"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/event"
	"github.com/gocommerce/commerce/platform/httpxtest"
	"github.com/gocommerce/commerce/platform/ids"
	"github.com/gocommerce/commerce/platform/testdb"
)

// principals: fixed API keys and staff, and "cust:<id>" for a customer token with the
// default customer scopes.
var principals = httpxtest.Principals{
	"admin":  httpxtest.APIKey("AdMiN123", "admin"),
	"staff":  httpxtest.Staff("s1", ""),
	"reader": httpxtest.APIKey("ReAdEr12", "customers:read"),
	"writer": httpxtest.APIKey("WrItEr12", "customers:write"),
	"orders": httpxtest.APIKey("OrDeRs12", "orders:read"),
	"cust:":  httpxtest.Customer("", "x@example.com"),
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

// testTables are the fakes' tables (credentialRow, revocationRow).
var testTables = testdb.Tables("customers_test",
	"CREATE TABLE test_credentials (customer_id {{.Text}} PRIMARY KEY, email {{.Text}}, hash {{.Text}})",
	"CREATE UNIQUE INDEX idx_test_credentials_email ON test_credentials (email)",
	"CREATE TABLE test_token_revocations (id {{if .Postgres}}BIGSERIAL{{else}}INTEGER{{end}} PRIMARY KEY, customer_id {{.Text}})")

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

// harness is the customers module on a fresh database with fake collaborators.
type harness struct {
	*httpxtest.Harness
	t      *testing.T
	engine string
	db     *db.DB
	svc    *app.Service
	creds  *fakeCredentials
	orders *fakeOrders
	clock  *clock.Fake
	sub    *customersevents.Subscriber
	jobs   *customers.Jobs
}

var t0 = time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)

func newHarness(t *testing.T, engine string) *harness {
	t.Helper()
	env := httpxtest.NewEnv(t, engine, t0, customers.Migrations(), testTables)
	env.Config.Security.JWT.Secret = "test-secret-0123456789-abcdefghijklmnop"
	env.Config.HTTP.PublicURL = "https://shop.example.com/"
	clk := env.Clock
	creds := &fakeCredentials{db: env.DB}
	orders := &fakeOrders{has: map[string]bool{}, orders: map[string][]ports.OrderSummary{}}
	stores := app.Stores{
		Customers: customerspg.NewCustomerRepository(env.DB), Addresses: customerspg.NewAddressRepository(env.DB),
		Tokens: customerspg.NewTokenRepository(env.DB), Stats: customerspg.NewOrderStatsRepository(env.DB),
		Segments: customerspg.NewSegmentRepository(env.DB), Audit: customerspg.NewAuditRepository(env.DB),
	}
	others := app.Collaborators{Credentials: creds, Orders: orders, Carts: none.Records{}, Subscriptions: none.Records{}, Notifications: none.Records{}}
	svc := app.NewService(customers.NewSettings(&env.Config), env.DB, stores, others, env.Outbox(), clk)
	sub := customersevents.NewSubscriber(svc, zap.NewNop())
	jobs := customers.NewJobs(svc, zap.NewNop())
	return &harness{Harness: env.Serve(principals, docs, customers.NewModule(customershttp.NewHandler(svc), sub, jobs)), t: t, engine: engine, db: env.DB, svc: svc, creds: creds, orders: orders, clock: clk, sub: sub, jobs: jobs}
}

// eachEngine runs fn on a fresh harness per engine, in parallel.
func eachEngine(t *testing.T, fn func(t *testing.T, h *harness)) {
	httpxtest.EachEngine(t, newHarness, fn)
}

var assertError = httpxtest.AssertError

// createCustomer creates a customer through the API with the admin key.
func (h *harness) createCustomer(body map[string]any) map[string]any {
	h.t.Helper()
	return h.Must(http.StatusCreated, http.MethodPost, "/api/v1/customers", body, "admin").Data()
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

func isErr(err, target error) bool { return errors.Is(err, target) }

type ports_OrderSummary = ports.OrderSummary

func orderSummary(id, number string) ports.OrderSummary {
	return ports.OrderSummary{ID: id, OrderNumber: number, Email: "x@example.com", TotalPrice: decimal.RequireFromString("25.5"), Currency: "USD",
		Status: "open", FinancialStatus: "paid", FulfillmentStatus: "unfulfilled", CreatedAt: t0, UpdatedAt: t0}
}

// docs checks every response against the module's OpenAPI fragment: each answer the
// tests provoke must be documented with its status and match its schema.
var docs = httpxtest.Docs(func() *customers.Module { return customers.NewModule(nil, nil, nil) })

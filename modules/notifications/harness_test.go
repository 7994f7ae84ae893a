package notifications_test

import (
	"cmp"
	"context"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"go.uber.org/zap"

	customers "github.com/gocommerce/commerce/modules/customers/api"
	"github.com/gocommerce/commerce/modules/notifications"
	"github.com/gocommerce/commerce/modules/notifications/adapters/channels"
	notificationsevents "github.com/gocommerce/commerce/modules/notifications/adapters/events"
	notificationshttp "github.com/gocommerce/commerce/modules/notifications/adapters/http"
	notificationsjobs "github.com/gocommerce/commerce/modules/notifications/adapters/jobs"
	notificationspg "github.com/gocommerce/commerce/modules/notifications/adapters/postgres"
	"github.com/gocommerce/commerce/modules/notifications/app"
	"github.com/gocommerce/commerce/modules/notifications/domain"
	"github.com/gocommerce/commerce/modules/notifications/notificationstest"
	"github.com/gocommerce/commerce/modules/notifications/ports"
	"github.com/gocommerce/commerce/platform/clock"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/event"
	"github.com/gocommerce/commerce/platform/httpxtest"
	"github.com/gocommerce/commerce/platform/jobs/inprocess"
	"github.com/gocommerce/commerce/platform/jobs/jobstest"
)

const (
	customer1  = "0190a000-0000-7000-8000-0000000000c1"
	customer2  = "0190a000-0000-7000-8000-0000000000c2"
	hookSecret = "whsec-notifications"
)

var principals = httpxtest.Preset().With(httpxtest.ReadWrite("notifications")).With(httpxtest.Principals{
	"other":     httpxtest.APIKey("k4", "products:read"),
	"customer":  httpxtest.Customer(customer1, "ada@example.com", "notifications:read"),
	"customer2": httpxtest.Customer(customer2, "bob@example.com", "notifications:read"),
})

var docs = httpxtest.Docs(func() *notifications.Module { return notifications.NewModule(nil, nil, nil) })

// fakeCustomers knows two customers; only the first accepts marketing.
type fakeCustomers struct{}

func (fakeCustomers) Customer(_ context.Context, id string) (ports.Customer, error) {
	switch id {
	case customer1:
		return ports.Customer{ID: id, Email: "ada@example.com", FirstName: "Ada", LastName: "Lovelace", AcceptsMarketing: true}, nil
	case customer2:
		return ports.Customer{ID: id, Email: "bob@example.com", FirstName: "Bob"}, nil
	}
	return ports.Customer{}, customers.ErrCustomerNotFound
}

func (f fakeCustomers) CustomerByEmail(ctx context.Context, email string) (ports.Customer, error) {
	for _, id := range []string{customer1, customer2} {
		if c, _ := f.Customer(ctx, id); c.Email == email {
			return c, nil
		}
	}
	return ports.Customer{}, customers.ErrCustomerNotFound
}

func (fakeCustomers) ActivationLink(_ context.Context, id string) (ports.Link, error) {
	return ports.Link{URL: "https://shop.example/account/activate/" + id + "/tok", ExpiresAt: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)}, nil
}

func (fakeCustomers) PasswordResetLink(_ context.Context, id string) (ports.Link, error) {
	return ports.Link{URL: "https://shop.example/account/reset/" + id + "/tok", ExpiresAt: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)}, nil
}

// recorder is a channel that keeps what it is asked to send (sms, push, webhook
// stand-ins in the HTTP tests; the channels have their own protocol tests).
type recorder struct {
	name string
	mu   sync.Mutex
	sent []*domain.Notification
}

func (r *recorder) Name() string { return r.name }
func (r *recorder) Send(_ context.Context, n *domain.Notification) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.sent = append(r.sent, n)
	return r.name + "-" + n.ID[:8], nil
}

type harness struct {
	*httpxtest.Harness
	t     *testing.T
	svc   *app.Service
	smtp  *notificationstest.SMTPServer
	jobs  *notificationsjobs.Jobs
	sub   *notificationsevents.Subscriber
	sms   *recorder
	cfg   config.Config
	carts *idleCarts
}

// idleCarts stands for the carts module's read side in the abandoned-cart sweep: the
// customer carts with items the test puts there (the carts module's own tests check
// which carts its query returns).
type idleCarts struct {
	mu    sync.Mutex
	carts map[string]ports.CartActivity
}

func (f *idleCarts) put(cs ...ports.CartActivity) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, c := range cs {
		f.carts[c.CartID] = c
	}
}

func (f *idleCarts) IdleCustomerCarts(_ context.Context, before time.Time, after ports.CartActivity, limit int) ([]ports.CartActivity, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []ports.CartActivity
	for _, c := range f.carts {
		later := c.LastActiveAt.After(after.LastActiveAt) || (c.LastActiveAt.Equal(after.LastActiveAt) && c.CartID > after.CartID)
		if c.LastActiveAt.Before(before) && later {
			out = append(out, c)
		}
	}
	slices.SortFunc(out, func(a, b ports.CartActivity) int {
		return cmp.Or(a.LastActiveAt.Compare(b.LastActiveAt), cmp.Compare(a.CartID, b.CartID))
	})
	return out[:min(limit, len(out))], nil
}

type options struct {
	backoff     []time.Duration
	maxAttempts int
	noRunner    bool
	concurrency int
}

func newHarness(t *testing.T, engine string, o options) *harness {
	t.Helper()
	env := httpxtest.NewEnv(t, engine, time.Now(), notifications.Migrations())
	env.Config.DataDir = t.TempDir()
	srv := notificationstest.StartSMTP(t)
	env.Config.Notifications.Email = config.NotificationEmail{From: "Shop <shop@example.com>", Host: srv.Host, Port: srv.Port,
		Username: srv.Username, Password: srv.Password, TLS: "none", Timeout: 5 * time.Second}
	env.Config.Notifications.WebhookSecret = hookSecret
	env.Config.Notifications.StaffEmails = []string{"staff@example.com"}
	env.Config.Notifications.ShopName = "Test Shop"
	env.Config.HTTP.PublicURL = "https://shop.example"
	if o.backoff != nil {
		env.Config.Notifications.RetryBackoff = o.backoff
	}
	if o.concurrency > 0 {
		env.Config.Notifications.Concurrency = o.concurrency
	}
	if o.maxAttempts > 0 {
		env.Config.Notifications.MaxAttempts = o.maxAttempts
	}
	sms := &recorder{name: domain.ChannelSMS}
	chs := app.Channels{channels.NewSMTP(env.Config.Notifications.Email), sms, &recorder{name: domain.ChannelPush},
		&recorder{name: domain.ChannelWebhook}, channels.InApp{}}
	runner := inprocess.New(&env.Config, zap.NewNop())
	idle := &idleCarts{carts: map[string]ports.CartActivity{}}
	stores := app.Stores{Notifications: notificationspg.NewNotificationRepository(env.DB),
		Templates: notificationspg.NewTemplateRepository(env.DB), Carts: notificationspg.NewCartRepository(env.DB), IdleCarts: idle}
	svc := app.NewService(env.DB, stores, chs, fakeCustomers{}, runner, clock.New(), app.SettingsFrom(&env.Config), zap.NewNop())
	j := notificationsjobs.NewJobs(svc, &env.Config, zap.NewNop())
	j.Register(runner)
	if !o.noRunner {
		jobstest.Start(t, runner, 10*time.Second)
	}
	sub := notificationsevents.NewSubscriber(svc, zap.NewNop())
	mod := notifications.NewModule(notificationshttp.NewHandler(svc), sub, j)
	return &harness{Harness: env.Serve(principals, docs, mod), t: t, svc: svc, smtp: srv, jobs: j, sub: sub, sms: sms, cfg: env.Config, carts: idle}
}

func eachEngine(t *testing.T, o options, fn func(t *testing.T, h *harness)) {
	t.Helper()
	httpxtest.EachEngine(t, func(t *testing.T, engine string) *harness { return newHarness(t, engine, o) }, fn)
}

// get reads a notification as admin.
func (h *harness) get(id string) map[string]any {
	h.t.Helper()
	return h.Must(http.StatusOK, "GET", "/api/v1/notifications/"+id+"?include=attempts", nil, "admin").Data()
}

// waitStatus polls a notification until it has status.
func (h *harness) waitStatus(id, status string, limit time.Duration) map[string]any {
	h.t.Helper()
	var n map[string]any
	jobstest.WaitFor(h.t, limit, "status "+status, func() bool {
		n = h.get(id)
		return n["status"] == status
	})
	return n
}

// deliver hands an event to the module's subscriber as the bus would.
func (h *harness) deliver(eventType, id string, data any) {
	h.t.Helper()
	reg := &subscriptions{handlers: map[string]event.Handler{}}
	h.sub.Subscribe(reg)
	e := event.Event{ID: id, Type: eventType, Data: httpxtest.Encode(h.t, data), CreatedAt: time.Now().UTC()}
	hd, ok := reg.handlers[eventType]
	if !ok {
		h.t.Fatalf("no handler for %s", eventType)
	}
	if err := hd(context.Background(), e); err != nil {
		h.t.Fatalf("%s: %v", eventType, err)
	}
}

type subscriptions struct{ handlers map[string]event.Handler }

func (s *subscriptions) Subscribe(t string, h event.Handler) { s.handlers[t] = h }

package subscriptions_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/subscriptions"
	subsjobs "github.com/gocommerce/commerce/modules/subscriptions/adapters/jobs"
	subspg "github.com/gocommerce/commerce/modules/subscriptions/adapters/postgres"
	"github.com/gocommerce/commerce/modules/subscriptions/app"
	"github.com/gocommerce/commerce/modules/subscriptions/domain"
	"github.com/gocommerce/commerce/platform/clock"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/httpxtest"
	"github.com/gocommerce/commerce/platform/jobs/asynqjobs"
	"github.com/gocommerce/commerce/platform/jobs/jobstest"
	"github.com/gocommerce/commerce/platform/patch"
	"github.com/gocommerce/commerce/platform/testdb"
	"github.com/gocommerce/commerce/platform/testredis"
)

// asynqWorker is one `commerce worker` process: an asynq adapter on the shared queue
// running the subscriptions jobs of its own service.
func asynqWorker(t *testing.T, redisURL, queue string, h *harness) *asynqjobs.Jobs {
	t.Helper()
	cfg := config.Default()
	cfg.Redis.URL = redisURL
	cfg.Jobs.Concurrency = 4
	j, cleanup, err := asynqjobs.New(&cfg, zap.NewNop())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cleanup)
	j.DefaultQueue, j.PollInterval, j.ShutdownTimeout = queue, 20*time.Millisecond, 2*time.Second
	h.jobs.Register(j)
	return j
}

// SeedDue stores n subscriptions (daily, a one-day trial) whose first cycle is due a day
// after the service's clock, as a bench or a load test needs them; it answers their ids.
func SeedDue(t testing.TB, svc *app.Service, n int) []string {
	t.Helper()
	ids := make([]string, n)
	for i := range n {
		in := domain.Input{CustomerID: patch.Val(customer1), OrderID: patch.Val(order1), ProductID: patch.Val(product1),
			Interval: patch.Val("daily"), IntervalCount: patch.Val(1), Currency: patch.Val("USD"), Amount: patch.Val("9.99"),
			TrialDays: patch.Val(1), PaymentMethodID: patch.Val(cardOK), Gateway: patch.Val("test")}
		s, err := svc.Create(context.Background(), app.Caller{Admin: true}, in)
		if err != nil {
			t.Fatal(err)
		}
		ids[i] = s.ID
	}
	return ids
}

// Two worker processes (two asynq adapters on one queue, each with its own service on
// the same database) run the billing task many times at once over the same due set:
// every cycle is charged exactly once.
func TestTwoAsynqWorkersBillEachCycleOnce(t *testing.T) {
	t.Parallel()
	u, err := url.Parse(testredis.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/9"
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	queue := "test-subscriptions-" + hex.EncodeToString(b)
	t.Cleanup(func() {
		opt, _ := redis.ParseURL(u.String())
		c := redis.NewClient(opt)
		defer func() { _ = c.Close() }()
		ctx := context.Background()
		for _, pattern := range []string{"asynq:{" + queue + "}:*", "commerce:jobs:{" + queue + "}:*"} {
			iter := c.Scan(ctx, 0, pattern, 100).Iterator()
			for iter.Next(ctx) {
				c.Del(ctx, iter.Val())
			}
		}
		c.SRem(ctx, "asynq:queues", queue)
	})

	h1 := harnessOn(t, httpxtest.NewEnv(t, testdb.Primary(), t0, subscriptions.Migrations()), newFakePayments(), newFakeOrders())
	h2 := h1.process(t)
	pay, ord := h1.payments, h1.orders
	const n = 60
	ids := SeedDue(t, h1.svc, n)
	w1, w2 := asynqWorker(t, u.String(), queue, h1), asynqWorker(t, u.String(), queue, h2)
	jobstest.Start(t, w1, 5*time.Second)
	jobstest.Start(t, w2, 5*time.Second)

	for cycle := 1; cycle <= 2; cycle++ {
		h1.clock.Advance(24 * time.Hour)
		for i := range 10 { // many runs of the sweep, spread over both workers
			w := w1
			if i%2 == 1 {
				w = w2
			}
			if err := w.Enqueue(context.Background(), subsjobs.TaskBill, nil); err != nil {
				t.Fatal(err)
			}
		}
		want := int64(n * cycle)
		jobstest.WaitFor(t, 30*time.Second, "every cycle paid", func() bool {
			return h1.Count("subscription_invoices", "status = ?", "paid") == want
		})
	}
	for _, id := range ids {
		invs, err := h1.repo.Invoices(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if len(invs) != 2 {
			t.Fatalf("%s: %d invoices", id, len(invs))
		}
		for _, inv := range invs {
			if c := pay.chargesOf(inv.ID); c != 1 {
				t.Errorf("invoice %s of cycle %d charged %d times", inv.ID, inv.CycleNumber, c)
			}
		}
	}
	if pay.total != 2*n || ord.count() != 2*n {
		t.Errorf("charges %d, orders %d, want %d", pay.total, ord.count(), 2*n)
	}
}

// BenchmarkBillDue measures one sweep billing b.N due renewals (the fake gateway,
// the primary test engine).
func BenchmarkBillDue(b *testing.B) {
	svc, clk, pay := billingService(b, b.N+1)
	SeedDue(b, svc, b.N)
	clk.Advance(24 * time.Hour)
	b.ResetTimer()
	start := time.Now()
	if _, err := svc.BillDue(context.Background()); err != nil {
		b.Fatal(err)
	}
	took := time.Since(start)
	b.StopTimer()
	if pay.total != b.N {
		b.Fatalf("charges %d, want %d", pay.total, b.N)
	}
	most := 0
	for _, c := range pay.charges {
		most = max(most, c)
	}
	b.ReportMetric(took.Seconds(), "all_paid_s")
	b.ReportMetric(float64(pay.total)/float64(b.N), "charges/cycle")
	b.ReportMetric(float64(most), "max_charges_one_cycle")
	b.Logf("%s: %d due renewals billed and paid in %v (%d charges, at most %d for one cycle)", testdb.Primary(), b.N, took, pay.total, most)
}

// TestSweepBillsFullBatchesInOneRun: with a batch of 2, one sweep bills all 5 renewals
// due at once, reading batch after batch (decision 0206), and each exactly once.
func TestSweepBillsFullBatchesInOneRun(t *testing.T) {
	svc, clk, pay := billingService(t, 2)
	SeedDue(t, svc, 5)
	clk.Advance(24 * time.Hour)
	n, err := svc.BillDue(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if n < 5 || pay.total != 5 {
		t.Fatalf("one sweep with batches of 2 renewed %d and charged %d of 5 due", n, pay.total)
	}
	for key, c := range pay.charges {
		if c != 1 {
			t.Fatalf("%s charged %d times", key, c)
		}
	}
	// Nothing is due any more: the next sweep charges nothing.
	if _, err := svc.BillDue(context.Background()); err != nil || pay.total != 5 {
		t.Fatalf("second sweep: %v, %d charges", err, pay.total)
	}
}

// billingService is the service on the primary engine with fake payments and orders,
// reading batchSize renewals at once.
func billingService(t testing.TB, batchSize int) (*app.Service, *clock.Fake, *fakePayments) {
	env := httpxtest.NewEnv(t, testdb.Primary(), t0, subscriptions.Migrations())
	pay := newFakePayments()
	settings := app.SettingsFrom(&env.Config)
	settings.BatchSize = batchSize
	svc := newService(env, subspg.NewRepository(env.DB), settings, pay, newFakeOrders(), &fakeNotifier{}, &enqueued{})
	return svc, env.Clock, pay
}

package notifications_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/notifications"
	"github.com/gocommerce/commerce/modules/notifications/adapters/channels"
	notificationshttp "github.com/gocommerce/commerce/modules/notifications/adapters/http"
	notificationsjobs "github.com/gocommerce/commerce/modules/notifications/adapters/jobs"
	notificationspg "github.com/gocommerce/commerce/modules/notifications/adapters/postgres"
	"github.com/gocommerce/commerce/modules/notifications/app"
	"github.com/gocommerce/commerce/modules/notifications/notificationstest"
	"github.com/gocommerce/commerce/platform/clock"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/events"
	"github.com/gocommerce/commerce/platform/httpxtest"
	"github.com/gocommerce/commerce/platform/jobs/inprocess"
	"github.com/gocommerce/commerce/platform/testdb"
)

// BenchmarkBulkSend10000 sends welcome_html to 10,000 recipients in one request on
// the primary engine and waits until the local SMTP sink holds every message. It
// reports request_ms (the request, which only queues) and deliver_s (until the last
// message arrived). Run: go test -run '^$' -bench BulkSend10000 -benchtime 1x
// ./modules/notifications/ (TEST_ENGINES=sqlite for the embedded engine).
func BenchmarkBulkSend10000(b *testing.B) {
	const n = 10000
	for range b.N {
		b.StopTimer()
		e := testdb.Open(b, testdb.Primary(), events.Migrations(), notifications.Migrations())
		cfg := config.Default()
		srv := notificationstest.StartSMTP(b)
		cfg.Notifications.Email = config.NotificationEmail{From: "Shop <shop@example.com>", Host: srv.Host, Port: srv.Port,
			Username: srv.Username, Password: srv.Password, TLS: "none", Timeout: 10 * time.Second}
		runner := inprocess.New(&cfg, zap.NewNop())
		stores := app.Stores{Notifications: notificationspg.NewNotificationRepository(e.DB),
			Templates: notificationspg.NewTemplateRepository(e.DB), Carts: notificationspg.NewCartRepository(e.DB)}
		svc := app.NewService(e.DB, stores, app.Channels{channels.NewSMTP(cfg.Notifications.Email)}, fakeCustomers{}, runner,
			clock.New(), app.SettingsFrom(&cfg), zap.NewNop())
		notificationsjobs.NewJobs(svc, &cfg, zap.NewNop()).Register(runner)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- runner.Run(ctx) }()
		server := httpxtest.NewServer(b, &cfg, nil, principals, notifications.NewModule(notificationshttp.NewHandler(svc), nil, nil))
		recipients := make([]any, n)
		for i := range recipients {
			recipients[i] = map[string]any{"email": fmt.Sprintf("c%05d@example.com", i), "variables": map[string]any{"customer_name": fmt.Sprint("C", i)}}
		}
		body := map[string]any{"template_id": "welcome_html", "channel": "email", "recipients": recipients}
		b.StartTimer()
		start := time.Now()
		r := httpxtest.Do(b, server, "POST", "/api/v1/notifications/bulk", body, "writer")
		requested := time.Since(start)
		if r.Code != http.StatusAccepted {
			b.Fatalf("bulk %d %s", r.Code, r.Raw)
		}
		srv.Wait(b, n, 10*time.Minute)
		delivered := time.Since(start)
		b.StopTimer()
		cancel()
		<-done
		b.ReportMetric(float64(requested.Milliseconds()), "request_ms")
		b.ReportMetric(delivered.Seconds(), "deliver_s")
		b.Logf("%s: request %v, all %d delivered after %v", testdb.Primary(), requested, n, delivered)
	}
}

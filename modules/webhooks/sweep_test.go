package webhooks_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/webhooks/domain"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/httpxtest"
	"github.com/gocommerce/commerce/platform/jobs"
	"github.com/gocommerce/commerce/platform/jobs/inprocess"
	"github.com/gocommerce/commerce/platform/jobs/jobstest"
	"github.com/gocommerce/commerce/platform/testdb"
)

// lost is a jobs port whose tasks vanish: the in-process runner of a process that
// stopped before running them.
type lost struct{}

func (lost) Enqueue(context.Context, string, any, ...jobs.Option) error { return nil }

// Deliveries whose tasks were lost (the embedded mode persists no task) are found by
// the sweep and delivered; the database is the source of truth.
func TestSweepDeliversWhatLostTasksLeft(t *testing.T) {
	t.Parallel()
	testdb.EachEngine(t, func(t *testing.T, engine string) {
		s := fast()
		s.SweepInterval = 100 * time.Millisecond
		d := openDB(t, engine)
		h := build(t, d, s, lost{})
		rc := newReceiver(t, false, nil)
		ep := h.create(rc.srv.URL, "cart.created")
		h.publish("cart.created", "c1", map[string]any{"id": "c1"})
		time.Sleep(50 * time.Millisecond)
		if rc.count() != 0 || h.Count("webhook_deliveries", "status = ?", domain.StatusPending) != 1 {
			t.Fatalf("before the restart: %d requests", rc.count())
		}
		// The process starts again: its runner's sweep finds the due delivery.
		cfg := config.Default()
		runner := inprocess.New(&cfg, zap.NewNop())
		service(t, d, s, h.resolver, runner, runner)
		jobstest.Start(t, runner, 10*time.Second)
		waitFor(t, "the swept delivery", func() bool { return rc.count() == 1 })
		waitFor(t, "recorded", func() bool { return h.deliveries(ep["id"].(string))[0]["status"] == domain.StatusSucceeded })
		list := h.As("admin").Must(http.StatusOK, "GET", "/api/v1/webhooks/"+ep["id"].(string)+"/deliveries?per_page=1&page=1", nil)
		if p := list.Pagination(); p["total"] != float64(1) || p["per_page"] != float64(1) || len(httpxtest.Objects(list.Body["data"])) != 1 {
			t.Errorf("pagination %v", p)
		}
	})
}

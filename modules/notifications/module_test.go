package notifications_test

import (
	"testing"

	"github.com/gocommerce/commerce/modules/notifications"
	notificationshttp "github.com/gocommerce/commerce/modules/notifications/adapters/http"
	"github.com/gocommerce/commerce/platform/httpxtest"
)

// Every route the module registers is documented in its fragment, which builds.
func TestEveryRouteIsDocumented(t *testing.T) {
	t.Parallel()
	m := notifications.NewModule(notificationshttp.NewHandler(nil), nil, nil)
	if n := httpxtest.AssertRoutesDocumented(t, m, "/api/v1/notifications", "/webhooks/notifications"); n != 14 {
		t.Errorf("%d routes, want 14", n)
	}
	if m.Name() != "notifications" || m.Migrations().Module != "notifications" {
		t.Errorf("module %q / %q", m.Name(), m.Migrations().Module)
	}
}

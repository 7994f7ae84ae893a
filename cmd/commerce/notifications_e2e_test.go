package main

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/commerce/modules/notifications/notificationstest"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/jobs/jobstest"
)

// An order placed through checkout delivers its confirmation to the SMTP server, as
// the process is wired in production: checkout.completed through the relay to the
// notifications module, its send task through the jobs port, the message through
// SMTP; the customer's export then holds it.
func TestOrderConfirmationReachesSMTP(t *testing.T) {
	smtp := notificationstest.StartSMTP(t)
	onEachEngine(t, func(c *config.Config) {
		c.Notifications.Email = config.NotificationEmail{From: "Shop <shop@example.com>", Host: smtp.Host, Port: smtp.Port,
			Username: smtp.Username, Password: smtp.Password, TLS: "none", Timeout: 5 * time.Second}
		c.Notifications.ShopName = "E2E Shop"
	}, func(t *testing.T, ta *testApp) {
		jobstest.Start(t, ta.app.Jobs.Runner, 10*time.Second)
		e := checkoutOn(ta)
		pid := e.product("10.00", 100)
		cartID, session := e.guestCart(pid, 2, "")
		done := e.complete(cartID, session, "4242424242424242", "")
		if done.Status != http.StatusOK {
			t.Fatalf("complete: %d %s", done.Status, done.Body)
		}
		order := dataOf(t, done)["order"].(map[string]any)
		number := order["order_number"].(string)
		e.drain()
		var confirmation *notificationstest.Message
		jobstest.WaitFor(t, 10*time.Second, "the confirmation", func() bool {
			for _, m := range smtp.Messages() {
				if m.Subject() == "Order "+number+" confirmed" {
					confirmation = &m
					return true
				}
			}
			return false
		})
		if confirmation.To[0] != "buyer@example.com" || !strings.Contains(confirmation.Part("text/plain"), "Total: "+order["total_price"].(string)+" USD") ||
			!strings.Contains(confirmation.Part("text/html"), "<strong>"+number+"</strong>") || !strings.Contains(confirmation.Part("text/plain"), "E2E Shop") {
			t.Errorf("confirmation to %v:\n%s", confirmation.To, confirmation.Part("text/plain"))
		}
		list := ta.do("GET", "/api/v1/notifications?recipient=buyer@example.com", nil, e.admin...)
		if list.Status != http.StatusOK || !strings.Contains(string(list.Body), `"template_id":"order_confirmation_html"`) {
			t.Errorf("notifications: %d %s", list.Status, list.Body)
		}
	})
}

// A customer's export (GDPR) holds the notifications sent to them: the welcome the
// registration raised, delivered through the relay and the jobs port.
func TestExportHoldsTheCustomersNotifications(t *testing.T) {
	onEachEngine(t, nil, func(t *testing.T, ta *testApp) {
		jobstest.Start(t, ta.app.Jobs.Runner, 10*time.Second)
		admin := ta.adminAuth()
		ada := ta.register("ada@example.com")
		ta.register("bob@example.com")
		e := &checkoutEnv{testApp: ta, admin: admin}
		e.drain()
		r := ta.must(http.StatusOK, "POST", "/api/v1/customers/"+ada.id+"/export", nil, admin...)
		ns, _ := dataOf(t, r)["notifications"].([]any)
		if len(ns) != 1 {
			t.Fatalf("exported notifications %v", ns)
		}
		n := ns[0].(map[string]any)
		if n["template_id"] != "welcome_html" || n["recipient"] != "ada@example.com" || n["customer_id"] != ada.id || n["channel"] != "email" {
			t.Errorf("exported notification %v", n)
		}
	})
}

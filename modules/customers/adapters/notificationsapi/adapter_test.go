package notificationsapi_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/gocommerce/commerce/modules/customers/adapters/notificationsapi"
	"github.com/gocommerce/commerce/modules/customers/ports"
	notifications "github.com/gocommerce/commerce/modules/notifications/api"
)

type fakeQueries struct {
	list map[string][]notifications.Notification
	err  error
}

func (f *fakeQueries) ExportNotifications(_ context.Context, customerID string) ([]notifications.Notification, error) {
	return f.list[customerID], f.err
}

func TestAdapter(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tpl := "welcome_html"
	q := &fakeQueries{list: map[string][]notifications.Notification{"c1": {{ID: "n1", Channel: "email", Recipient: "ada@example.com",
		Subject: "Welcome", Status: "sent", TemplateID: &tpl, Metadata: map[string]any{}, CreatedAt: time.Now()}}}}
	var port ports.Notifications = notificationsapi.NewAdapter(q)
	recs, err := port.ExportNotifications(ctx, "c1")
	if err != nil || len(recs) != 1 || recs[0]["id"] != "n1" || recs[0]["subject"] != "Welcome" || recs[0]["template_id"] != "welcome_html" {
		t.Fatalf("export %v %v", recs, err)
	}
	if recs, err := port.ExportNotifications(ctx, "c2"); err != nil || recs == nil || len(recs) != 0 {
		t.Errorf("a customer without notifications: %v %v", recs, err)
	}
	q.err = errors.New("store down")
	if _, err := port.ExportNotifications(ctx, "c1"); !errors.Is(err, q.err) {
		t.Errorf("error not passed on: %v", err)
	}
}

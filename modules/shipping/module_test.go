package shipping_test

import (
	"testing"
	"time"

	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/shipping"
	"github.com/gocommerce/commerce/modules/shipping/adapters/carriers"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/openapi"
	"github.com/gocommerce/commerce/platform/openapi/openapidoc"
)

// A fresh store serves every carrier from its table; credentials switch one carrier to
// its API adapter.
func TestNewCarriersChoosesTablesOrAPIs(t *testing.T) {
	t.Parallel()
	cfg := config.Default()
	for _, c := range carriers.New(&cfg) {
		if c.Live() {
			t.Errorf("%s is live without credentials", c.Code())
		}
	}
	cfg.Shipping.FedEx.ClientID, cfg.Shipping.FedEx.ClientSecret = "id", "secret"
	cfg.Shipping.DHL.ClientID = "key only"
	live := map[string]bool{}
	for _, c := range carriers.New(&cfg) {
		live[c.Code()] = c.Live()
	}
	if len(live) != 4 || !live["fedex"] || live["ups"] || live["usps"] || live["dhl"] {
		t.Errorf("live %v", live)
	}
}

func TestOpenAPIFragment(t *testing.T) {
	t.Parallel()
	m := shipping.NewModule(nil, nil)
	doc, err := openapidoc.Build([]openapi.Fragment{m.OpenAPI()})
	if err != nil {
		t.Fatal(err)
	}
	for path, method := range map[string]string{
		"/api/v1/shipping/rates": "GET", "/api/v1/shipping/shipments": "POST", "/api/v1/shipping/shipments/{id}": "GET",
		"/api/v1/shipping/webhooks/{carrier}": "POST",
	} {
		if item := doc.Paths.Find(path); item == nil || item.GetOperation(method) == nil {
			t.Errorf("%s %s not documented", method, path)
		}
	}
	if m.Name() != "shipping" || m.Migrations().Module != "shipping" {
		t.Errorf("module %q / %q", m.Name(), m.Migrations().Module)
	}
}

// The tracking sweep runs every five minutes.
func TestJobs(t *testing.T) {
	t.Parallel()
	if j := shipping.NewJobs(nil, zap.NewNop()); j.Task != "shipping:poll_tracking" || j.Every != 5*time.Minute || j.Done != "shipments moved by tracking" {
		t.Errorf("sweep %q every %v", j.Task, j.Every)
	}
}

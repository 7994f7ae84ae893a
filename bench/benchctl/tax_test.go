package main

import (
	"encoding/json"
	"testing"
)

func TestTaxScenario(t *testing.T) {
	e := &env{cat: catalogFile{Products: []productEntry{{ID: "p1"}, {ID: "p2"}}}}
	var body struct {
		Items []struct {
			ProductID string `json:"product_id"`
			Quantity  int    `json:"quantity"`
			UnitPrice string `json:"unit_price"`
		} `json:"items"`
		ShippingAddress struct {
			CountryCode string `json:"country_code"`
		} `json:"shipping_address"`
		Currency string `json:"currency"`
	}
	if err := json.Unmarshal(taxCalculateBody(e, newRNG(1, 2)), &body); err != nil {
		t.Fatal(err)
	}
	if len(body.Items) != 5 || body.ShippingAddress.CountryCode != "DE" || body.Currency != "EUR" {
		t.Fatalf("body %+v", body)
	}
	for _, it := range body.Items {
		if (it.ProductID != "p1" && it.ProductID != "p2") || it.Quantity < 1 || len(it.UnitPrice) < 4 || it.UnitPrice[len(it.UnitPrice)-3] != '.' {
			t.Errorf("item %+v", it)
		}
	}
	s := taxScenario()
	if s.key != "tax" || s.ref != "ref-get" || s.writes {
		t.Errorf("scenario %+v", s)
	}
	tg, ok := targets["tax"]
	if !ok || !tg.check(result{}, 0.30) || tg.check(result{}, 0.29) {
		t.Errorf("target %v", tg.text)
	}
	found := false
	for _, sc := range scenarios() {
		found = found || sc.key == "tax"
	}
	if !found {
		t.Error("tax is not in scenarios()")
	}
}

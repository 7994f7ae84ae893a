package vies_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/gocommerce/commerce/modules/tax/adapters/vies"
	"github.com/gocommerce/commerce/modules/tax/domain"
	"github.com/gocommerce/commerce/platform/config"
)

// TestClient runs the client against a local server answering like VIES.
func TestClient(t *testing.T) {
	t.Parallel()
	var path string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		path = r.URL.Path
		if r.Header.Get("Accept") != "application/json" {
			t.Errorf("Accept %q", r.Header.Get("Accept"))
		}
		switch r.URL.Path {
		case "/rest-api/ms/DE/vat/123456789":
			_, _ = w.Write([]byte(`{"isValid":true,"requestDate":"2026-06-15T10:00:00.000Z","userError":"VALID","name":"Musterfirma GmbH","address":"Musterstr. 1\n10115 Berlin","vatNumber":"123456789"}`))
		case "/rest-api/ms/EL/vat/123456789":
			_, _ = w.Write([]byte(`{"isValid":false,"userError":"INVALID","name":"---","address":"---"}`))
		case "/rest-api/ms/FR/vat/40303265045":
			_, _ = w.Write([]byte(`{"valid":true,"name":"---","address":"---"}`)) // the POST endpoint's spelling
		case "/rest-api/ms/IT/vat/12345678901":
			_, _ = w.Write([]byte(`{"isValid":false,"userError":"MS_UNAVAILABLE"}`))
		case "/rest-api/ms/PL/vat/1234567890":
			time.Sleep(500 * time.Millisecond)
			_, _ = w.Write([]byte(`{"isValid":true}`))
		case "/rest-api/ms/PT/vat/123456789":
			_, _ = w.Write([]byte(`<html>maintenance</html>`))
		case "/rest-api/ms/ES/vat/A12345678":
			_, _ = w.Write([]byte(`{"userError":"VALID"}`))
		default:
			http.Error(w, `{"actionSucceed":false,"errorWrappers":[{"error":"SERVICE_UNAVAILABLE"}]}`, http.StatusServiceUnavailable)
		}
	}))
	defer srv.Close()
	c := vies.NewClient(srv.URL+"/rest-api/", 200*time.Millisecond, http.DefaultTransport)
	id := func(s string) domain.VATID {
		v, err := domain.ParseVATID(s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}

	got, err := c.Check(t.Context(), id("DE123456789"))
	if err != nil || !got.Valid || got.Name != "Musterfirma GmbH" || got.Address != "Musterstr. 1\n10115 Berlin" || got.CountryCode != "DE" {
		t.Errorf("valid: %+v %v", got, err)
	}
	if path != "/rest-api/ms/DE/vat/123456789" {
		t.Errorf("path %s", path)
	}
	got, err = c.Check(t.Context(), id("EL123456789"))
	if err != nil || got.Valid || got.Name != "" || got.Address != "" || got.CountryCode != "GR" {
		t.Errorf("invalid: %+v %v", got, err)
	}
	if got, err := c.Check(t.Context(), id("FR40303265045")); err != nil || !got.Valid {
		t.Errorf("valid spelling: %+v %v", got, err)
	}
	for _, s := range []string{"IT12345678901", "PL1234567890", "PT123456789", "ES A1234567-8", "SE123456789001"} {
		start := time.Now()
		_, err := c.Check(t.Context(), id(s))
		if !errors.Is(err, domain.ErrVIESUnavailable) {
			t.Errorf("%s: %v, want vies_unavailable", s, err)
		}
		if time.Since(start) > 450*time.Millisecond {
			t.Errorf("%s: took %s past the 200ms timeout", s, time.Since(start))
		}
	}
	srv.Close()
	if _, err := c.Check(t.Context(), id("DE123456789")); !errors.Is(err, domain.ErrVIESUnavailable) {
		t.Errorf("closed server: %v", err)
	}
	cfg := config.Default()
	if vies.New(&cfg) == nil {
		t.Error("New")
	}
}

// Package carriertest is the local stand-in of a carrier API the adapter tests run
// against: an httptest server with the carrier's OAuth token endpoint (or basic
// authentication), canned answers per route, recorded requests, and the failure
// checks every adapter must pass (the carrier's error body, 5xx, a timeout).
package carriertest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gocommerce/commerce/modules/shipping/adapters/internal/carrierhttp"
	"github.com/gocommerce/commerce/modules/shipping/domain"
	"github.com/gocommerce/commerce/modules/shipping/ports"
	"github.com/gocommerce/commerce/platform/apperr"
)

// Token is the access token the stand-in issues.
const Token = "tok-1"

// ShipDate is the ship date the adapter tests ask about (a Wednesday).
var ShipDate = time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)

// Start starts a stand-in for the account (OAuth on tokenPath, "" for basic
// authentication) that accepts its client id and secret, and returns it with the
// adapter newCarrier makes of the account pointed at it.
func Start[C any](t testing.TB, tokenPath string, a carrierhttp.Account, newCarrier func(carrierhttp.Account) C) (*Server, C) {
	t.Helper()
	s := New(t, tokenPath, a.ClientID, a.ClientSecret)
	a.BaseURL = s.URL
	return s, newCarrier(a)
}

// Request is a recorded request.
type Request struct {
	Method, Path string
	Query        map[string][]string
	Header       http.Header
	Body         map[string]any
}

// Server is the stand-in.
type Server struct {
	*httptest.Server
	t testing.TB

	mu         sync.Mutex
	routes     map[string]http.HandlerFunc
	requests   map[string][]Request
	tokenCalls int
	basic      [2]string
}

// New starts a stand-in whose OAuth endpoint is tokenPath ("" for basic
// authentication with user and password).
func New(t testing.TB, tokenPath, user, password string) *Server {
	t.Helper()
	s := &Server{t: t, routes: map[string]http.HandlerFunc{}, requests: map[string][]Request{}, basic: [2]string{user, password}}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		raw, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(raw)) // handlers read it again
		if tokenPath != "" && r.URL.Path == tokenPath {
			s.mu.Lock()
			s.tokenCalls++
			s.mu.Unlock()
			id, secret, ok := r.BasicAuth()
			if !ok {
				if form, err := url.ParseQuery(string(raw)); err == nil && form.Get("client_id") != "" {
					id, secret = form.Get("client_id"), form.Get("client_secret")
				} else {
					var b map[string]string
					_ = json.Unmarshal(raw, &b)
					id, secret = b["client_id"], b["client_secret"]
				}
			}
			if id != user || secret != password {
				http.Error(w, `{"error":"invalid_client"}`, http.StatusUnauthorized)
				return
			}
			Write(w, http.StatusOK, `{"access_token":"`+Token+`","token_type":"Bearer","expires_in":"3599"}`)
			return
		}
		if tokenPath != "" && r.Header.Get("Authorization") != "Bearer "+Token {
			Write(w, http.StatusUnauthorized, `{}`)
			return
		}
		if tokenPath == "" {
			if u, p, ok := r.BasicAuth(); !ok || u != user || p != password {
				Write(w, http.StatusUnauthorized, `{}`)
				return
			}
		}
		key := r.Method + " " + r.URL.Path
		req := Request{Method: r.Method, Path: r.URL.Path, Query: r.URL.Query(), Header: r.Header.Clone()}
		_ = json.Unmarshal(raw, &req.Body)
		s.mu.Lock()
		s.requests[key] = append(s.requests[key], req)
		h, ok := s.routes[key]
		s.mu.Unlock()
		if !ok {
			Write(w, http.StatusNotFound, `{}`)
			return
		}
		h(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

// Write answers a JSON body.
func Write(w http.ResponseWriter, status int, body string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = io.WriteString(w, body)
}

// Answer sets a route's ("POST /path") canned answer.
func (s *Server) Answer(route string, status int, body string) {
	s.Handle(route, func(w http.ResponseWriter, _ *http.Request) { Write(w, status, body) })
}

// Handle sets a route's handler.
func (s *Server) Handle(route string, h http.HandlerFunc) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.routes[route] = h
}

// Requests returns the requests a route received.
func (s *Server) Requests(route string) []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests[route]...)
}

// Last returns the route's last request (failing when there is none).
func (s *Server) Last(route string) Request {
	s.t.Helper()
	r := s.Requests(route)
	if len(r) == 0 {
		s.t.Fatalf("%s was not called", route)
	}
	return r[len(r)-1]
}

// TokenCalls is how many tokens were issued.
func (s *Server) TokenCalls() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tokenCalls
}

// Get walks a decoded JSON body by member names and array indexes ("a.b.0.c").
func Get(v any, path string) any {
	for _, part := range strings.Split(path, ".") {
		switch x := v.(type) {
		case map[string]any:
			v = x[part]
		case []any:
			i := 0
			for _, ch := range part {
				i = i*10 + int(ch-'0')
			}
			if i >= len(x) {
				return nil
			}
			v = x[i]
		default:
			return nil
		}
	}
	return v
}

// AssertFailures checks how a call maps the carrier's failures: its documented error
// body (status 400) is CARRIER_REJECTED carrying wantMessage, 503 is
// CARRIER_UNAVAILABLE, and an answer slower than the caller's deadline is
// CARRIER_UNAVAILABLE too, returned at the deadline.
func (s *Server) AssertFailures(route, errorBody, wantMessage string, call func(ctx context.Context) error) {
	s.t.Helper()
	s.Answer(route, http.StatusBadRequest, errorBody)
	err := call(context.Background())
	if !errors.Is(err, domain.ErrCarrierRejected) || !strings.Contains(err.Error(), wantMessage) {
		s.t.Errorf("400: %v, want CARRIER_REJECTED with %q", err, wantMessage)
	}
	s.Answer(route, http.StatusServiceUnavailable, `{}`)
	if err := call(context.Background()); !errors.Is(err, domain.ErrCarrierUnavailable) {
		s.t.Errorf("503: %v, want CARRIER_UNAVAILABLE", err)
	}
	release := make(chan struct{})
	defer close(release)
	s.Handle(route, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	err = call(ctx)
	if e, ok := apperr.As(err); !ok || e.Code != domain.ErrCarrierUnavailable.Code || time.Since(start) > 2*time.Second {
		s.t.Errorf("timeout: %v after %s, want CARRIER_UNAVAILABLE at the deadline", err, time.Since(start))
	}
}

// AssertSent checks members of the JSON body of the route's last request by path (see
// Get) and returns the request.
func (s *Server) AssertSent(route string, want map[string]any) Request {
	s.t.Helper()
	r := s.Last(route)
	AssertBody(s.t, r.Body, want)
	return r
}

// AssertBody checks members of a decoded JSON body by path (see Get).
func AssertBody(t testing.TB, body map[string]any, want map[string]any) {
	t.Helper()
	for path, w := range want {
		if got := Get(body, path); got != w {
			t.Errorf("%s = %v (%T), want %v (%T)", path, got, got, w, w)
		}
	}
}

// AssertStatuses checks the statuses of tracking events, in order.
func AssertStatuses(t testing.TB, events []domain.TrackingEvent, want ...domain.Status) {
	t.Helper()
	if len(events) != len(want) {
		t.Fatalf("%d events, want %d: %+v", len(events), len(want), events)
	}
	for i, e := range events {
		if e.Status != want[i] {
			t.Errorf("event %d: %s, want %s", i, e.Status, want[i])
		}
	}
}

// Rates asks c for rates, failing the test on an error.
func Rates(t testing.TB, c ports.Carrier, req domain.RateRequest) []domain.Rate {
	t.Helper()
	rates, err := c.Rates(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return rates
}

// Label buys a label from c, failing the test on an error.
func Label(t testing.TB, c ports.Carrier, req ports.LabelRequest) ports.Label {
	t.Helper()
	label, err := c.CreateLabel(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return label
}

// Track asks c for a tracking number's events, failing the test on an error.
func Track(t testing.TB, c ports.Carrier, number string) []domain.TrackingEvent {
	t.Helper()
	events, err := c.Track(context.Background(), number)
	if err != nil {
		t.Fatal(err)
	}
	return events
}

// RatesCall is the rates call for AssertFailures.
func RatesCall(c ports.Carrier, req domain.RateRequest) func(ctx context.Context) error {
	return func(ctx context.Context) error { _, err := c.Rates(ctx, req); return err }
}

// LabelCall is the label call for AssertFailures.
func LabelCall(c ports.Carrier, req ports.LabelRequest) func(ctx context.Context) error {
	return func(ctx context.Context) error { _, err := c.CreateLabel(ctx, req); return err }
}

// TrackCall is the tracking call for AssertFailures.
func TrackCall(c ports.Carrier, number string) func(ctx context.Context) error {
	return func(ctx context.Context) error { _, err := c.Track(ctx, number); return err }
}

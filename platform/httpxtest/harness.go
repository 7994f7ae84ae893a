package httpxtest

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"go.uber.org/zap"

	"github.com/gocommerce/commerce/platform/auth"
	"github.com/gocommerce/commerce/platform/config"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/httpx"
)

// Harness is a module under test: its HTTP server (usually the real httpx server
// with the module's routes, wrapped by a Validator) and its database, for event and
// row assertions. A module's test harness embeds it next to the module's services
// and fakes:
//
//	type harness struct {
//		*httpxtest.Harness
//		svc *app.Service
//	}
//
//	h.As("admin").Post("/api/v1/carts", body)   // a caller with a credential
//	h.Must(201, "POST", "/api/v1/carts", body, "admin")
//	h.Payloads("cart.created", cartID)          // the events the change wrote
type Harness struct {
	T      testing.TB
	Server http.Handler
	DB     *db.DB // nil when the module under test has no database
}

// New returns a harness on server and d.
func New(t testing.TB, server http.Handler, d *db.DB) *Harness {
	return &Harness{T: t, Server: server, DB: d}
}

// NewServer is the real httpx server with the modules' routes behind authn, without
// rate limiting, metrics or health routes; a nil log is a no-op logger.
func NewServer(t testing.TB, cfg *config.Config, log *zap.Logger, authn auth.Authenticator, modules ...httpx.Module) *httpx.Server {
	t.Helper()
	if log == nil {
		log = zap.NewNop()
	}
	srv, err := httpx.NewServer(cfg, log, authn, nil, nil, nil, modules)
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

// Do sends a request (see NewRequest for body and headers) and decodes the answer.
func (h *Harness) Do(method, path string, body any, headers ...string) Response {
	h.T.Helper()
	return Do(h.T, h.Server, method, path, body, headers...)
}

// Must is Do that fails unless the status matches.
func (h *Harness) Must(status int, method, path string, body any, headers ...string) Response {
	h.T.Helper()
	return Must(h.T, h.Server, status, method, path, body, headers...)
}

// Send serves a request built by the test (a multipart form, say); headers are as
// for NewRequest.
func (h *Harness) Send(req *http.Request, headers ...string) Response {
	h.T.Helper()
	setHeaders(req, headers)
	return Serve(h.T, h.Server, req)
}

// As returns a caller that sends each request with these headers: a bare value is
// a bearer credential, "Name: value" any header (e.g. "X-Session-Token: …").
func (h *Harness) As(headers ...string) Caller { return Caller{h: h, headers: headers} }

// Caller sends requests as one client.
type Caller struct {
	h       *Harness
	headers []string
}

// Do sends a request as the caller.
func (c Caller) Do(method, path string, body any) Response {
	c.h.T.Helper()
	return c.h.Do(method, path, body, c.headers...)
}

// Must is Do that fails unless the status matches.
func (c Caller) Must(status int, method, path string, body any) Response {
	c.h.T.Helper()
	return c.h.Must(status, method, path, body, c.headers...)
}

// Get sends a GET.
func (c Caller) Get(path string) Response { c.h.T.Helper(); return c.Do(http.MethodGet, path, nil) }

// Post sends a POST with a JSON body.
func (c Caller) Post(path string, body any) Response {
	c.h.T.Helper()
	return c.Do(http.MethodPost, path, body)
}

// Put sends a PUT with a JSON body.
func (c Caller) Put(path string, body any) Response {
	c.h.T.Helper()
	return c.Do(http.MethodPut, path, body)
}

// Patch sends a PATCH with a JSON body.
func (c Caller) Patch(path string, body any) Response {
	c.h.T.Helper()
	return c.Do(http.MethodPatch, path, body)
}

// Delete sends a DELETE.
func (c Caller) Delete(path string) Response {
	c.h.T.Helper()
	return c.Do(http.MethodDelete, path, nil)
}

// Into decodes the whole body into v, failing the test when it does not fit.
func (r Response) Into(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(r.Raw), v); err != nil {
		t.Fatalf("decode %T from %s: %v", v, r.Raw, err)
	}
}

// Decode returns the envelope's "data" member decoded as a T.
func Decode[T any](t testing.TB, r Response) T {
	t.Helper()
	var env struct{ Data T }
	r.Into(t, &env)
	return env.Data
}

// Event is one row of the outbox.
type Event struct {
	Type        string
	AggregateID string
	Payload     string         // as stored
	Data        map[string]any // Payload decoded
}

// Events returns the outbox events of the types (every type when none), oldest first.
func (h *Harness) Events(types ...string) []Event {
	h.T.Helper()
	var rows []struct{ Type, AggregateID, Payload string }
	q := h.DB.Gorm().Table("outbox_events").Select("type", "aggregate_id", "payload").Order("occurred_at, id")
	if len(types) > 0 {
		q = q.Where("type IN ?", types)
	}
	if err := q.Find(&rows).Error; err != nil {
		h.T.Fatal(err)
	}
	out := make([]Event, len(rows))
	for i, r := range rows {
		out[i] = Event{Type: r.Type, AggregateID: r.AggregateID, Payload: r.Payload}
		if err := json.Unmarshal([]byte(r.Payload), &out[i].Data); err != nil {
			h.T.Fatalf("payload of %s: %v", r.Type, err)
		}
	}
	return out
}

// Payloads returns the decoded payloads of the events of a type about an aggregate
// ("" for any), oldest first.
func (h *Harness) Payloads(eventType, aggregateID string) []map[string]any {
	h.T.Helper()
	var out []map[string]any
	for _, e := range h.Events(eventType) {
		if aggregateID == "" || e.AggregateID == aggregateID {
			out = append(out, e.Data)
		}
	}
	return out
}

// LastEvent returns the latest payload of a type about an aggregate, failing when
// there is none.
func (h *Harness) LastEvent(eventType, aggregateID string) map[string]any {
	h.T.Helper()
	evs := h.Payloads(eventType, aggregateID)
	if len(evs) == 0 {
		h.T.Fatalf("no %s event for %s", eventType, aggregateID)
	}
	return evs[len(evs)-1]
}

// EventTypes lists the types of the events about an aggregate, oldest first.
func (h *Harness) EventTypes(aggregateID string) []string {
	h.T.Helper()
	var out []string
	for _, e := range h.Events() {
		if e.AggregateID == aggregateID {
			out = append(out, e.Type)
		}
	}
	return out
}

// Count counts the rows of a table matching where (every row when where is "").
func (h *Harness) Count(table, where string, args ...any) int64 {
	h.T.Helper()
	var n int64
	q := h.DB.Gorm().Table(table)
	if where != "" {
		q = q.Where(where, args...)
	}
	if err := q.Count(&n).Error; err != nil {
		h.T.Fatal(err)
	}
	return n
}

// Serve sends req to server and decodes the answer: a non-empty body is decoded as
// JSON unless its Content-Type says another format, and the test fails when a JSON
// body does not parse.
func Serve(t testing.TB, server http.Handler, req *http.Request) Response {
	t.Helper()
	w := httptest.NewRecorder()
	server.ServeHTTP(w, req)
	out := Response{Code: w.Code, Raw: w.Body.String(), Header: w.Header()}
	ct := w.Header().Get("Content-Type")
	if w.Body.Len() > 0 && (ct == "" || strings.Contains(ct, "json")) {
		if err := json.Unmarshal(w.Body.Bytes(), &out.Body); err != nil {
			t.Fatalf("%s %s: body is not JSON: %q", req.Method, req.URL.Path, w.Body.String())
		}
	}
	return out
}

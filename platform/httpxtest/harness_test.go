package httpxtest_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/gocommerce/commerce/platform/auth"
	"github.com/gocommerce/commerce/platform/events"
	"github.com/gocommerce/commerce/platform/httpxtest"
	"github.com/gocommerce/commerce/platform/testdb"
)

func TestPrincipals(t *testing.T) {
	p := httpxtest.Principals{
		"admin": httpxtest.APIKey("k1", "admin"),
		"cust:": httpxtest.Customer("", "x@example.com", "orders:write"),
	}
	if got, err := p.Authenticate(context.Background(), "admin", ""); err != nil || got.KeyPrefix != "k1" || got.ClientID() != "key:k1" || !got.IsAdmin() {
		t.Errorf("admin: %+v %v", got, err)
	}
	got, err := p.Authenticate(context.Background(), "cust:c42", "")
	if err != nil || got.Kind != auth.Customer || got.ID != "c42" || got.Email != "x@example.com" || !got.Can("orders:write") || !got.Can("carts:write") {
		t.Errorf("customer family: %+v %v", got, err)
	}
	if p["cust:"].ID != "" {
		t.Error("the family's principal was changed")
	}
	for _, cred := range []string{"", "nobody", "other:c1", "cust"} {
		if got, err := p.Authenticate(context.Background(), cred, ""); err == nil {
			t.Errorf("%q authenticated as %+v", cred, got)
		}
	}
}

// echo answers {"data": {...}} with the request's method, Authorization and
// X-Session-Token, or 204 for DELETE.
var echo = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodDelete {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write([]byte(`{"data":{"method":"` + r.Method + `","auth":"` + r.Header.Get("Authorization") + `","session":"` + r.Header.Get("X-Session-Token") + `","n":3}}`))
})

func TestCallerAndDecode(t *testing.T) {
	h := httpxtest.New(t, echo, nil)
	type reply struct {
		Method, Auth, Session string
		N                     int
	}
	r := h.As("admin", "X-Session-Token: s1").Post("/x", map[string]any{"a": 1})
	if got := httpxtest.Decode[reply](t, r); got != (reply{Method: "POST", Auth: "Bearer admin", Session: "s1", N: 3}) {
		t.Errorf("decoded %+v", got)
	}
	var whole struct{ Data reply }
	h.As().Get("/x").Into(t, &whole)
	if whole.Data.Method != "GET" || whole.Data.Auth != "" {
		t.Errorf("into %+v", whole)
	}
	if r := h.As("k").Delete("/x"); r.Code != http.StatusNoContent || r.Body != nil {
		t.Errorf("delete: %d %v", r.Code, r.Body)
	}
	if d := h.As("k").Must(http.StatusOK, http.MethodPatch, "/x", nil).Data(); d["method"] != "PATCH" || d["auth"] != "Bearer k" {
		t.Errorf("patch: %v", d)
	}
}

func TestEventsAndCount(t *testing.T) {
	testdb.EachEngine(t, func(t *testing.T, engine string) {
		e := testdb.Open(t, engine, events.Migrations())
		h := httpxtest.New(t, echo, e.DB)
		out := events.NewOutbox(e.DB)
		err := e.DB.InTx(context.Background(), func(ctx context.Context) error {
			for _, ev := range []struct{ typ, agg, v string }{{"a.created", "1", "x"}, {"b.created", "2", "y"}, {"a.created", "2", "z"}} {
				if err := out.Publish(ctx, ev.typ, ev.agg, map[string]string{"v": ev.v}); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if evs := h.Events("a.created"); len(evs) != 2 || evs[0].AggregateID != "1" || evs[1].Data["v"] != "z" {
			t.Errorf("events %+v", evs)
		}
		if p := h.Payloads("a.created", "2"); len(p) != 1 || p[0]["v"] != "z" {
			t.Errorf("payloads %v", p)
		}
		if got := h.EventTypes("2"); len(got) != 2 || got[0] != "b.created" || got[1] != "a.created" {
			t.Errorf("types %v", got)
		}
		if last := h.LastEvent("a.created", ""); last["v"] != "z" {
			t.Errorf("last %v", last)
		}
		if n, all := h.Count("outbox_events", "type = ?", "a.created"), h.Count("outbox_events", ""); n != 2 || all != 3 {
			t.Errorf("count %d of %d", n, all)
		}
	})
}

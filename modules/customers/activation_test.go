package customers_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/commerce/modules/customers/api"
	"github.com/gocommerce/commerce/modules/customers/domain"
	"github.com/gocommerce/commerce/platform/httpxtest"
)

// TestActivationFlow is the invite end to end: the event carries no token, the link
// comes from api.AccountLinks (what notifications calls), the token works once, a
// re-sent invite kills the old token, and tokens expire.
func TestActivationFlow(t *testing.T) {
	eachEngine(t, func(t *testing.T, h *harness) {
		ctx := context.Background()
		var links api.AccountLinks = h.svc
		c := h.createCustomer(map[string]any{"email": "ivy@example.com", "first_name": "Ivy"})
		id := c["id"].(string)

		link, err := links.ActivationLink(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if link.URL != "https://shop.example.com/account/activate/"+id+"/"+link.Token || len(link.Token) != 43 ||
			!link.ExpiresAt.Equal(t0.Add(7*24*time.Hour)) || link.CustomerID != id {
			t.Fatalf("link %+v", link)
		}
		if again, _ := links.ActivationLink(ctx, id); again.Token != link.Token {
			t.Fatal("the link changes between calls")
		}
		// The raw token is stored nowhere: not in the outbox, not in the token table.
		for _, e := range h.Events() {
			if strings.Contains(e.Payload, link.Token) {
				t.Fatalf("token in outbox event %s", e.Type)
			}
		}
		var hashes []string
		if err := h.db.Gorm().Table("customers_account_tokens").Where("customer_id = ?", id).Pluck("token_hash", &hashes).Error; err != nil {
			t.Fatal(err)
		}
		if len(hashes) != 1 || hashes[0] != domain.HashToken(link.Token) {
			t.Fatalf("stored %v", hashes)
		}

		activate := func(token, password string, extra map[string]any) httpxtest.Response {
			body := map[string]any{"activation_token": token, "password": password}
			for k, v := range extra {
				body[k] = v
			}
			return h.Do(http.MethodPost, "/api/v1/customers/"+id+"/activate", body, "")
		}
		assertError(t, activate("wrong-token", "secret-pass-1", nil), 400, "ACTIVATION_TOKEN_INVALID", "validation")
		// A bad password is refused before the token is spent.
		assertError(t, activate(link.Token, "short", nil), 400, "INVALID_PASSWORD", "validation")
		r := activate(link.Token, "secret-pass-1", map[string]any{"password_confirmation": "other-pass-2"})
		if assertError(t, r, 400, 400, "validation"); r.Fields()["password_confirmation"] == nil {
			t.Errorf("confirmation: %s", r.Raw)
		}
		r = h.Do(http.MethodPost, "/api/v1/customers/"+id+"/activate", map[string]any{}, "")
		if assertError(t, r, 400, 400, "validation"); httpxtest.Keys(r.Fields()) != "activation_token,password" {
			t.Errorf("missing fields: %s", r.Raw)
		}
		if _, ok := h.creds.get(t, id); ok {
			t.Fatal("failed activations set a password")
		}

		r = activate(link.Token, "secret-pass-1", map[string]any{"password_confirmation": "secret-pass-1"})
		if r.Code != 200 || r.Data()["state"] != "enabled" || r.Data()["verified_email"] != true {
			t.Fatalf("activate: %d %s", r.Code, r.Raw)
		}
		if cred, ok := h.creds.get(t, id); !ok || cred.Hash != "hash:secret-pass-1" || cred.Email != "ivy@example.com" {
			t.Fatalf("credential %+v", cred)
		}
		if evs := h.Payloads("customer.enabled", id); len(evs) != 1 || evs[0]["state"] != "enabled" {
			t.Fatalf("customer.enabled: %v", evs)
		}
		// Single use.
		assertError(t, activate(link.Token, "secret-pass-2", nil), 400, "ACTIVATION_TOKEN_INVALID", "validation")
		if _, err := links.ActivationLink(ctx, id); !isErr(err, api.ErrActivationTokenInvalid) {
			t.Fatalf("link after use: %v", err)
		}
		if cred, _ := h.creds.get(t, id); cred.Hash != "hash:secret-pass-1" {
			t.Fatal("a used token changed the password")
		}
		// Another customer's id with a valid token, and unknown ids, are invalid too.
		other := h.createCustomer(map[string]any{"email": "other@example.com"})["id"].(string)
		otherLink, _ := links.ActivationLink(ctx, other)
		r = h.Do(http.MethodPost, "/api/v1/customers/"+id+"/activate", map[string]any{"activation_token": otherLink.Token, "password": "secret-pass-1"}, "")
		assertError(t, r, 400, "ACTIVATION_TOKEN_INVALID", "validation")
		r = h.Do(http.MethodPost, "/api/v1/customers/not-an-id/activate", map[string]any{"activation_token": otherLink.Token, "password": "secret-pass-1"}, "")
		assertError(t, r, 400, "ACTIVATION_TOKEN_INVALID", "validation")

		// Re-sending the invite replaces the token.
		resent := h.Must(200, http.MethodPost, "/api/v1/customers/"+other+"/send_invite", nil, "admin")
		if resent.Data()["state"] != "invited" || len(h.Payloads("customer.invited", other)) != 2 {
			t.Fatalf("send_invite: %s", resent.Raw)
		}
		newLink, err := links.ActivationLink(ctx, other)
		if err != nil || newLink.Token == otherLink.Token {
			t.Fatalf("new link %+v %v", newLink, err)
		}
		r = h.Do(http.MethodPost, "/api/v1/customers/"+other+"/activate", map[string]any{"activation_token": otherLink.Token, "password": "secret-pass-1"}, "")
		assertError(t, r, 400, "ACTIVATION_TOKEN_INVALID", "validation")

		// Expiry: after seven days the token and the link are dead, and the sweep removes it.
		h.clock.Advance(7*24*time.Hour + time.Second)
		r = h.Do(http.MethodPost, "/api/v1/customers/"+other+"/activate", map[string]any{"activation_token": newLink.Token, "password": "secret-pass-1"}, "")
		assertError(t, r, 400, "ACTIVATION_TOKEN_INVALID", "validation")
		if _, err := links.ActivationLink(ctx, other); !isErr(err, api.ErrActivationTokenInvalid) {
			t.Fatalf("expired link: %v", err)
		}
		if err := h.jobs.Handle(ctx, nil); err != nil {
			t.Fatal(err)
		}
		if n := h.Count("customers_account_tokens", "customer_id = ?", other); n != 0 {
			t.Fatalf("expired tokens left: %d", n)
		}
		if h.Must(200, http.MethodGet, "/api/v1/customers/"+other, nil, "admin").Data()["state"] != "invited" {
			t.Fatal("expiry changed the state")
		}
	})
}

func TestPasswordReset(t *testing.T) {
	eachEngine(t, func(t *testing.T, h *harness) {
		ctx := context.Background()
		id := h.enabled("pat@example.com", nil)["id"].(string)
		invited := h.createCustomer(map[string]any{"email": "inv@example.com"})["id"].(string)

		recover := func(email string) {
			t.Helper()
			r := h.Must(202, http.MethodPost, "/api/v1/customers/recover", map[string]any{"email": email}, "")
			if msg, _ := r.Data()["message"].(string); msg == "" {
				t.Fatalf("recover body: %s", r.Raw)
			}
		}
		recover("nobody@example.com")
		recover("inv@example.com") // not enabled: nothing sent
		if n := len(h.Events("customer.password_reset")); n != 0 {
			t.Fatalf("reset events for unknown or invited: %d", n)
		}
		if _, err := h.svc.PasswordResetLink(ctx, invited); !isErr(err, api.ErrActivationTokenInvalid) {
			t.Fatalf("invited customer's reset link: %v", err)
		}
		recover(" PAT@example.com ")
		evs := h.Payloads("customer.password_reset", id)
		if len(evs) != 1 || evs[0]["email"] != "pat@example.com" || evs[0]["reset_expires_at"] != "2026-03-02T10:00:00Z" {
			t.Fatalf("customer.password_reset: %v", evs)
		}
		link, err := h.svc.PasswordResetLink(ctx, id)
		if err != nil || link.URL != "https://shop.example.com/account/reset/"+id+"/"+link.Token {
			t.Fatalf("reset link %+v %v", link, err)
		}
		if strings.Contains(h.Events("customer.password_reset")[0].Payload, link.Token) {
			t.Fatal("reset token in the outbox")
		}
		assertError(t, h.Do(http.MethodPost, "/api/v1/customers/recover", map[string]any{"email": "bad"}, ""), 400, "INVALID_EMAIL", "validation")
		assertError(t, h.Do(http.MethodPost, "/api/v1/customers/recover", map[string]any{}, ""), 400, 400, "validation")

		reset := func(token string) httpxtest.Response {
			return h.Do(http.MethodPost, "/api/v1/customers/"+id+"/reset_password", map[string]any{"reset_token": token, "password": "new-pass-2", "password_confirmation": "new-pass-2"}, "")
		}
		r := reset("nope")
		if assertError(t, r, 400, "ACTIVATION_TOKEN_INVALID", "validation"); r.Err()["message"] != "Password reset token is invalid or expired" {
			t.Errorf("message %v", r.Err()["message"])
		}
		// An activation token is not a reset token.
		invLink, _ := h.svc.ActivationLink(ctx, invited)
		assertError(t, h.Do(http.MethodPost, "/api/v1/customers/"+invited+"/reset_password", map[string]any{"reset_token": invLink.Token, "password": "new-pass-2"}, ""), 400, "ACTIVATION_TOKEN_INVALID", "validation")
		if r := reset(link.Token); r.Code != 200 || r.Data()["state"] != "enabled" {
			t.Fatalf("reset: %s", r.Raw)
		}
		if cred, _ := h.creds.get(t, id); cred.Hash != "hash:new-pass-2" {
			t.Fatalf("password not changed: %+v", cred)
		}
		assertError(t, reset(link.Token), 400, "ACTIVATION_TOKEN_INVALID", "validation")
		// A disabled customer cannot reset.
		recover("pat@example.com")
		link2, _ := h.svc.PasswordResetLink(ctx, id)
		h.Must(200, http.MethodPut, "/api/v1/customers/"+id, map[string]any{"state": "disabled"}, "admin")
		assertError(t, reset(link2.Token), 400, "ACTIVATION_TOKEN_INVALID", "validation")
	})
}

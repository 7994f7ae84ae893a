package identity_test

import (
	"context"
	"errors"
	"net/http"
	"testing"

	customersapi "github.com/gocommerce/commerce/modules/customers/api"
	"github.com/gocommerce/commerce/modules/identity/api"
)

// TestCredentials drives api.Credentials (used by the customers module for passwords
// set at creation, activation, reset and erasure) and checks its effect on login.
func TestCredentials(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *stack) {
		ctx := context.Background()
		var creds api.Credentials = s.creds
		fake := newFakeCustomers(t, s.db)
		cust, err := fake.CreateCustomer(ctx, customersapi.CreateCustomerCommand{Email: "ivy@example.com", FirstName: "Ivy", State: customersapi.StateEnabled})
		if err != nil {
			t.Fatal(err)
		}
		login := func(email, password string) int {
			return s.do(http.MethodPost, "/api/v1/auth/login", map[string]string{"email": email, "password": password}, "").Code
		}
		if code := login("ivy@example.com", "first-pass-1"); code != 401 {
			t.Fatalf("login before any credential: %d", code)
		}
		if err := creds.SetPassword(ctx, cust.ID, "Ivy@Example.com", "first-pass-1"); err != nil {
			t.Fatal(err)
		}
		if code := login("ivy@example.com", "first-pass-1"); code != 200 {
			t.Fatalf("login after SetPassword: %d", code)
		}

		// Replacing the password (upsert) retires the old one.
		hash, err := creds.HashPassword("second-pass-2")
		if err != nil {
			t.Fatal(err)
		}
		if err := creds.SetPasswordHash(ctx, cust.ID, "ivy@example.com", hash); err != nil {
			t.Fatal(err)
		}
		if a, b := login("ivy@example.com", "first-pass-1"), login("ivy@example.com", "second-pass-2"); a != 401 || b != 200 {
			t.Fatalf("after replace: old %d, new %d", a, b)
		}
		if err := creds.SetPasswordHash(ctx, cust.ID, "ivy@example.com", "plain-text"); err == nil {
			t.Fatal("SetPasswordHash accepted a non-bcrypt value")
		}

		// Policy and email errors carry the spec codes.
		for _, bad := range []string{"short1", "nodigitshere"} {
			if _, err := creds.HashPassword(bad); !errors.Is(err, api.ErrInvalidPassword) {
				t.Errorf("HashPassword(%q) = %v", bad, err)
			}
			if err := creds.SetPassword(ctx, cust.ID, "ivy@example.com", bad); !errors.Is(err, api.ErrInvalidPassword) {
				t.Errorf("SetPassword(%q) = %v", bad, err)
			}
		}
		if err := creds.SetPassword(ctx, cust.ID, "nope", "valid-pass-1"); !errors.Is(err, api.ErrInvalidEmail) {
			t.Errorf("bad email: %v", err)
		}

		// Email change moves the login; an email held by another credential is taken.
		if err := creds.UpdateEmail(ctx, cust.ID, "ivy.new@example.com"); err != nil {
			t.Fatal(err)
		}
		if a, b := login("ivy@example.com", "second-pass-2"), login("ivy.new@example.com", "second-pass-2"); a != 401 || b != 200 {
			t.Fatalf("after email change: old %d, new %d", a, b)
		}
		_, _, otherID := s.mustRegister("other@example.com")
		if err := creds.UpdateEmail(ctx, cust.ID, "other@example.com"); !errors.Is(err, api.ErrEmailTaken) {
			t.Errorf("UpdateEmail to a taken email: %v", err)
		}
		if err := creds.SetPassword(ctx, cust.ID, "other@example.com", "valid-pass-1"); !errors.Is(err, api.ErrEmailTaken) {
			t.Errorf("SetPassword with a taken email: %v", err)
		}
		if err := creds.UpdateEmail(ctx, "00000000-0000-0000-0000-000000000000", "ghost@example.com"); err != nil {
			t.Errorf("UpdateEmail without credential: %v", err)
		}

		// Deleting the credential ends password login; deleting none is fine.
		if err := creds.DeleteCredentials(ctx, cust.ID); err != nil {
			t.Fatal(err)
		}
		if code := login("ivy.new@example.com", "second-pass-2"); code != 401 {
			t.Fatalf("login after DeleteCredentials: %d", code)
		}
		if err := creds.DeleteCredentials(ctx, cust.ID); err != nil {
			t.Fatalf("second delete: %v", err)
		}
		if code := login("other@example.com", "correct-horse-1"); code != 200 {
			t.Fatalf("other customer's login (%s) disturbed: %d", otherID, code)
		}

		// Calls join the caller's transaction: a rollback undoes the credential.
		boom := errors.New("boom")
		err = s.db.InTx(ctx, func(ctx context.Context) error {
			if err := creds.SetPassword(ctx, cust.ID, "ivy.new@example.com", "third-pass-3"); err != nil {
				return err
			}
			return boom
		})
		if !errors.Is(err, boom) {
			t.Fatal(err)
		}
		if code := login("ivy.new@example.com", "third-pass-3"); code != 401 {
			t.Fatalf("rolled back credential works: %d", code)
		}
	})
}

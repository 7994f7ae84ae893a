package domain

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/commerce/platform/apperr"
)

func TestNewCustomer(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	c, err := NewCustomer("id", " Ada@Example.com ", " Ada ", "Lovelace", "", now)
	if err != nil {
		t.Fatal(err)
	}
	if c.Email != "ada@example.com" || c.FirstName != "Ada" || c.State != StateEnabled || !c.CreatedAt.Equal(now) || !c.CanSignIn() {
		t.Fatalf("customer %+v", c)
	}
	if _, err := NewCustomer("id", "nope", "", "", "", now); !errors.Is(err, ErrInvalidEmail) {
		t.Fatalf("bad email: %v", err)
	}
	if _, err := NewCustomer("id", "a@b.co", "", "", "frozen", now); !errors.Is(err, ErrInvalidState) {
		t.Fatalf("bad state: %v", err)
	}
	_, err = NewCustomer("id", "a@b.co", strings.Repeat("x", 256), "", StateInvited, now)
	if e, ok := apperr.As(err); !ok || e.Fields["first_name"] == "" {
		t.Fatalf("long name: %v", err)
	}
	for _, s := range []State{StateDisabled, StateInvited, StateDeclined} {
		c, err := NewCustomer("id", "a@b.co", "", "", s, now)
		if err != nil || c.CanSignIn() {
			t.Fatalf("state %s: %v %v", s, err, c)
		}
	}
}

func TestNormalizeEmail(t *testing.T) {
	t.Parallel()
	for _, bad := range []string{"", "a", "a@b", "A <a@b.co>", "a@.co", "a@b.co."} {
		if _, err := NormalizeEmail(bad); !errors.Is(err, ErrInvalidEmail) {
			t.Errorf("NormalizeEmail(%q) = %v", bad, err)
		}
	}
}

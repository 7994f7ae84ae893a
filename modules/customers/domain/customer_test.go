package domain

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/patch"
)

var now = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

func ptr[T any](v T) *T { return &v }

func TestNewCustomer(t *testing.T) {
	t.Parallel()
	c, err := NewCustomer("id", " Ada@Example.com ", " Ada ", "Lovelace", "", now)
	if err != nil {
		t.Fatal(err)
	}
	if c.Email != "ada@example.com" || c.FirstName != "Ada" || c.State != StateEnabled || !c.CreatedAt.Equal(now) || !c.CanSignIn() {
		t.Fatalf("customer %+v", c)
	}
	if c.Tags == nil || c.TaxExemptions == nil || c.Metafields == nil {
		t.Fatalf("collections must not be nil: %+v", c)
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
	for _, bad := range []string{"", "a", "a@b", "A <a@b.co>", "a@.co", "a@b.co.", "a@b..co", strings.Repeat("x", 250) + "@b.co"} {
		if _, err := NormalizeEmail(bad); !errors.Is(err, ErrInvalidEmail) {
			t.Errorf("NormalizeEmail(%q) = %v", bad, err)
		}
	}
	if e, err := NormalizeEmail(" X.Y+tag@Example.COM "); err != nil || e != "x.y+tag@example.com" {
		t.Errorf("NormalizeEmail = %q, %v", e, err)
	}
}

func TestNormalizePhone(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in, want string
		ok       bool
	}{
		{"", "", true},
		{"+1 (555) 123-4567", "+15551234567", true},
		{"030.1234.5678", "03012345678", true},
		{"1234", "1234", false},
		{"+1234567890123456", "+1234567890123456", false},
		{"call me", "callme", false},
	}
	for _, c := range cases {
		got, ok := NormalizePhone(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("NormalizePhone(%q) = %q, %v; want %q, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

func TestCreateValidatesEveryField(t *testing.T) {
	t.Parallel()
	_, err := Create("id", Draft{
		Email: "ok@example.com", Phone: "12", Currency: "EURO", Language: "xx", Note: strings.Repeat("n", MaxNoteLength+1),
		TaxExemptions: []string{"not valid"}, Tags: []string{"a,b"}, Metafields: map[string]any{"": 1},
	}, now)
	e, ok := apperr.As(err)
	if !ok || e.Kind != apperr.Invalid || e.Code != "" {
		t.Fatalf("err = %v", err)
	}
	if got := len(e.Fields); got != 7 {
		t.Fatalf("fields %v", e.Fields)
	}
	for _, f := range []string{"phone", "currency", "language", "note", "tax_exemptions", "tags", "metafields"} {
		if e.Fields[f] == "" {
			t.Errorf("no message for %s: %v", f, e.Fields)
		}
	}
	// An invalid email is reported with its own code, and names the field.
	_, err = Create("id", Draft{Email: "bad", Phone: "12"}, now)
	if e, _ := apperr.As(err); !errors.Is(err, ErrInvalidEmail) || e.Fields["email"] == "" {
		t.Fatalf("bad email: %v", err)
	}
	c, err := Create("id", Draft{Email: "a@b.co", Currency: "eur", Language: "FR", TaxExemptions: []string{"ca_status_card_exemption", "CA_STATUS_CARD_EXEMPTION"}}, now)
	if err != nil || c.Currency != "EUR" || c.Language != "fr" || len(c.TaxExemptions) != 1 || c.TaxExemptions[0] != "CA_STATUS_CARD_EXEMPTION" {
		t.Fatalf("normalized: %+v, %v", c, err)
	}
}

func TestApply(t *testing.T) {
	t.Parallel()
	c, err := Create("id", Draft{Email: "a@b.co", VerifiedEmail: true, FirstName: "A"}, now)
	if err != nil {
		t.Fatal(err)
	}
	later := now.Add(time.Hour)

	// Marketing consent records when it was given and clears when withdrawn.
	if _, err := c.Apply(Patch{AcceptsMarketing: patch.Val(true)}, later); err != nil || c.MarketingOptInAt == nil || !c.MarketingOptInAt.Equal(later) {
		t.Fatalf("opt in: %v %v", err, c.MarketingOptInAt)
	}
	if _, err := c.Apply(Patch{AcceptsMarketing: patch.Val(true)}, later.Add(time.Hour)); err != nil || !c.MarketingOptInAt.Equal(later) {
		t.Fatalf("opt in again keeps the first date: %v", c.MarketingOptInAt)
	}
	if _, err := c.Apply(Patch{AcceptsMarketing: patch.Val(false)}, later); err != nil || c.MarketingOptInAt != nil || c.AcceptsMarketing {
		t.Fatalf("opt out: %+v", c)
	}

	// A new email is unverified unless verified_email is given; the same email is no change.
	changed, err := c.Apply(Patch{Email: patch.Val("A@B.CO")}, later)
	if err != nil || changed || !c.VerifiedEmail {
		t.Fatalf("same email: %v %v %+v", changed, err, c)
	}
	changed, err = c.Apply(Patch{Email: patch.Val("new@b.co")}, later)
	if err != nil || !changed || c.VerifiedEmail || c.Email != "new@b.co" {
		t.Fatalf("new email: %v %v %+v", changed, err, c)
	}
	if _, err := c.Apply(Patch{Email: patch.Val("x@b.co"), VerifiedEmail: patch.Val(true)}, later); err != nil || !c.VerifiedEmail {
		t.Fatalf("email with verified_email: %+v", c)
	}

	// A failed patch changes nothing.
	before := *c
	if _, err := c.Apply(Patch{FirstName: patch.Val("B"), Phone: patch.Val("1")}, later.Add(time.Hour)); err == nil {
		t.Fatal("bad phone accepted")
	}
	if c.FirstName != before.FirstName || !c.UpdatedAt.Equal(before.UpdatedAt) {
		t.Fatalf("failed patch changed the customer: %+v", c)
	}
}

func TestNormalizeTags(t *testing.T) {
	t.Parallel()
	got, msg := NormalizeTags([]string{" VIP ", "vip", "", "Wholesale", "wholesale "})
	if msg != "" || strings.Join(got, "|") != "VIP|Wholesale" {
		t.Fatalf("NormalizeTags = %v %q", got, msg)
	}
	if _, msg := NormalizeTags([]string{strings.Repeat("x", MaxTagLength+1)}); msg == "" {
		t.Error("long tag accepted")
	}
	many := make([]string, MaxTags+1)
	for i := range many {
		many[i] = "t" + strings.Repeat("x", i)
	}
	if _, msg := NormalizeTags(many); msg == "" {
		t.Error("too many tags accepted")
	}
}

func TestAnonymize(t *testing.T) {
	t.Parallel()
	c, _ := Create("id", Draft{Email: "a@b.co", Phone: "+15551234567", FirstName: "A", LastName: "B", Note: "n", Tags: []string{"vip"},
		AcceptsMarketing: true, Metafields: map[string]any{"k": "v"}, TaxExempt: true}, now)
	c.HasPassword = true
	c.Stats = OrderStats{OrdersCount: 2}
	if changed := c.Anonymize("abc123", now); !changed {
		t.Fatal("state change not reported")
	}
	if c.Email != "anonymized-abc123@invalid" || c.Phone != "" || c.FirstName != "" || c.LastName != "" || c.Note != "" ||
		len(c.Tags) != 0 || len(c.Metafields) != 0 || c.AcceptsMarketing || c.MarketingOptInAt != nil || c.TaxExempt ||
		c.HasPassword || c.State != StateDisabled || !c.Anonymized() || c.Stats.OrdersCount != 2 {
		t.Fatalf("anonymized %+v", c)
	}
	if changed := c.Anonymize("def", now); changed {
		t.Fatal("already disabled: no state change")
	}
}

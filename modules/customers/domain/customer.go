// Package domain holds the customer entity and its rules: profile validation, the
// state machine, addresses, order statistics, segments and account tokens. Plain Go.
package domain

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gocommerce/commerce/platform/email"
	"github.com/gocommerce/commerce/platform/patch"
	"github.com/gocommerce/commerce/platform/tags"
)

// CustomerID identifies a customer (a UUID).
type CustomerID string

// Field limits.
const (
	// MaxEmailLength is the longest accepted email address (RFC 5321 path limit).
	MaxEmailLength = email.MaxLength
	// MaxNameLength is the longest accepted first or last name, in characters.
	MaxNameLength = 255
	// MaxNoteLength is the longest internal note, in characters.
	MaxNoteLength = 5000
	// MaxTags is the most tags a customer may carry; MaxTagLength the longest tag.
	MaxTags      = tags.MaxCount
	MaxTagLength = tags.MaxLength
	// MaxTaxExemptions is the most tax exemption codes.
	MaxTaxExemptions = 50
	// MaxMetafieldsBytes is the largest metafields object, encoded as JSON.
	MaxMetafieldsBytes = 64 << 10
)

// Customer is a customer profile with its order statistics.
type Customer struct {
	ID               CustomerID
	Email            string // lower case
	Phone            string // normalized: optional leading +, digits only
	FirstName        string
	LastName         string
	AcceptsMarketing bool
	MarketingOptInAt *time.Time
	TaxExempt        bool
	TaxExemptions    []string
	Currency         string // ISO 4217, preferred
	Language         string // ISO 639-1
	Note             string // internal
	Tags             []string
	VerifiedEmail    bool
	Metafields       map[string]any
	State            State
	// HasPassword is true once a password was set (at creation, activation or reset).
	HasPassword  bool
	Stats        OrderStats
	AnonymizedAt *time.Time
	CreatedAt    time.Time
	UpdatedAt    time.Time
}

// Draft is the input of a new customer.
type Draft struct {
	Email            string
	Phone            string
	FirstName        string
	LastName         string
	AcceptsMarketing bool
	TaxExempt        bool
	TaxExemptions    []string
	Currency         string
	Language         string
	Note             string
	Tags             []string
	VerifiedEmail    bool
	Metafields       map[string]any
	State            State // empty means enabled
}

// Patch changes some fields of a customer; absent members stay as they are.
type Patch struct {
	Email            patch.Field[string]
	Phone            patch.Field[string]
	FirstName        patch.Field[string]
	LastName         patch.Field[string]
	AcceptsMarketing patch.Field[bool]
	TaxExempt        patch.Field[bool]
	TaxExemptions    patch.Field[[]string]
	Currency         patch.Field[string]
	Language         patch.Field[string]
	Note             patch.Field[string]
	Tags             patch.Field[[]string]
	VerifiedEmail    patch.Field[bool]
	Metafields       patch.Field[map[string]any]
}

// NormalizeEmail trims and lower-cases an email address and checks it (platform/email).
func NormalizeEmail(s string) (string, error) {
	e, ok := email.Normalize(s)
	if !ok {
		return "", ErrInvalidEmail
	}
	return e, nil
}

var phoneSeparators = strings.NewReplacer(" ", "", "-", "", "(", "", ")", "", ".", "", "\t", "")

var phonePattern = regexp.MustCompile(`^\+?[0-9]{5,15}$`)

// NormalizePhone strips separators (spaces, dashes, dots, parentheses) and checks the
// result is an optional "+" and 5 to 15 digits (E.164 length). Empty stays empty.
func NormalizePhone(s string) (string, bool) {
	p := phoneSeparators.Replace(strings.TrimSpace(s))
	if p == "" {
		return "", true
	}
	return p, phonePattern.MatchString(p)
}

var (
	currencyPattern  = regexp.MustCompile(`^[A-Z]{3}$`)
	exemptionPattern = regexp.MustCompile(`^[A-Z0-9_]{1,64}$`)
)

// NewCustomer builds a customer with an email and names only (the api's
// CreateCustomerCommand). An empty state means enabled.
func NewCustomer(id CustomerID, email, firstName, lastName string, state State, now time.Time) (*Customer, error) {
	return Create(id, Draft{Email: email, FirstName: firstName, LastName: lastName, State: state}, now)
}

// Create validates a draft and builds the customer.
func Create(id CustomerID, d Draft, now time.Time) (*Customer, error) {
	state := d.State
	if state == "" {
		state = StateEnabled
	}
	if !state.Valid() {
		return nil, ErrInvalidState
	}
	c := &Customer{ID: id, State: state, CreatedAt: now, UpdatedAt: now, TaxExemptions: []string{}, Tags: []string{}, Metafields: map[string]any{}}
	p := Patch{
		Email: patch.Val(d.Email), Phone: patch.Val(d.Phone), FirstName: patch.Val(d.FirstName), LastName: patch.Val(d.LastName),
		AcceptsMarketing: patch.Val(d.AcceptsMarketing), TaxExempt: patch.Val(d.TaxExempt), Currency: patch.Val(d.Currency),
		Language: patch.Val(d.Language), Note: patch.Val(d.Note), VerifiedEmail: patch.Val(d.VerifiedEmail),
	}
	if d.TaxExemptions != nil {
		p.TaxExemptions = patch.Val(d.TaxExemptions)
	}
	if d.Tags != nil {
		p.Tags = patch.Val(d.Tags)
	}
	if d.Metafields != nil {
		p.Metafields = patch.Val(d.Metafields)
	}
	if _, err := c.Apply(p, now); err != nil {
		return nil, err
	}
	c.UpdatedAt = now
	return c, nil
}

// Apply validates a patch and applies it. It answers whether the email changed.
// An invalid email is ErrInvalidEmail (with the field); other problems are one
// validation error naming every bad field. Nothing changes when it fails.
func (c *Customer) Apply(p Patch, now time.Time) (emailChanged bool, err error) {
	next := *c
	if emailChanged, err = next.applyEmail(p.Email); err != nil {
		return false, err
	}
	bad := patch.Problems{}
	next.applyProfile(p, bad)
	next.applyLists(p, bad)
	next.applyFlags(p, emailChanged, c.AcceptsMarketing, now)
	if err := bad.Err(); err != nil {
		return false, err
	}
	next.UpdatedAt = now
	*c = next
	return emailChanged, nil
}

// applyEmail normalizes and applies the email (ErrInvalidEmail when invalid).
func (c *Customer) applyEmail(f patch.Field[string]) (changed bool, err error) {
	if !f.Set {
		return false, nil
	}
	e, err := NormalizeEmail(f.Value)
	if f.Null || err != nil {
		return false, ErrInvalidEmail.WithField("email", "must be a valid email address")
	}
	changed = e != c.Email
	c.Email = e
	return changed, nil
}

// applyProfile applies the phone, names, note, currency and language.
func (c *Customer) applyProfile(p Patch, bad patch.Problems) {
	patch.Apply(bad, "phone", p.Phone, &c.Phone, func(s string) (string, string) {
		if ph, ok := NormalizePhone(s); ok {
			return ph, ""
		}
		return "", "must be a phone number with 5 to 15 digits"
	})
	patch.Text{Max: MaxNameLength, Trim: true}.Apply(bad, "first_name", p.FirstName, &c.FirstName)
	patch.Text{Max: MaxNameLength, Trim: true}.Apply(bad, "last_name", p.LastName, &c.LastName)
	patch.Text{Max: MaxNoteLength, Trim: true}.Apply(bad, "note", p.Note, &c.Note)
	patch.Apply(bad, "currency", p.Currency, &c.Currency, func(s string) (string, string) {
		cur := strings.ToUpper(strings.TrimSpace(s))
		if cur != "" && !currencyPattern.MatchString(cur) {
			return "", "must be an ISO 4217 currency code"
		}
		return cur, ""
	})
	patch.Apply(bad, "language", p.Language, &c.Language, func(s string) (string, string) {
		lang := strings.ToLower(strings.TrimSpace(s))
		if lang != "" && !ValidLanguage(lang) {
			return "", "must be an ISO 639-1 language code"
		}
		return lang, ""
	})
}

// applyLists applies tax_exemptions, tags and metafields.
func (c *Customer) applyLists(p Patch, bad patch.Problems) {
	patch.Apply(bad, "tax_exemptions", p.TaxExemptions, &c.TaxExemptions, normalizeExemptions)
	patch.Apply(bad, "tags", p.Tags, &c.Tags, NormalizeTags)
	patch.Apply(bad, "metafields", p.Metafields, &c.Metafields, func(m map[string]any) (map[string]any, string) {
		if m == nil {
			m = map[string]any{}
		}
		return m, checkMetafields(m)
	})
}

// applyFlags applies tax_exempt, verified_email (a new address is unverified until
// confirmed) and accepts_marketing (opting in records when; opting out clears it).
func (c *Customer) applyFlags(p Patch, emailChanged, wasAccepting bool, now time.Time) {
	if p.TaxExempt.HasValue() {
		c.TaxExempt = p.TaxExempt.Value
	}
	if p.VerifiedEmail.HasValue() {
		c.VerifiedEmail = p.VerifiedEmail.Value
	} else if emailChanged {
		c.VerifiedEmail = false
	}
	if m := p.AcceptsMarketing; m.HasValue() {
		if m.Value && !wasAccepting {
			t := now
			c.MarketingOptInAt = &t
		}
		if !m.Value {
			c.MarketingOptInAt = nil
		}
		c.AcceptsMarketing = m.Value
	}
}

// NormalizeTags trims tags, drops empty ones and duplicates (case-insensitively,
// keeping the first spelling) and checks the limits; the message is empty when valid.
func NormalizeTags(in []string) ([]string, string) {
	out, p := tags.Normalize(in, tags.Comma|tags.TooLong)
	switch {
	case p&tags.TooLong != 0:
		return out, fmt.Sprintf("each tag must be at most %d characters", MaxTagLength)
	case p&tags.Comma != 0:
		return out, "tags must not contain commas"
	case p == tags.TooMany:
		return out, fmt.Sprintf("must have at most %d tags", MaxTags)
	}
	return out, ""
}

// TagKey is the form tags are matched in (lower case, trimmed).
func TagKey(t string) string { return strings.ToLower(strings.TrimSpace(t)) }

func normalizeExemptions(in []string) ([]string, string) {
	out := make([]string, 0, len(in))
	seen := map[string]bool{}
	for _, e := range in {
		e = strings.ToUpper(strings.TrimSpace(e))
		if !exemptionPattern.MatchString(e) {
			return out, "each exemption must be an upper-case code (letters, digits, underscores)"
		}
		if !seen[e] {
			seen[e] = true
			out = append(out, e)
		}
	}
	if len(out) > MaxTaxExemptions {
		return out, fmt.Sprintf("must have at most %d exemptions", MaxTaxExemptions)
	}
	return out, ""
}

func checkMetafields(m map[string]any) string {
	for k := range m {
		if k == "" || utf8.RuneCountInString(k) > 64 {
			return "keys must be 1 to 64 characters"
		}
	}
	raw, err := json.Marshal(m)
	if err != nil {
		return "must be a JSON object"
	}
	if len(raw) > MaxMetafieldsBytes {
		return fmt.Sprintf("must be at most %d bytes of JSON", MaxMetafieldsBytes)
	}
	return ""
}

// CanSignIn reports whether the customer may log in (only enabled customers may).
func (c *Customer) CanSignIn() bool { return c.State == StateEnabled }

// Anonymized reports whether the customer's personal data was erased.
func (c *Customer) Anonymized() bool { return c.AnonymizedAt != nil }

// Anonymize replaces every piece of personal data with irreversible placeholders:
// the email becomes "anonymized-<placeholder>@invalid" (placeholder: random hex chosen
// by the caller, never derived from the data), names, phone, note, tags, metafields and
// tax details are cleared, marketing consent is withdrawn and the account is disabled.
// Order statistics are kept. It answers whether the state changed.
func (c *Customer) Anonymize(placeholder string, now time.Time) (stateChanged bool) {
	c.Email = "anonymized-" + placeholder + "@invalid"
	c.Phone, c.FirstName, c.LastName, c.Note = "", "", "", ""
	c.Tags, c.TaxExemptions, c.Metafields = []string{}, []string{}, map[string]any{}
	c.TaxExempt, c.VerifiedEmail, c.AcceptsMarketing, c.MarketingOptInAt = false, false, false, nil
	c.HasPassword = false
	stateChanged = c.State != StateDisabled
	c.State = StateDisabled
	t := now
	c.AnonymizedAt = &t
	c.UpdatedAt = now
	return stateChanged
}

// Package domain holds the customer entity and its rules: profile validation, the
// state machine, addresses, order statistics, segments and account tokens. Plain Go.
package domain

import (
	"encoding/json"
	"fmt"
	"net/mail"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gocommerce/commerce/platform/apperr"
)

// CustomerID identifies a customer (a UUID).
type CustomerID string

// Field limits.
const (
	// MaxEmailLength is the longest accepted email address (RFC 5321 path limit).
	MaxEmailLength = 254
	// MaxNameLength is the longest accepted first or last name, in characters.
	MaxNameLength = 255
	// MaxNoteLength is the longest internal note, in characters.
	MaxNoteLength = 5000
	// MaxTags is the most tags a customer may carry; MaxTagLength the longest tag.
	MaxTags      = 250
	MaxTagLength = 255
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

// Patch changes some fields of a customer; nil members stay as they are.
type Patch struct {
	Email            *string
	Phone            *string
	FirstName        *string
	LastName         *string
	AcceptsMarketing *bool
	TaxExempt        *bool
	TaxExemptions    *[]string
	Currency         *string
	Language         *string
	Note             *string
	Tags             *[]string
	VerifiedEmail    *bool
	Metafields       *map[string]any
}

// Empty reports whether the patch changes nothing.
func (p Patch) Empty() bool { return p == Patch{} }

// NormalizeEmail trims and lower-cases an email address and checks it: a single
// addr-spec (no display name) accepted by net/mail, at most 254 characters, with a
// dot in the domain.
func NormalizeEmail(s string) (string, error) {
	e := strings.ToLower(strings.TrimSpace(s))
	if e == "" || len(e) > MaxEmailLength {
		return "", ErrInvalidEmail
	}
	a, err := mail.ParseAddress(e)
	if err != nil || a.Name != "" || a.Address != e {
		return "", ErrInvalidEmail
	}
	at := strings.LastIndexByte(e, '@')
	domain := e[at+1:]
	if !strings.Contains(domain, ".") || strings.HasPrefix(domain, ".") || strings.HasSuffix(domain, ".") || strings.Contains(domain, "..") {
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
		Email: &d.Email, Phone: &d.Phone, FirstName: &d.FirstName, LastName: &d.LastName,
		AcceptsMarketing: &d.AcceptsMarketing, TaxExempt: &d.TaxExempt, Currency: &d.Currency,
		Language: &d.Language, Note: &d.Note, VerifiedEmail: &d.VerifiedEmail,
	}
	if d.TaxExemptions != nil {
		p.TaxExemptions = &d.TaxExemptions
	}
	if d.Tags != nil {
		p.Tags = &d.Tags
	}
	if d.Metafields != nil {
		p.Metafields = &d.Metafields
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
	fields := map[string]string{}
	if p.Email != nil {
		e, err := NormalizeEmail(*p.Email)
		if err != nil {
			return false, ErrInvalidEmail.WithField("email", "must be a valid email address")
		}
		emailChanged = e != c.Email
		next.Email = e
	}
	if p.Phone != nil {
		ph, ok := NormalizePhone(*p.Phone)
		if !ok {
			fields["phone"] = "must be a phone number with 5 to 15 digits"
		}
		next.Phone = ph
	}
	text := func(field string, v *string, max int, dst *string) {
		if v == nil {
			return
		}
		s := strings.TrimSpace(*v)
		if utf8.RuneCountInString(s) > max {
			fields[field] = fmt.Sprintf("must be at most %d characters", max)
		}
		*dst = s
	}
	text("first_name", p.FirstName, MaxNameLength, &next.FirstName)
	text("last_name", p.LastName, MaxNameLength, &next.LastName)
	text("note", p.Note, MaxNoteLength, &next.Note)
	if p.Currency != nil {
		cur := strings.ToUpper(strings.TrimSpace(*p.Currency))
		if cur != "" && !currencyPattern.MatchString(cur) {
			fields["currency"] = "must be an ISO 4217 currency code"
		}
		next.Currency = cur
	}
	if p.Language != nil {
		lang := strings.ToLower(strings.TrimSpace(*p.Language))
		if lang != "" && !ValidLanguage(lang) {
			fields["language"] = "must be an ISO 639-1 language code"
		}
		next.Language = lang
	}
	if p.TaxExemptions != nil {
		ex, msg := normalizeExemptions(*p.TaxExemptions)
		if msg != "" {
			fields["tax_exemptions"] = msg
		}
		next.TaxExemptions = ex
	}
	if p.Tags != nil {
		tags, msg := NormalizeTags(*p.Tags)
		if msg != "" {
			fields["tags"] = msg
		}
		next.Tags = tags
	}
	if p.Metafields != nil {
		m := *p.Metafields
		if m == nil {
			m = map[string]any{}
		}
		if msg := checkMetafields(m); msg != "" {
			fields["metafields"] = msg
		}
		next.Metafields = m
	}
	if p.TaxExempt != nil {
		next.TaxExempt = *p.TaxExempt
	}
	if p.VerifiedEmail != nil {
		next.VerifiedEmail = *p.VerifiedEmail
	} else if emailChanged {
		next.VerifiedEmail = false // a new address is unverified until confirmed
	}
	if p.AcceptsMarketing != nil {
		if *p.AcceptsMarketing && !c.AcceptsMarketing {
			t := now
			next.MarketingOptInAt = &t
		}
		if !*p.AcceptsMarketing {
			next.MarketingOptInAt = nil
		}
		next.AcceptsMarketing = *p.AcceptsMarketing
	}
	if len(fields) > 0 {
		return false, apperr.Validation(fields)
	}
	next.UpdatedAt = now
	*c = next
	return emailChanged, nil
}

// NormalizeTags trims tags, drops empty ones and duplicates (case-insensitively,
// keeping the first spelling) and checks the limits; the message is empty when valid.
func NormalizeTags(in []string) ([]string, string) {
	out := make([]string, 0, len(in))
	seen := map[string]bool{}
	for _, t := range in {
		t = strings.TrimSpace(t)
		if t == "" {
			continue
		}
		if utf8.RuneCountInString(t) > MaxTagLength {
			return out, fmt.Sprintf("each tag must be at most %d characters", MaxTagLength)
		}
		if strings.Contains(t, ",") {
			return out, "tags must not contain commas"
		}
		k := strings.ToLower(t)
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, t)
	}
	if len(out) > MaxTags {
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

package domain

import (
	"strings"
	"unicode"

	"github.com/gocommerce/commerce/platform/apperr"
)

// SearchTerms is a parsed search query (docs/decisions/0045): "field:value" tokens for
// email, phone, first_name, last_name (substring matches), state, tag and
// accepts_marketing; every other word (or "quoted phrase") must appear in the name,
// email or phone.
type SearchTerms struct {
	Email            string
	Phone            string
	FirstName        string
	LastName         string
	States           []State
	Tags             []string
	AcceptsMarketing *bool
	Terms            []string
}

// MaxSearchTerms bounds a query's words.
const MaxSearchTerms = 10

// ParseSearch reads a search query.
func ParseSearch(q string) (SearchTerms, error) {
	var s SearchTerms
	for _, tok := range tokenize(q) {
		key, value, hasKey := strings.Cut(tok, ":")
		value = strings.Trim(value, `"`)
		if !hasKey || value == "" {
			s.Terms = append(s.Terms, strings.ToLower(strings.Trim(tok, `"`)))
			continue
		}
		switch strings.ToLower(key) {
		case "email":
			s.Email = strings.ToLower(value)
		case "phone":
			s.Phone = value
		case "first_name":
			s.FirstName = strings.ToLower(value)
		case "last_name":
			s.LastName = strings.ToLower(value)
		case "state":
			st := State(strings.ToLower(value))
			if !st.Valid() {
				return s, apperr.Validation(map[string]string{"query": "state must be one of: enabled, disabled, invited, declined"})
			}
			s.States = append(s.States, st)
		case "tag":
			s.Tags = append(s.Tags, TagKey(value))
		case "accepts_marketing":
			b := strings.EqualFold(value, "true")
			if !b && !strings.EqualFold(value, "false") {
				return s, apperr.Validation(map[string]string{"query": "accepts_marketing must be true or false"})
			}
			s.AcceptsMarketing = &b
		default:
			s.Terms = append(s.Terms, strings.ToLower(strings.Trim(tok, `"`)))
		}
	}
	if len(s.Terms) > MaxSearchTerms {
		return s, apperr.Validation(map[string]string{"query": "must have at most 10 words"})
	}
	return s, nil
}

// Words splits free text into lower-case search words (quoted phrases kept whole).
func Words(q string) []string {
	var out []string
	for _, t := range tokenize(q) {
		if t = strings.ToLower(strings.Trim(t, `"`)); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// tokenize splits on white space outside double quotes.
func tokenize(q string) []string {
	var (
		out     []string
		cur     strings.Builder
		inQuote bool
	)
	flush := func() {
		if cur.Len() > 0 {
			out = append(out, cur.String())
			cur.Reset()
		}
	}
	for _, r := range q {
		switch {
		case r == '"':
			inQuote = !inQuote
			cur.WriteRune(r)
		case unicode.IsSpace(r) && !inQuote:
			flush()
		default:
			cur.WriteRune(r)
		}
	}
	flush()
	return out
}

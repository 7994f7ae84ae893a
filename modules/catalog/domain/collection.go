package domain

import (
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/platform/apperr"
)

// Collection types.
const (
	CollectionManual = "manual"
	CollectionSmart  = "smart"
)

// Rule columns of smart collections.
const (
	RuleTitle             = "title"
	RuleProductType       = "product_type"
	RuleVendor            = "vendor"
	RuleTag               = "tag"
	RulePrice             = "price"
	RuleInventoryQuantity = "inventory_quantity"
)

// Rule relations of smart collections.
const (
	RelEquals      = "equals"
	RelNotEquals   = "not_equals"
	RelContains    = "contains"
	RelNotContains = "not_contains"
	RelStartsWith  = "starts_with"
	RelEndsWith    = "ends_with"
	RelGreaterThan = "greater_than"
	RelLessThan    = "less_than"
)

// MaxRules bounds a smart collection's rules.
const MaxRules = 60

var (
	textRelations    = []string{RelEquals, RelNotEquals, RelContains, RelNotContains, RelStartsWith, RelEndsWith}
	numberRelations  = []string{RelEquals, RelNotEquals, RelGreaterThan, RelLessThan}
	ruleRelationsFor = map[string][]string{
		RuleTitle: textRelations, RuleProductType: textRelations, RuleVendor: textRelations,
		RuleTag: {RelEquals, RelNotEquals}, RulePrice: numberRelations, RuleInventoryQuantity: numberRelations,
	}
)

// Rule is one condition of a smart collection; a product belongs to a smart collection
// when it meets every rule (text comparisons ignore case).
type Rule struct {
	Column    string
	Relation  string
	Condition string
}

// CheckRule validates a rule.
func CheckRule(r Rule) string {
	rels, ok := ruleRelationsFor[r.Column]
	if !ok {
		return "column must be one of: title, product_type, vendor, tag, price, inventory_quantity"
	}
	if !slices.Contains(rels, r.Relation) {
		return "relation for " + r.Column + " must be one of: " + strings.Join(rels, ", ")
	}
	if strings.TrimSpace(r.Condition) == "" || utf8.RuneCountInString(r.Condition) > MaxTitleLength {
		return "condition must be a non-empty string of at most 255 characters"
	}
	switch r.Column {
	case RulePrice:
		if _, err := decimal.NewFromString(r.Condition); err != nil {
			return "condition of a price rule must be a decimal string"
		}
	case RuleInventoryQuantity:
		for _, c := range strings.TrimPrefix(r.Condition, "-") {
			if c < '0' || c > '9' {
				return "condition of an inventory_quantity rule must be an integer"
			}
		}
	}
	return ""
}

// Collection groups products: by hand (manual) or by rules (smart).
type Collection struct {
	ID             string
	Title          string
	Slug           string
	Description    string
	CollectionType string
	Rules          []Rule
	IsActive       bool
	SEOTitle       string
	SEODescription string
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

// CollectionInput is a collection write request.
type CollectionInput struct {
	Title          Field[string]
	Slug           Field[string]
	Description    Field[string]
	CollectionType Field[string]
	Rules          Field[[]Rule]
	IsActive       Field[bool]
	SEOTitle       Field[string]
	SEODescription Field[string]
}

// NewCollection validates a create request: title required; type manual, active, no
// rules by default. A smart collection needs at least one rule.
func NewCollection(id string, in CollectionInput, now time.Time) (*Collection, error) {
	if !in.Title.Set {
		return nil, apperr.Validation(map[string]string{"title": "is required"})
	}
	c := &Collection{ID: id, Rules: []Rule{}, IsActive: true, CreatedAt: now, UpdatedAt: now}
	if err := c.Apply(in, now); err != nil {
		return nil, err
	}
	if c.CollectionType == "" {
		c.CollectionType = CollectionManual
	}
	return c, nil
}

// Apply validates and applies the present fields; nothing changes on error. The type of
// an existing collection (CollectionType set) cannot change: its membership would
// change meaning.
func (c *Collection) Apply(in CollectionInput, now time.Time) error {
	next := *c
	next.Rules = slices.Clone(c.Rules)
	bad := problems{}
	text := func(name string, f Field[string], max int, required bool, dst *string) {
		if !f.Set {
			return
		}
		if f.Null {
			bad.add(name, msgNotNull)
			return
		}
		v := f.Value
		if required {
			v = strings.TrimSpace(v)
			if v == "" {
				bad.add(name, "must not be empty")
				return
			}
		}
		if max > 0 && utf8.RuneCountInString(v) > max {
			bad.add(name, "must be at most "+strconv.Itoa(max)+" characters")
			return
		}
		*dst = v
	}
	text("title", in.Title, MaxTitleLength, true, &next.Title)
	if in.Slug.Set {
		if in.Slug.Null || !ValidSlug(in.Slug.Value) {
			bad.add("slug", "must be lower-case letters, digits and single hyphens (e.g. \"summer-sale\"), at most 255 characters")
		} else {
			next.Slug = in.Slug.Value
		}
	}
	text("description", in.Description, 0, false, &next.Description)
	text("seo_title", in.SEOTitle, MaxSEOTitleLength, false, &next.SEOTitle)
	text("seo_description", in.SEODescription, MaxSEODescLength, false, &next.SEODescription)
	if in.IsActive.Set {
		if in.IsActive.Null {
			bad.add("is_active", msgNotNull)
		} else {
			next.IsActive = in.IsActive.Value
		}
	}
	if in.CollectionType.Set {
		switch {
		case in.CollectionType.Null || (in.CollectionType.Value != CollectionManual && in.CollectionType.Value != CollectionSmart):
			bad.add("collection_type", "must be one of: manual, smart")
		case c.CollectionType != "" && in.CollectionType.Value != c.CollectionType:
			bad.add("collection_type", "cannot be changed after creation")
		default:
			next.CollectionType = in.CollectionType.Value
		}
	}
	if in.Rules.Set {
		if in.Rules.Null {
			next.Rules = []Rule{}
		} else if len(in.Rules.Value) > MaxRules {
			bad.add("rules", "at most 60 rules")
		} else {
			rules := make([]Rule, 0, len(in.Rules.Value))
			for _, r := range in.Rules.Value {
				r.Column, r.Relation = strings.TrimSpace(r.Column), strings.TrimSpace(r.Relation)
				if msg := CheckRule(r); msg != "" {
					bad.add("rules", msg)
					break
				}
				rules = append(rules, r)
			}
			next.Rules = rules
		}
	}
	if _, done := bad["collection_type"]; !done {
		if _, done := bad["rules"]; !done {
			typ := next.CollectionType
			if typ == "" {
				typ = CollectionManual
			}
			if typ == CollectionSmart && len(next.Rules) == 0 {
				bad.add("rules", "a smart collection needs at least one rule")
			}
			if typ == CollectionManual && len(next.Rules) > 0 {
				bad.add("rules", "only smart collections have rules")
			}
		}
	}
	if len(bad) > 0 {
		return apperr.Validation(bad)
	}
	next.UpdatedAt = now
	*c = next
	return nil
}

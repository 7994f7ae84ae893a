package domain

import (
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/patch"
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
	Title          patch.Field[string]
	Slug           patch.Field[string]
	Description    patch.Field[string]
	CollectionType patch.Field[string]
	Rules          patch.Field[[]Rule]
	IsActive       patch.Field[bool]
	SEOTitle       patch.Field[string]
	SEODescription patch.Field[string]
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
	bad := patch.Problems{}
	patch.Text{Max: MaxTitleLength, Required: true}.Apply(bad, "title", in.Title, &next.Title)
	patch.Apply(bad, "slug", in.Slug, &next.Slug, checkSlug("summer-sale"))
	patch.Text{}.Apply(bad, "description", in.Description, &next.Description)
	patch.Text{Max: MaxSEOTitleLength}.Apply(bad, "seo_title", in.SEOTitle, &next.SEOTitle)
	patch.Text{Max: MaxSEODescLength}.Apply(bad, "seo_description", in.SEODescription, &next.SEODescription)
	patch.Copy(bad, "is_active", in.IsActive, &next.IsActive)
	next.applyMembership(in, bad)
	if err := bad.Err(); err != nil {
		return err
	}
	next.UpdatedAt = now
	*c = next
	return nil
}

// applyMembership applies collection_type (set once) and rules (null clears them),
// then checks they agree: a smart collection has rules, a manual one has none.
func (c *Collection) applyMembership(in CollectionInput, bad patch.Problems) {
	was := c.CollectionType
	patch.OneOf(bad, "collection_type", in.CollectionType, &c.CollectionType, CollectionManual, CollectionSmart)
	if was != "" && c.CollectionType != was {
		bad.Add("collection_type", "cannot be changed after creation")
	}
	if in.Rules.Set && in.Rules.Null {
		c.Rules = []Rule{}
	} else {
		patch.Apply(bad, "rules", in.Rules, &c.Rules, normalizeRules)
	}
	if bad.Has("collection_type") || bad.Has("rules") {
		return
	}
	typ := c.CollectionType
	if typ == "" {
		typ = CollectionManual
	}
	if typ == CollectionSmart && len(c.Rules) == 0 {
		bad.Add("rules", "a smart collection needs at least one rule")
	}
	if typ == CollectionManual && len(c.Rules) > 0 {
		bad.Add("rules", "only smart collections have rules")
	}
}

// normalizeRules trims and checks smart-collection rules.
func normalizeRules(in []Rule) ([]Rule, string) {
	if len(in) > MaxRules {
		return nil, "at most 60 rules"
	}
	rules := make([]Rule, 0, len(in))
	for _, r := range in {
		r.Column, r.Relation = strings.TrimSpace(r.Column), strings.TrimSpace(r.Relation)
		if msg := CheckRule(r); msg != "" {
			return nil, msg
		}
		rules = append(rules, r)
	}
	return rules, ""
}

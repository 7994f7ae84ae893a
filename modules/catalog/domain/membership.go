package domain

import (
	"strings"
	"time"

	"github.com/shopspring/decimal"
)

// Membership places a product in a manual collection at a 1-based position.
type Membership struct {
	CollectionID string
	ProductID    string
	Position     int
	CreatedAt    time.Time
}

// Matches reports whether a product meets every rule of a smart collection (text
// comparisons ignore case). A manual collection matches nothing by rules.
func (c *Collection) Matches(p *Product) bool {
	if c.CollectionType != CollectionSmart || len(c.Rules) == 0 {
		return false
	}
	for _, r := range c.Rules {
		if !ruleMatches(r, p) {
			return false
		}
	}
	return true
}

func ruleMatches(r Rule, p *Product) bool {
	cond := strings.ToLower(r.Condition)
	switch r.Column {
	case RuleTag:
		has := false
		for _, t := range p.Tags {
			if strings.ToLower(t) == cond {
				has = true
				break
			}
		}
		return has == (r.Relation == RelEquals)
	case RulePrice:
		d, err := decimal.NewFromString(r.Condition)
		if err != nil {
			return false
		}
		return compare(p.Price.Cmp(d), r.Relation)
	case RuleInventoryQuantity:
		d, err := decimal.NewFromString(r.Condition)
		if err != nil {
			return false
		}
		return compare(decimal.NewFromInt(int64(p.InventoryQuantity)).Cmp(d), r.Relation)
	}
	var v string
	switch r.Column {
	case RuleTitle:
		v = p.Title
	case RuleProductType:
		v = p.ProductType
	case RuleVendor:
		v = p.Vendor
	}
	v = strings.ToLower(v)
	switch r.Relation {
	case RelEquals:
		return v == cond
	case RelNotEquals:
		return v != cond
	case RelContains:
		return strings.Contains(v, cond)
	case RelNotContains:
		return !strings.Contains(v, cond)
	case RelStartsWith:
		return strings.HasPrefix(v, cond)
	case RelEndsWith:
		return strings.HasSuffix(v, cond)
	}
	return false
}

func compare(cmp int, relation string) bool {
	switch relation {
	case RelEquals:
		return cmp == 0
	case RelNotEquals:
		return cmp != 0
	case RelGreaterThan:
		return cmp > 0
	case RelLessThan:
		return cmp < 0
	}
	return false
}

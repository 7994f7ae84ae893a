package postgres

import (
	"fmt"
	"strings"

	"gorm.io/gorm"

	"github.com/gocommerce/commerce/modules/customers/domain"
	"github.com/gocommerce/commerce/modules/customers/ports"
)

// segmentColumns is the second whitelist (after domain.SegmentFields): the column each
// segment field compiles to. Only these names ever reach the SQL text; every value is
// a bound parameter.
var segmentColumns = map[string]string{
	"orders_count":        "orders_count",
	"total_spent":         "total_spent_units",
	"accepts_marketing":   "accepts_marketing",
	"verified_email":      "verified_email",
	"tax_exempt":          "tax_exempt",
	"state":               "state",
	"email":               "email",
	"first_name":          "first_name",
	"last_name":           "last_name",
	"phone":               "phone",
	"currency":            "currency",
	"language":            "language",
	"created_at":          "created_at",
	"updated_at":          "updated_at",
	"last_order_at":       "last_order_at",
	"marketing_opt_in_at": "marketing_opt_in_at",
	"tags":                "",
}

const (
	hasTag    = "EXISTS (SELECT 1 FROM customer_tags ct WHERE ct.customer_id = customers.id AND ct.tag = ?)"
	hasAnyTag = "EXISTS (SELECT 1 FROM customer_tags ct WHERE ct.customer_id = customers.id AND ct.tag IN ?)"
)

// likeEscaper escapes LIKE wildcards; patterns use ESCAPE '\'.
var likeEscaper = strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)

func contains(s string) string { return "%" + likeEscaper.Replace(strings.ToLower(s)) + "%" }

// applyFilter adds the filter's WHERE clauses, all with bound parameters.
func applyFilter(q *gorm.DB, f ports.CustomerFilter) (*gorm.DB, error) {
	if f.Email != "" {
		q = q.Where("email = ?", strings.ToLower(f.Email))
	}
	if f.Phone != "" {
		q = q.Where("phone = ?", f.Phone)
	}
	if f.EmailContains != "" {
		q = q.Where(`email LIKE ? ESCAPE '\'`, contains(f.EmailContains))
	}
	if f.PhoneContains != "" {
		p, _ := domain.NormalizePhone(f.PhoneContains)
		q = q.Where(`phone LIKE ? ESCAPE '\'`, contains(p))
	}
	if f.FirstName != "" {
		q = q.Where(`lower(first_name) LIKE ? ESCAPE '\'`, contains(f.FirstName))
	}
	if f.LastName != "" {
		q = q.Where(`lower(last_name) LIKE ? ESCAPE '\'`, contains(f.LastName))
	}
	if len(f.States) > 0 {
		states := make([]string, len(f.States))
		for i, s := range f.States {
			states[i] = string(s)
		}
		q = q.Where("state IN ?", states)
	}
	if f.AcceptsMarketing != nil {
		q = q.Where("accepts_marketing = ?", *f.AcceptsMarketing)
	}
	for _, t := range f.Tags {
		q = q.Where(hasTag, domain.TagKey(t))
	}
	if len(f.AnyTags) > 0 {
		q = q.Where(hasAnyTag, f.AnyTags)
	}
	if f.MinOrders != nil {
		q = q.Where("orders_count >= ?", *f.MinOrders)
	}
	if f.MinTotalSpent != nil {
		q = q.Where("total_spent_units >= ?", domain.MoneyUnits(*f.MinTotalSpent))
	}
	if f.CreatedAfter != nil {
		q = q.Where("created_at > ?", f.CreatedAfter.UTC())
	}
	if f.CreatedBefore != nil {
		q = q.Where("created_at < ?", f.CreatedBefore.UTC())
	}
	if f.UpdatedAfter != nil {
		q = q.Where("updated_at > ?", f.UpdatedAfter.UTC())
	}
	for _, term := range f.Terms {
		pat := contains(term)
		phone, _ := domain.NormalizePhone(term)
		if phone == "" {
			phone = term
		}
		q = q.Where(`(lower(first_name || ' ' || last_name) LIKE ? ESCAPE '\' OR email LIKE ? ESCAPE '\' OR phone LIKE ? ESCAPE '\')`,
			pat, pat, contains(phone))
	}
	for _, c := range f.Conditions {
		var err error
		if q, err = applyCondition(q, c, f); err != nil {
			return nil, err
		}
	}
	return q, nil
}

// comparison is the SQL operator of an ordering op.
func comparison(op domain.Op) (string, error) {
	switch op {
	case domain.OpGte:
		return ">=", nil
	case domain.OpLte:
		return "<=", nil
	case domain.OpEq:
		return "=", nil
	case domain.OpIn, domain.OpContains:
	}
	return "", fmt.Errorf("customers: operator %q is not a comparison", op)
}

// applyCondition compiles one segment condition.
func applyCondition(q *gorm.DB, c domain.Condition, f ports.CustomerFilter) (*gorm.DB, error) {
	col, ok := segmentColumns[c.Field]
	if !ok {
		return nil, fmt.Errorf("customers: segment field %q is not allowed", c.Field)
	}
	switch c.Kind {
	case domain.KindTags:
		if c.Op == domain.OpIn {
			return q.Where(hasAnyTag, c.Texts), nil
		}
		return q.Where(hasTag, c.Texts[0]), nil
	case domain.KindInt:
		if c.Op == domain.OpIn {
			return q.Where(col+" IN ?", c.Ints), nil
		}
		cmp, err := comparison(c.Op)
		if err != nil {
			return nil, err
		}
		return q.Where(col+" "+cmp+" ?", c.Ints[0]), nil
	case domain.KindMoney:
		cmp, err := comparison(c.Op)
		if err != nil {
			return nil, err
		}
		return q.Where(col+" "+cmp+" ?", domain.MoneyUnits(c.Money)), nil
	case domain.KindBool:
		return q.Where(col+" = ?", c.Bool), nil
	case domain.KindTime:
		cmp, err := comparison(c.Op)
		if err != nil {
			return nil, err
		}
		return q.Where(col+" "+cmp+" ?", c.Time.Resolve(f.Now).UTC()), nil
	case domain.KindText:
		expr := "lower(" + col + ")"
		values := c.Texts
		if c.Field == "phone" {
			expr = col
			values = make([]string, len(c.Texts))
			for i, v := range c.Texts {
				values[i], _ = domain.NormalizePhone(v)
			}
		}
		switch c.Op {
		case domain.OpContains:
			return q.Where(expr+` LIKE ? ESCAPE '\'`, contains(values[0])), nil
		case domain.OpIn:
			return q.Where(expr+" IN ?", values), nil
		case domain.OpEq, domain.OpGte, domain.OpLte:
		}
		return q.Where(expr+" = ?", values[0]), nil
	case domain.KindState, domain.KindUpper, domain.KindLower:
		if c.Op == domain.OpIn {
			return q.Where(col+" IN ?", c.Texts), nil
		}
		return q.Where(col+" = ?", c.Texts[0]), nil
	}
	return nil, fmt.Errorf("customers: segment field %q has an unknown kind", c.Field)
}

package http

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/gocommerce/commerce/modules/catalog/domain"
	"github.com/gocommerce/commerce/platform/apperr"
)

// body is a JSON object request body read member by member, so that each field can be
// absent, null or a value (PATCH and PUT semantics), and each type error names its
// field. Unknown members are ignored (docs/decisions/0007-request-bodies.md).
type body struct {
	raw   map[string]json.RawMessage
	bad   map[string]string
	coded error // first coded error (INVALID_PRICE for a JSON number amount)
}

// readBody reads the request body as a JSON object; an empty body is {}.
func readBody(c *gin.Context) (*body, error) {
	b := &body{raw: map[string]json.RawMessage{}, bad: map[string]string{}}
	if c.Request.Body == nil {
		return b, nil
	}
	data, err := io.ReadAll(c.Request.Body)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, apperr.New(apperr.TooLarge, "", fmt.Sprintf("Request body exceeds %d bytes", mbe.Limit))
		}
		return nil, apperr.Validation(map[string]string{"body": "could not be read"})
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return b, nil
	}
	if err := json.Unmarshal(data, &b.raw); err != nil || b.raw == nil {
		return nil, apperr.Validation(map[string]string{"body": "must be a valid JSON object"}).WithMessage("Request body is not valid JSON")
	}
	return b, nil
}

func isNull(raw json.RawMessage) bool { return string(bytes.TrimSpace(raw)) == "null" }

// kind names the JSON type of a raw value.
func kind(raw json.RawMessage) string {
	s := bytes.TrimSpace(raw)
	if len(s) == 0 {
		return "empty"
	}
	switch s[0] {
	case '"':
		return "string"
	case '{':
		return "object"
	case '[':
		return "array"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	default:
		return "number"
	}
}

func field[T any](b *body, name, want string, decode func(json.RawMessage) (T, bool)) domain.Field[T] {
	raw, ok := b.raw[name]
	if !ok {
		return domain.Field[T]{}
	}
	if isNull(raw) {
		return domain.Null[T]()
	}
	v, ok := decode(raw)
	if !ok {
		b.bad[name] = "must be " + want
		return domain.Field[T]{}
	}
	return domain.Val(v)
}

func (b *body) str(name string) domain.Field[string] {
	return field(b, name, "a string", func(raw json.RawMessage) (string, bool) {
		var s string
		return s, kind(raw) == "string" && json.Unmarshal(raw, &s) == nil
	})
}

func (b *body) boolean(name string) domain.Field[bool] {
	return field(b, name, "a boolean", func(raw json.RawMessage) (bool, bool) {
		var v bool
		return v, kind(raw) == "boolean" && json.Unmarshal(raw, &v) == nil
	})
}

func (b *body) integer(name string) domain.Field[int] {
	return field(b, name, "an integer", func(raw json.RawMessage) (int, bool) {
		var v int
		return v, kind(raw) == "number" && json.Unmarshal(raw, &v) == nil
	})
}

// money reads an amount: a decimal string. A JSON number is INVALID_PRICE (amounts are
// decimal strings, Part 1 convention 2: "19.99", never 19.99).
func (b *body) money(name string) domain.Field[string] {
	raw, ok := b.raw[name]
	if ok && kind(raw) == "number" && b.coded == nil {
		b.coded = domain.ErrInvalidPrice.WithMessage("%s must be a decimal string such as \"19.99\", not a JSON number", name).
			WithField(name, "must be a decimal string such as \"19.99\", not a JSON number")
		return domain.Field[string]{}
	}
	return field(b, name, "a decimal string such as \"19.99\"", func(raw json.RawMessage) (string, bool) {
		var s string
		return s, kind(raw) == "string" && json.Unmarshal(raw, &s) == nil
	})
}

// decimal reads a non-money decimal (weight) given as a string or a number (kept
// exactly as written).
func (b *body) decimal(name string) domain.Field[string] {
	return field(b, name, "a decimal string such as \"1.25\"", func(raw json.RawMessage) (string, bool) {
		switch kind(raw) {
		case "number":
			return string(bytes.TrimSpace(raw)), true
		case "string":
			var s string
			return s, json.Unmarshal(raw, &s) == nil
		}
		return "", false
	})
}

func (b *body) strings(name string) domain.Field[[]string] {
	return field(b, name, "an array of strings", func(raw json.RawMessage) ([]string, bool) {
		var v []string
		return v, kind(raw) == "array" && json.Unmarshal(raw, &v) == nil
	})
}

func (b *body) object(name string) domain.Field[map[string]any] {
	return field(b, name, "an object", func(raw json.RawMessage) (map[string]any, bool) {
		if kind(raw) != "object" {
			return nil, false
		}
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		var v map[string]any
		return v, dec.Decode(&v) == nil
	})
}

func (b *body) stringMap(name string) domain.Field[map[string]string] {
	return field(b, name, "an object of strings", func(raw json.RawMessage) (map[string]string, bool) {
		var v map[string]string
		return v, kind(raw) == "object" && json.Unmarshal(raw, &v) == nil
	})
}

// rules reads smart-collection rules: [{column, relation, condition}], condition a
// string or a number.
func (b *body) rules(name string) domain.Field[[]domain.Rule] {
	return field(b, name, "an array of {column, relation, condition} objects", func(raw json.RawMessage) ([]domain.Rule, bool) {
		var items []map[string]json.RawMessage
		if kind(raw) != "array" || json.Unmarshal(raw, &items) != nil {
			return nil, false
		}
		out := make([]domain.Rule, 0, len(items))
		for _, it := range items {
			var r domain.Rule
			for key, dst := range map[string]*string{"column": &r.Column, "relation": &r.Relation, "condition": &r.Condition} {
				v, ok := it[key]
				if !ok {
					return nil, false
				}
				switch kind(v) {
				case "string":
					if json.Unmarshal(v, dst) != nil {
						return nil, false
					}
				case "number":
					*dst = string(bytes.TrimSpace(v))
				default:
					return nil, false
				}
			}
			out = append(out, r)
		}
		return out, true
	})
}

// err reports type errors first (400 validation naming each field), then a coded error.
func (b *body) err() error {
	if len(b.bad) > 0 {
		return apperr.Validation(b.bad)
	}
	return b.coded
}

// productInput reads every product member.
func productInput(b *body) (domain.ProductInput, error) {
	in := domain.ProductInput{
		Title: b.str("title"), Slug: b.str("slug"), Description: b.str("description"),
		ShortDescription: b.str("short_description"), ProductType: b.str("product_type"), Vendor: b.str("vendor"),
		Tags: b.strings("tags"), Status: b.str("status"), IsFeatured: b.boolean("is_featured"),
		Price: b.money("price"), CompareAtPrice: b.money("compare_at_price"), CostPrice: b.money("cost_price"),
		Currency: b.str("currency"), Taxable: b.boolean("taxable"), RequiresShipping: b.boolean("requires_shipping"),
		Weight: b.decimal("weight"), WeightUnit: b.str("weight_unit"), InventoryQuantity: b.integer("inventory_quantity"),
		InventoryPolicy: b.str("inventory_policy"), InventoryManagement: b.str("inventory_management"),
		LowStockThreshold: b.integer("low_stock_threshold"), SEOTitle: b.str("seo_title"),
		SEODescription: b.str("seo_description"), MetaFields: b.object("meta_fields"), SKU: b.str("sku"),
		Barcode: b.str("barcode"),
	}
	return in, b.err()
}

// variantInput reads every variant member.
func variantInput(b *body) (domain.VariantInput, error) {
	in := domain.VariantInput{
		Title: b.str("title"), SKU: b.str("sku"), Barcode: b.str("barcode"), Price: b.money("price"),
		CompareAtPrice: b.money("compare_at_price"), CostPrice: b.money("cost_price"),
		InventoryQuantity: b.integer("inventory_quantity"), InventoryPolicy: b.str("inventory_policy"),
		Weight: b.decimal("weight"), WeightUnit: b.str("weight_unit"), RequiresShipping: b.boolean("requires_shipping"),
		Options: b.stringMap("options"),
	}
	return in, b.err()
}

// collectionInput reads every collection member.
func collectionInput(b *body) (domain.CollectionInput, error) {
	in := domain.CollectionInput{
		Title: b.str("title"), Slug: b.str("slug"), Description: b.str("description"),
		CollectionType: b.str("collection_type"), Rules: b.rules("rules"), IsActive: b.boolean("is_active"),
		SEOTitle: b.str("seo_title"), SEODescription: b.str("seo_description"),
	}
	return in, b.err()
}

// trimLower splits a comma list into trimmed, lower-cased, non-empty items.
func trimLower(list string) []string {
	var out []string
	for _, s := range strings.Split(list, ",") {
		if s = strings.ToLower(strings.TrimSpace(s)); s != "" {
			out = append(out, s)
		}
	}
	return out
}

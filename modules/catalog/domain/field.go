package domain

import "github.com/shopspring/decimal"

// Field is one member of a write request: absent (Set false), null (Set and Null), or
// a value. It lets one input type serve create, full replacement and partial update.
type Field[T any] struct {
	Set   bool
	Null  bool
	Value T
}

// Val is a present, non-null field.
func Val[T any](v T) Field[T] { return Field[T]{Set: true, Value: v} }

// Null is a present null field.
func Null[T any]() Field[T] { return Field[T]{Set: true, Null: true} }

// HasValue reports a present, non-null field.
func (f Field[T]) HasValue() bool { return f.Set && !f.Null }

// problems collects per-field validation messages.
type problems map[string]string

func (p problems) add(field, msg string) {
	if _, ok := p[field]; !ok {
		p[field] = msg
	}
}

const msgNotNull = "must not be null"

// weight validates a weight field (a non-negative decimal string) into dst.
func (p problems) weight(f Field[string], dst *decimal.Decimal) {
	if !f.Set {
		return
	}
	if f.Null {
		p.add("weight", msgNotNull)
	} else if w, ok := ParseWeight(f.Value); !ok {
		p.add("weight", "must be a non-negative decimal such as \"1.25\" (at most 4 decimals)")
	} else {
		*dst = w
	}
}

// weightUnit validates a weight_unit field into dst.
func (p problems) weightUnit(f Field[string], dst *string) {
	if !f.Set {
		return
	}
	if f.Null || !ValidWeightUnit(f.Value) {
		p.add("weight_unit", "must be one of: kg, g, lb, oz")
	} else {
		*dst = f.Value
	}
}

// inventoryQuantity validates an inventory_quantity field into dst.
func (p problems) inventoryQuantity(f Field[int], dst *int) {
	if !f.Set {
		return
	}
	if f.Null {
		p.add("inventory_quantity", msgNotNull)
	} else if q := f.Value; q < 0 || q > MaxInventoryQuantity {
		p.add("inventory_quantity", "must be from 0 to 1000000000")
	} else {
		*dst = q
	}
}

// inventoryPolicy validates an inventory_policy field into dst.
func (p problems) inventoryPolicy(f Field[string], dst *string) {
	if !f.Set {
		return
	}
	if f.Null || !ValidPolicy(f.Value) {
		p.add("inventory_policy", "must be one of: deny, continue")
	} else {
		*dst = f.Value
	}
}

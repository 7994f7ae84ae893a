package domain

import (
	"reflect"
	"testing"
)

// TestSameComparesEveryField: a change of any field (or of a line) makes the record
// another one, so an event that changed something is never skipped as a repeat.
func TestSameComparesEveryField(t *testing.T) {
	base := func() *Order {
		return &Order{ID: "o1", Version: 5, Currency: "USD", CustomerID: "c1", Day: "2026-06-17", CreatedAt: 10, Status: "paid",
			Fulfillment: "unfulfilled", Channel: "web", PaymentMethod: "card", Country: "US", Items: 2, Gross: 100, Discounts: 1,
			Refunded: 0, ClosedAt: 0, FulfilledAt: 0, Lines: []Line{{Line: 0, ProductID: "p", VariantID: "v", Title: "T", SKU: "S", Quantity: 2, Revenue: 100}}}
	}
	if !base().Same(base()) {
		t.Fatal("an order is not the same as its copy")
	}
	typ := reflect.TypeFor[Order]()
	for i := range typ.NumField() {
		o := base()
		f := reflect.ValueOf(o).Elem().Field(i)
		switch f.Kind() {
		case reflect.String:
			f.SetString(f.String() + "x")
		case reflect.Int, reflect.Int64:
			f.SetInt(f.Int() + 1)
		case reflect.Bool:
			f.SetBool(!f.Bool())
		case reflect.Slice:
			o.Lines[0].RefundedQty = 1
		default:
			t.Fatalf("field %s of kind %s not covered", typ.Field(i).Name, f.Kind())
		}
		if base().Same(o) {
			t.Errorf("a change of %s is not seen", typ.Field(i).Name)
		}
	}
	o := base()
	o.Lines = append(o.Lines, Line{Line: 1})
	if base().Same(o) {
		t.Error("an added line is not seen")
	}
}

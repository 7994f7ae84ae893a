package domain

import (
	"slices"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/platform/ids"
	"github.com/gocommerce/commerce/platform/money"
	"github.com/gocommerce/commerce/platform/patch"
)

// Input is the body of create, PUT and PATCH: each member absent, null or a value.
type Input struct {
	CustomerID, OrderID, ProductID, VariantID patch.Field[string]
	Interval                                  patch.Field[string]
	IntervalCount                             patch.Field[int]
	Currency, Amount, SetupFee                patch.Field[string]
	TrialDays, MinCycles, MaxCycles           patch.Field[int]
	PaymentMethodID, Gateway, Notes           patch.Field[string]
	NextBillingAt                             patch.Field[time.Time]
}

// MerchantOnly are the update members a customer may not change (the price and the
// schedule are the merchant's; docs/decisions/0202).
func (in Input) MerchantOnly() []string {
	var out []string
	if in.Amount.Set {
		out = append(out, "amount")
	}
	if in.NextBillingAt.Set {
		out = append(out, "next_billing_at")
	}
	if in.MaxCycles.Set {
		out = append(out, "max_cycles")
	}
	if in.Notes.Set {
		out = append(out, "notes")
	}
	return out
}

func uuidField(bad patch.Problems, name string, f patch.Field[string], dst *string, required bool) {
	if required && !f.Set {
		bad.Add(name, "is required")
		return
	}
	patch.Apply(bad, name, f, dst, func(s string) (string, string) {
		s = strings.TrimSpace(s)
		if s == "" && !required {
			return "", ""
		}
		if !ids.Valid(s) {
			return "", "must be a UUID"
		}
		return strings.ToLower(s), ""
	})
}

func amountCheck(currency string) func(string) (decimal.Decimal, string) {
	return func(s string) (decimal.Decimal, string) {
		d, err := money.Parse(s, currency)
		if err != nil {
			return d, err.Error()
		}
		return d, ""
	}
}

func intRange(lo, hi int) func(int) (int, string) {
	return func(n int) (int, string) {
		if n < lo || (hi > 0 && n > hi) {
			if hi > 0 {
				return 0, "must be between " + itoa(lo) + " and " + itoa(hi)
			}
			return 0, "must be at least " + itoa(lo)
		}
		return n, ""
	}
}

func itoa(n int) string { return decimal.NewFromInt(int64(n)).String() }

func required(bad patch.Problems, name string, set bool) bool {
	if !set {
		bad.Add(name, "is required")
	}
	return set
}

func oneOf(list []string) func(string) (string, string) {
	return func(s string) (string, string) {
		s = strings.ToLower(strings.TrimSpace(s))
		if !slices.Contains(list, s) {
			return "", "must be one of: " + strings.Join(list, ", ")
		}
		return s, ""
	}
}

// NewSubscription validates a create body (every field; interval_count 1-12) and
// builds the subscription as of now: trialing until trial_ends_at with trial days, else
// active with the first cycle due now (CONTRACT §7).
func NewSubscription(id string, in Input, now time.Time) (*Subscription, error) {
	s := &Subscription{ID: id, CreatedAt: now, UpdatedAt: now, StartsAt: now, Version: 1}
	bad := patch.Problems{}
	uuidField(bad, "customer_id", in.CustomerID, &s.CustomerID, true)
	uuidField(bad, "order_id", in.OrderID, &s.OrderID, true)
	uuidField(bad, "product_id", in.ProductID, &s.ProductID, true)
	uuidField(bad, "variant_id", in.VariantID, &s.VariantID, false)
	if required(bad, "interval", in.Interval.Set) {
		patch.Apply(bad, "interval", in.Interval, &s.BillingInterval, oneOf(Intervals))
	}
	if required(bad, "interval_count", in.IntervalCount.Set) {
		patch.Apply(bad, "interval_count", in.IntervalCount, &s.IntervalCount, intRange(1, 12))
	}
	if required(bad, "currency", in.Currency.Set) {
		patch.Apply(bad, "currency", in.Currency, &s.Currency, func(c string) (string, string) {
			code, ok := money.Normalize(c)
			if !ok {
				return "", "must be an ISO 4217 currency code"
			}
			return code, ""
		})
	}
	cur := s.Currency
	if cur == "" {
		cur = "USD"
	}
	if required(bad, "amount", in.Amount.Set) {
		patch.Apply(bad, "amount", in.Amount, &s.Amount, amountCheck(cur))
		if !bad.Has("amount") && !s.Amount.IsPositive() {
			bad.Add("amount", "must be greater than 0")
		}
	}
	if in.SetupFee.HasValue() {
		patch.Apply(bad, "setup_fee", in.SetupFee, &s.SetupFee, amountCheck(cur))
	}
	if in.TrialDays.HasValue() {
		patch.Apply(bad, "trial_days", in.TrialDays, &s.TrialDays, intRange(0, 730))
	}
	if in.MinCycles.HasValue() {
		patch.Apply(bad, "min_cycles", in.MinCycles, &s.MinCycles, intRange(0, 0))
	}
	if in.MaxCycles.HasValue() {
		var n int
		patch.Apply(bad, "max_cycles", in.MaxCycles, &n, intRange(1, 0))
		s.MaxCycles = &n
		if !bad.Has("max_cycles") && !bad.Has("min_cycles") && n < s.MinCycles {
			bad.Add("max_cycles", "must not be less than min_cycles")
		}
	}
	if required(bad, "payment_method_id", in.PaymentMethodID.Set) {
		patch.Text{Max: 255, Required: true}.Apply(bad, "payment_method_id", in.PaymentMethodID, &s.PaymentMethodID)
	}
	if required(bad, "gateway", in.Gateway.Set) {
		patch.Apply(bad, "gateway", in.Gateway, &s.Gateway, oneOf(Gateways))
	}
	patch.Text{Max: 5000}.Apply(bad, "notes", in.Notes, &s.Notes)
	if in.NextBillingAt.Set {
		bad.Add("next_billing_at", "cannot be set on create")
	}
	if err := bad.Err(); err != nil {
		return nil, err
	}
	if s.TrialDays > 0 {
		end := now.AddDate(0, 0, s.TrialDays)
		s.Status, s.TrialEndsAt = StatusTrialing, &end
		s.Reanchor(end)
	} else {
		s.Status = StatusActive
		s.Reanchor(now)
	}
	return s, nil
}

// Apply applies an update body (interval, interval_count, amount, next_billing_at,
// max_cycles, payment_method_id, notes); nothing changes unless every field is good.
// A new schedule re-anchors the calendar at the next billing date.
func (s *Subscription) Apply(in Input, now time.Time) error {
	if s.Status.Ended() {
		return ErrEnded
	}
	next, bad := *s, patch.Problems{}
	for name, f := range map[string]patch.Field[string]{"customer_id": in.CustomerID, "order_id": in.OrderID, "product_id": in.ProductID,
		"variant_id": in.VariantID, "currency": in.Currency, "setup_fee": in.SetupFee, "gateway": in.Gateway} {
		if f.Set {
			bad.Add(name, "cannot be changed")
		}
	}
	if in.TrialDays.Set {
		bad.Add("trial_days", "cannot be changed")
	}
	if in.MinCycles.Set {
		bad.Add("min_cycles", "cannot be changed")
	}
	patch.Apply(bad, "interval", in.Interval, &next.BillingInterval, oneOf(Intervals))
	patch.Apply(bad, "interval_count", in.IntervalCount, &next.IntervalCount, intRange(1, 12))
	patch.Apply(bad, "amount", in.Amount, &next.Amount, amountCheck(s.Currency))
	if in.Amount.HasValue() && !bad.Has("amount") && !next.Amount.IsPositive() {
		bad.Add("amount", "must be greater than 0")
	}
	if in.MaxCycles.Set {
		if in.MaxCycles.Null {
			next.MaxCycles = nil
		} else {
			var n int
			patch.Apply(bad, "max_cycles", in.MaxCycles, &n, intRange(1, 0))
			if !bad.Has("max_cycles") && n < s.CurrentCycle {
				bad.Add("max_cycles", "must not be less than the cycles already billed")
			}
			next.MaxCycles = &n
		}
	}
	patch.Text{Max: 255, Required: true}.Apply(bad, "payment_method_id", in.PaymentMethodID, &next.PaymentMethodID)
	patch.Text{Max: 5000}.Apply(bad, "notes", in.Notes, &next.Notes)
	var due *time.Time
	if in.NextBillingAt.Set {
		switch {
		case in.NextBillingAt.Null:
			bad.Add("next_billing_at", "must not be null")
		case !in.NextBillingAt.Value.After(now):
			bad.Add("next_billing_at", "must be in the future")
		default:
			v := in.NextBillingAt.Value.UTC()
			due = &v
		}
	}
	if err := bad.Err(); err != nil {
		return err
	}
	if due != nil || next.BillingInterval != s.BillingInterval || next.IntervalCount != s.IntervalCount {
		at := now
		if next.NextBillingAt != nil {
			at = *next.NextBillingAt
		}
		if due != nil {
			at = *due
		}
		next.Reanchor(at)
		if next.CancelAtEnd {
			e := at
			next.EndsAt = &e
		}
	}
	next.UpdatedAt = now
	*s = next
	return nil
}

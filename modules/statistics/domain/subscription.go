package domain

import "github.com/shopspring/decimal"

// Subscription is what the statistics keep of a subscription: MRR is its amount per
// month (units) while it bills, days are local.
type Subscription struct {
	ID, Currency, Status string
	Version              int64
	MRR                  int64
	StartedDay, EndedDay string
}

// Billing reports whether a subscription status counts in MRR and active
// subscribers: active, or past due (still billed, being retried), as Stripe counts them.
func Billing(status string) bool { return status == "active" || status == "past_due" }

// Ended reports whether a status is final (the subscription churned).
func Ended(status string) bool { return status == "cancelled" || status == "expired" }

// perMonth is how many times an interval bills in a month.
var perMonth = map[string]decimal.Decimal{
	"daily":       decimal.NewFromInt(365).Div(decimal.NewFromInt(12)),
	"weekly":      decimal.NewFromInt(52).Div(decimal.NewFromInt(12)),
	"bi_weekly":   decimal.NewFromInt(26).Div(decimal.NewFromInt(12)),
	"monthly":     decimal.NewFromInt(1),
	"quarterly":   decimal.NewFromInt(1).Div(decimal.NewFromInt(3)),
	"bi_annually": decimal.NewFromInt(1).Div(decimal.NewFromInt(6)),
	"annually":    decimal.NewFromInt(1).Div(decimal.NewFromInt(12)),
}

// MonthlyAmount is amount billed every count intervals as an amount per month (units);
// 0 for an unknown interval.
func MonthlyAmount(amount string, interval string, count int) int64 {
	f, ok := perMonth[interval]
	if !ok || count < 1 {
		return 0
	}
	a, err := decimal.NewFromString(amount)
	if err != nil {
		return 0
	}
	return Units(a.Mul(f).Div(decimal.NewFromInt(int64(count))))
}

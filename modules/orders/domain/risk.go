package domain

import (
	"strings"

	"github.com/shopspring/decimal"
)

// Risk recommendations (Shopify's).
const (
	RecommendAccept      = "accept"
	RecommendInvestigate = "investigate"
	RecommendCancel      = "cancel"
)

// Risk reason codes.
const (
	RiskCountryMismatch = "billing_shipping_country_mismatch"
	RiskFailedPayments  = "many_failed_payment_attempts"
	RiskLargeOrder      = "unusually_large_order"
	RiskDisposableEmail = "disposable_email_domain"
)

// RiskRules weigh the signals of the fraud assessment (docs/decisions/0077).
type RiskRules struct {
	CountryMismatch       int // billing and shipping countries differ
	FailedPayments        int // at least FailedPaymentsMinimum failed payment attempts
	FailedPaymentsMinimum int
	LargeOrder            int // total at least the large-order threshold
	DisposableEmail       int // the email's domain is a known disposable one
	InvestigateAt         int // score from which to investigate
	CancelAt              int // score from which to cancel
}

// DefaultRiskRules are the weights used unless configured otherwise.
var DefaultRiskRules = RiskRules{
	CountryMismatch: 25, FailedPayments: 30, FailedPaymentsMinimum: 3, LargeOrder: 25, DisposableEmail: 30,
	InvestigateAt: 30, CancelAt: 70,
}

// RiskInput is what the assessment looks at.
type RiskInput struct {
	Email           string
	BillingCountry  string
	ShippingCountry string
	FailedPayments  int
	Total           decimal.Decimal
	// LargeOrderThreshold is the total from which an order is unusually large (zero:
	// the rule is off).
	LargeOrderThreshold decimal.Decimal
	Currency            string
}

// RiskReason is one signal that raised the score.
type RiskReason struct {
	Code    string
	Message string
	Score   int
}

// RiskAssessment is a score from 0 to 100, a recommendation and the reasons.
type RiskAssessment struct {
	Score          int
	Recommendation string
	Reasons        []RiskReason
}

// AssessRisk scores an order by rules: each matching signal adds its weight, the score
// is capped at 100, and the recommendation follows the thresholds.
func AssessRisk(in RiskInput, rules RiskRules) RiskAssessment {
	out := RiskAssessment{Reasons: []RiskReason{}}
	add := func(code, msg string, score int) {
		if score <= 0 {
			return
		}
		out.Reasons = append(out.Reasons, RiskReason{Code: code, Message: msg, Score: score})
		out.Score += score
	}
	b, s := strings.ToUpper(strings.TrimSpace(in.BillingCountry)), strings.ToUpper(strings.TrimSpace(in.ShippingCountry))
	if b != "" && s != "" && b != s {
		add(RiskCountryMismatch, "Billing country ("+b+") differs from shipping country ("+s+")", rules.CountryMismatch)
	}
	if rules.FailedPaymentsMinimum > 0 && in.FailedPayments >= rules.FailedPaymentsMinimum {
		add(RiskFailedPayments, decimal.NewFromInt(int64(in.FailedPayments)).String()+" failed payment attempts", rules.FailedPayments)
	}
	if in.LargeOrderThreshold.IsPositive() && in.Total.GreaterThanOrEqual(in.LargeOrderThreshold) {
		add(RiskLargeOrder, "Order total "+FormatMoney(in.Total, in.Currency)+" is at least "+FormatMoney(in.LargeOrderThreshold, in.Currency), rules.LargeOrder)
	}
	if d := EmailDomain(in.Email); d != "" && IsDisposableDomain(d) {
		add(RiskDisposableEmail, "Email domain "+d+" is a disposable email service", rules.DisposableEmail)
	}
	out.Score = min(out.Score, 100)
	switch {
	case rules.CancelAt > 0 && out.Score >= rules.CancelAt:
		out.Recommendation = RecommendCancel
	case rules.InvestigateAt > 0 && out.Score >= rules.InvestigateAt:
		out.Recommendation = RecommendInvestigate
	default:
		out.Recommendation = RecommendAccept
	}
	return out
}

// EmailDomain returns the lower-case domain of an email address, or "".
func EmailDomain(email string) string {
	i := strings.LastIndex(email, "@")
	if i < 0 {
		return ""
	}
	return strings.ToLower(strings.TrimSpace(email[i+1:]))
}

// IsDisposableDomain reports a known disposable email domain or a subdomain of one.
func IsDisposableDomain(domain string) bool {
	for d := domain; d != ""; {
		if disposableDomains[d] {
			return true
		}
		_, rest, ok := strings.Cut(d, ".")
		if !ok {
			break
		}
		d = rest
	}
	return false
}

// disposableDomains is a small embedded list of well-known throwaway email services.
var disposableDomains = set(`10minutemail.com 10minutemail.net 20minutemail.com 33mail.com anonbox.net
burnermail.io discard.email dispostable.com emailondeck.com fakeinbox.com getairmail.com getnada.com
guerrillamail.biz guerrillamail.com guerrillamail.de guerrillamail.net guerrillamail.org guerrillamailblock.com
harakirimail.com incognitomail.org jetable.org mailcatch.com maildrop.cc mailinator.com mailinator.net
mailnesia.com mailnull.com mintemail.com mohmal.com moakt.com mytemp.email nada.email sharklasers.com
spam4.me spambog.com spamgourmet.com temp-mail.io temp-mail.org tempail.com tempinbox.com tempmail.com
tempmail.dev tempmailo.com tempr.email throwawaymail.com trashmail.com trashmail.de trashmail.net
wegwerfmail.de yopmail.com yopmail.fr yopmail.net`)

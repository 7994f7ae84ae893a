// Package testgateway is the built-in `test` gateway: a card gateway in test mode that
// needs no network and answers by card number (CONTRACT.md §6). Its webhooks use
// Stripe's event shape, signed like Stripe's under a Test-Signature header.
package testgateway

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/gocommerce/commerce/modules/payments/adapters/internal/gatewaykit"
	"github.com/gocommerce/commerce/modules/payments/adapters/stripe"
	"github.com/gocommerce/commerce/modules/payments/domain"
	"github.com/gocommerce/commerce/modules/payments/ports"
)

// Scenario is what a test card does.
type Scenario string

// Scenarios of the card table.
const (
	Success           Scenario = "success"
	Declined          Scenario = "card_declined"
	InsufficientFunds Scenario = "insufficient_funds"
	ThreeDSecure      Scenario = "three_d_secure"
	Frictionless      Scenario = "three_d_secure_2_frictionless"
	Challenge         Scenario = "three_d_secure_2_challenge"
	IncorrectCVC      Scenario = "incorrect_cvc"
	ExpiredCard       Scenario = "expired_card"
)

// Cards is CONTRACT.md §6's table: card number to scenario. Any other Luhn-valid number
// succeeds.
var Cards = map[string]Scenario{
	"4242424242424242": Success,
	"4000000000000002": Declined,
	"4000000000009995": InsufficientFunds,
	"4000002500003155": ThreeDSecure,
	"4000000000003055": Frictionless,
	"4000000000003220": Challenge,
	"4000000000000127": IncorrectCVC,
	"4000000000000069": ExpiredCard,
}

var declineMessages = map[Scenario]string{
	Declined:          "Your card was declined.",
	InsufficientFunds: "Your card has insufficient funds.",
	IncorrectCVC:      "Your card's security code is incorrect.",
	ExpiredCard:       "Your card has expired.",
}

// Config is the gateway's section of payment.test.
type Config struct {
	CaptureMethod string
	WebhookSecret string
	Now           func() time.Time
}

// Gateway is the test gateway. It counts the charges it made (tests use it to prove
// that an idempotent retry charged once).
type Gateway struct {
	cfg     Config
	charges atomic.Int64
}

var _ ports.Gateway = (*Gateway)(nil)

// New builds the test gateway.
func New(cfg Config) *Gateway {
	if cfg.Now == nil {
		cfg.Now = func() time.Time { return time.Now().UTC() }
	}
	return &Gateway{cfg: cfg}
}

// Charges is the number of Authorize calls so far.
func (g *Gateway) Charges() int64 { return g.charges.Load() }

// ID is "test".
func (g *Gateway) ID() string { return "test" }

// Name is the display name.
func (g *Gateway) Name() string { return "Test Gateway" }

// CaptureMethod is the configured capture method.
func (g *Gateway) CaptureMethod() string { return gatewaykit.CaptureMethod(g.cfg.CaptureMethod) }

// Currencies are every ISO 4217 code the service knows.
func Currencies() []string {
	out := domain.Currencies()
	sort.Strings(out)
	return out
}

// Methods offers cards and bank transfers in every currency, 0.50 to 999,999.99 (in
// minor units: 50 to 99,999,999).
func (g *Gateway) Methods() []ports.MethodSpec {
	cur := Currencies()
	return []ports.MethodSpec{
		{
			MethodType: domain.MethodCard, DisplayName: "Credit or debit card (test)", Supports3DS: true, SupportsTokenization: true,
			SupportsRecurring: true, CardFields: true, Currencies: cur, MinMinor: 50, MaxMinor: 99999999,
		},
		{
			MethodType: domain.MethodBankTransfer, DisplayName: "Bank transfer (test)", Currencies: cur, MinMinor: 50, MaxMinor: 99999999,
		},
	}
}

// ScenarioOf is the scenario of a card number (spaces allowed).
func ScenarioOf(number string) Scenario {
	if s, ok := Cards[strings.ReplaceAll(number, " ", "")]; ok {
		return s
	}
	return Success
}

func random(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// clientSecret is derived from the transaction id, so Complete can check it statelessly.
func clientSecret(txn string) string {
	sum := sha256.Sum256([]byte("test-gateway:" + txn))
	return txn + "_secret_" + hex.EncodeToString(sum[:8])
}

// token encodes the scenario (never the card number) in a reusable token.
func token(s Scenario) string { return "tok_test_" + string(s) + "_" + random(8) }

func scenarioOfToken(t string) Scenario {
	rest, ok := strings.CutPrefix(t, "tok_test_")
	if !ok {
		return Success
	}
	if i := strings.LastIndex(rest, "_"); i > 0 {
		return Scenario(rest[:i])
	}
	return Success
}

// Authorize answers by the card table.
func (g *Gateway) Authorize(_ context.Context, req ports.ChargeRequest) (ports.ChargeResult, error) {
	g.charges.Add(1)
	txn := "pi_test_" + random(12)
	res := ports.ChargeResult{TransactionID: txn, ReceiptURL: "https://pay.test/receipts/" + txn}
	var scenario Scenario
	switch {
	case req.Card != nil:
		scenario = ScenarioOf(req.Card.Number)
		if req.Card.Details().Expired(g.cfg.Now()) {
			scenario = ExpiredCard
		}
		d := req.Card.Details()
		res.Card = &d
		if req.SaveMethod {
			res.ProviderMethod = token(scenario)
		}
	case req.Saved != nil:
		scenario = scenarioOfToken(req.Saved.ProviderToken)
	case req.BankTransfer != nil:
		scenario = Success
	default:
		return ports.ChargeResult{}, domain.ErrInvalidPaymentMethod.WithMessage("The test gateway takes cards and bank transfers")
	}
	success := domain.StatusSucceeded
	if !req.Capture {
		success = domain.StatusRequiresCapture
	}
	switch scenario {
	case Declined, InsufficientFunds, IncorrectCVC, ExpiredCard:
		res.Status = domain.StatusFailed
		res.DeclineCode = string(scenario)
		res.DeclineMessage = declineMessages[scenario]
		res.ReceiptURL = ""
		res.ProviderMethod = ""
	case ThreeDSecure, Challenge:
		res.Status = domain.StatusRequiresAction
		kind := "test_3ds_redirect"
		if scenario == Challenge {
			kind = "test_3ds2_challenge"
		}
		res.Action = &domain.Action{Type: domain.ActionThreeDSecure, Data: map[string]any{
			"type": kind, "redirect_url": req.ActionURL, "payment_intent": txn, "payment_intent_client_secret": clientSecret(txn),
		}}
		res.ReceiptURL = ""
	default: // success, frictionless 3D Secure 2, any other valid number
		res.Status = success
	}
	return res, nil
}

// Complete succeeds (the test customer always passes the challenge) unless a client
// secret is given that does not belong to the payment.
func (g *Gateway) Complete(_ context.Context, req ports.CompleteRequest) (ports.ChargeResult, error) {
	if s := req.ActionData["payment_intent_client_secret"]; s != "" && s != clientSecret(req.TransactionID) {
		return ports.ChargeResult{Status: domain.StatusFailed, DeclineCode: "payment_intent_authentication_failure",
			DeclineMessage: "The client secret does not match the payment"}, nil
	}
	status := domain.StatusSucceeded
	if !req.Capture {
		status = domain.StatusRequiresCapture
	}
	return ports.ChargeResult{Status: status, TransactionID: req.TransactionID, ReceiptURL: "https://pay.test/receipts/" + req.TransactionID}, nil
}

// Capture always succeeds.
func (g *Gateway) Capture(_ context.Context, req ports.CaptureRequest) (ports.CaptureResult, error) {
	return ports.CaptureResult{ProviderReference: "ch_test_" + random(12)}, nil
}

// Cancel always succeeds.
func (g *Gateway) Cancel(context.Context, ports.CancelRequest) error { return nil }

// Refund always succeeds at once.
func (g *Gateway) Refund(context.Context, ports.RefundRequest) (ports.RefundResult, error) {
	return ports.RefundResult{ProviderRefundID: "re_test_" + random(12), Status: domain.RefundSucceeded}, nil
}

// SaveMethod returns a token that remembers the card's scenario.
func (g *Gateway) SaveMethod(_ context.Context, req ports.SaveMethodRequest) (ports.SavedMethodResult, error) {
	d := req.Card.Details()
	return ports.SavedMethodResult{ProviderToken: token(ScenarioOf(req.Card.Number)), Card: &d}, nil
}

// DeleteMethod forgets nothing (tokens are stateless).
func (g *Gateway) DeleteMethod(context.Context, string, string) error { return nil }

// SignatureHeader is the test gateway's webhook signature header.
const SignatureHeader = "Test-Signature"

// ParseWebhook verifies Test-Signature (Stripe's scheme with payment.test.webhook_secret,
// the timestamp within 300 s of now either way) and reads the Stripe-shaped event. Without a configured secret every webhook is refused.
func (g *Gateway) ParseWebhook(_ context.Context, headers http.Header, body []byte) (ports.WebhookEvent, error) {
	if g.cfg.WebhookSecret == "" {
		return ports.WebhookEvent{}, domain.ErrInvalidSignature.WithMessage("Webhook signing secret is not configured")
	}
	if err := stripe.VerifySignature(body, headers.Get(SignatureHeader), g.cfg.WebhookSecret, g.cfg.Now()); err != nil {
		return ports.WebhookEvent{}, domain.ErrInvalidSignature.WithCause(err)
	}
	return stripe.MapEvent(body)
}

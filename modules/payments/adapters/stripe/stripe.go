// Package stripe is the `stripe` gateway: PaymentIntents (create with confirm, confirm,
// capture, cancel), Refunds, PaymentMethods and Customers through stripe-go against a
// configurable base URL, and webhook verification of the Stripe-Signature header.
package stripe

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"

	stripego "github.com/stripe/stripe-go/v85"
	"github.com/stripe/stripe-go/v85/webhook"

	"github.com/gocommerce/commerce/modules/payments/adapters/internal/gatewaykit"
	"github.com/gocommerce/commerce/modules/payments/adapters/internal/signedtime"
	"github.com/gocommerce/commerce/modules/payments/domain"
	"github.com/gocommerce/commerce/modules/payments/ports"
)

// Config is the gateway's section of payment.stripe.
type Config struct {
	APIKey              string
	WebhookSecret       string
	CaptureMethod       string
	StatementDescriptor string
	BaseURL             string
	HTTPClient          *http.Client
	// Currencies overrides the accepted currencies (default: Stripe's common ones).
	Currencies []string
	// Now is the clock webhook timestamps are checked against (time.Now when nil).
	Now func() time.Time
}

// DefaultCurrencies are the currencies the card method offers by default.
var DefaultCurrencies = []string{
	"AED", "AUD", "BRL", "CAD", "CHF", "CNY", "CZK", "DKK", "EUR", "GBP", "HKD", "HUF", "IDR", "ILS", "INR", "JPY",
	"KRW", "MXN", "MYR", "NOK", "NZD", "PHP", "PLN", "RON", "SAR", "SEK", "SGD", "THB", "TRY", "TWD", "USD", "ZAR",
}

// Gateway is the Stripe adapter.
type Gateway struct {
	cfg Config
	sc  *stripego.Client
}

var _ ports.Gateway = (*Gateway)(nil)

// New builds the adapter.
func New(cfg Config) *Gateway {
	if cfg.BaseURL == "" {
		cfg.BaseURL = stripego.APIURL
	}
	cfg.HTTPClient = gatewaykit.HTTPClient(cfg.HTTPClient)
	if len(cfg.Currencies) == 0 {
		cfg.Currencies = DefaultCurrencies
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	backends := stripego.NewBackendsWithConfig(&stripego.BackendConfig{
		URL:               stripego.String(strings.TrimRight(cfg.BaseURL, "/")),
		HTTPClient:        cfg.HTTPClient,
		LeveledLogger:     &stripego.LeveledLogger{Level: stripego.LevelNull},
		MaxNetworkRetries: stripego.Int64(1),
	})
	return &Gateway{cfg: cfg, sc: stripego.NewClient(cfg.APIKey, stripego.WithBackends(backends))}
}

// ID is "stripe".
func (g *Gateway) ID() string { return "stripe" }

// Name is the display name.
func (g *Gateway) Name() string { return "Stripe" }

// CaptureMethod is the configured capture method.
func (g *Gateway) CaptureMethod() string { return gatewaykit.CaptureMethod(g.cfg.CaptureMethod) }

// Methods offers cards (3D Secure, tokenization, recurring).
func (g *Gateway) Methods() []ports.MethodSpec {
	return []ports.MethodSpec{{
		MethodType: domain.MethodCard, DisplayName: "Credit or debit card", Supports3DS: true, SupportsTokenization: true,
		SupportsRecurring: true, CardFields: true, Currencies: g.cfg.Currencies, MinMinor: 50, MaxMinor: 99999999,
	}}
}

func minor(req ports.ChargeRequest) int64 { return domain.ToMinor(req.Amount, req.Currency) }

// Authorize creates (for a new card) a PaymentMethod and a confirmed PaymentIntent.
func (g *Gateway) Authorize(ctx context.Context, req ports.ChargeRequest) (ports.ChargeResult, error) {
	var pmID, customer string
	var details *domain.CardDetails
	switch {
	case req.Card != nil:
		pm, err := g.createMethod(ctx, *req.Card)
		if err != nil {
			return declineOr(err)
		}
		pmID, details = pm.ID, cardDetails(pm)
		if req.SaveMethod {
			c, err := g.sc.V1Customers.Create(ctx, &stripego.CustomerCreateParams{
				Email: nonEmpty(req.CustomerEmail), Metadata: map[string]string{"payment_id": req.PaymentID},
			})
			if err != nil {
				return ports.ChargeResult{}, err
			}
			customer = c.ID
		}
	case req.Saved != nil:
		pmID, customer = req.Saved.ProviderToken, req.Saved.ProviderCustomer
	default:
		return ports.ChargeResult{}, domain.ErrInvalidPaymentMethod.WithMessage("Stripe accepts cards only")
	}
	params := &stripego.PaymentIntentCreateParams{
		Amount:             stripego.Int64(minor(req)),
		Currency:           stripego.String(strings.ToLower(string(req.Currency))),
		PaymentMethod:      stripego.String(pmID),
		PaymentMethodTypes: []*string{stripego.String("card")},
		Confirm:            stripego.Bool(true),
		CaptureMethod:      stripego.String(captureMethod(req.Capture)),
		Metadata:           req.Metadata,
		Description:        nonEmpty(req.Description),
		ReceiptEmail:       nonEmpty(req.CustomerEmail),
		ReturnURL:          nonEmpty(req.ReturnURL),
		Customer:           nonEmpty(customer),
	}
	if g.cfg.StatementDescriptor != "" {
		params.StatementDescriptorSuffix = stripego.String(g.cfg.StatementDescriptor)
	}
	if req.SaveMethod && customer != "" {
		params.SetupFutureUsage = stripego.String("off_session")
	}
	params.AddExpand("latest_charge")
	if req.IdempotencyKey != "" {
		params.SetIdempotencyKey(req.IdempotencyKey)
	}
	pi, err := g.sc.V1PaymentIntents.Create(ctx, params)
	if err != nil {
		return declineOr(err)
	}
	res := mapIntent(pi)
	if details != nil {
		res.Card = details
	}
	if req.SaveMethod && customer != "" {
		res.ProviderMethod, res.ProviderCustomer = pmID, customer
	}
	return res, nil
}

func (g *Gateway) createMethod(ctx context.Context, c domain.Card) (*stripego.PaymentMethod, error) {
	params := &stripego.PaymentMethodCreateParams{
		Type: stripego.String("card"),
		Card: &stripego.PaymentMethodCreateCardParams{
			Number: stripego.String(c.Digits()), ExpMonth: stripego.Int64(int64(c.ExpMonth)), ExpYear: stripego.Int64(int64(c.ExpYear)),
		},
	}
	if c.CVC != "" {
		params.Card.CVC = stripego.String(c.CVC)
	}
	if strings.TrimSpace(c.Name) != "" {
		params.BillingDetails = &stripego.PaymentMethodCreateBillingDetailsParams{Name: stripego.String(strings.TrimSpace(c.Name))}
	}
	return g.sc.V1PaymentMethods.Create(ctx, params)
}

func cardDetails(pm *stripego.PaymentMethod) *domain.CardDetails {
	if pm == nil || pm.Card == nil {
		return nil
	}
	d := &domain.CardDetails{Brand: string(pm.Card.Brand), LastFour: pm.Card.Last4, ExpMonth: int(pm.Card.ExpMonth), ExpYear: int(pm.Card.ExpYear)}
	if pm.BillingDetails != nil {
		d.Name = pm.BillingDetails.Name
	}
	return d
}

func captureMethod(capture bool) string {
	if capture {
		return "automatic"
	}
	return "manual"
}

// declineOr turns a Stripe card error into a failed result; other errors stay errors.
func declineOr(err error) (ports.ChargeResult, error) {
	var se *stripego.Error
	if errors.As(err, &se) && se.Type == stripego.ErrorTypeCard {
		res := ports.ChargeResult{Status: domain.StatusFailed, DeclineCode: string(se.DeclineCode), DeclineMessage: se.Msg}
		if res.DeclineCode == "" {
			res.DeclineCode = string(se.Code)
		}
		if se.PaymentIntent != nil {
			res.TransactionID = se.PaymentIntent.ID
		}
		return res, nil
	}
	return ports.ChargeResult{}, err
}

// mapIntent maps a PaymentIntent's status onto the neutral result.
func mapIntent(pi *stripego.PaymentIntent) ports.ChargeResult {
	res := ports.ChargeResult{TransactionID: pi.ID}
	if pi.LatestCharge != nil {
		res.ProviderReference = pi.LatestCharge.ID
		res.ReceiptURL = pi.LatestCharge.ReceiptURL
	}
	switch pi.Status {
	case stripego.PaymentIntentStatusSucceeded:
		res.Status = domain.StatusSucceeded
	case stripego.PaymentIntentStatusRequiresCapture:
		res.Status = domain.StatusRequiresCapture
	case stripego.PaymentIntentStatusRequiresAction, stripego.PaymentIntentStatusRequiresConfirmation:
		res.Status = domain.StatusRequiresAction
		data := map[string]any{"type": "stripe_sdk", "redirect_url": nil, "payment_intent": pi.ID, "payment_intent_client_secret": pi.ClientSecret}
		if na := pi.NextAction; na != nil {
			data["type"] = string(na.Type)
			if na.RedirectToURL != nil {
				data["redirect_url"] = na.RedirectToURL.URL
			}
		}
		res.Action = &domain.Action{Type: domain.ActionThreeDSecure, Data: data}
	case stripego.PaymentIntentStatusProcessing:
		res.Status = domain.StatusProcessing
	case stripego.PaymentIntentStatusCanceled:
		res.Status = domain.StatusFailed
		res.DeclineCode, res.DeclineMessage = "payment_canceled", "The payment was canceled"
	default: // requires_payment_method: the attempt failed
		res.Status = domain.StatusFailed
		res.DeclineCode, res.DeclineMessage = "card_declined", "The card was declined"
		if e := pi.LastPaymentError; e != nil {
			if e.DeclineCode != "" {
				res.DeclineCode = string(e.DeclineCode)
			} else if e.Code != "" {
				res.DeclineCode = string(e.Code)
			}
			if e.Msg != "" {
				res.DeclineMessage = e.Msg
			}
		}
	}
	return res
}

// Complete confirms the PaymentIntent after 3D Secure when it still needs confirmation.
func (g *Gateway) Complete(ctx context.Context, req ports.CompleteRequest) (ports.ChargeResult, error) {
	params := &stripego.PaymentIntentRetrieveParams{}
	params.AddExpand("latest_charge")
	pi, err := g.sc.V1PaymentIntents.Retrieve(ctx, req.TransactionID, params)
	if err != nil {
		return declineOr(err)
	}
	if pi.Status == stripego.PaymentIntentStatusRequiresConfirmation {
		cp := &stripego.PaymentIntentConfirmParams{}
		cp.AddExpand("latest_charge")
		cp.SetIdempotencyKey(req.PaymentID + ":confirm")
		if pi, err = g.sc.V1PaymentIntents.Confirm(ctx, req.TransactionID, cp); err != nil {
			return declineOr(err)
		}
	}
	return mapIntent(pi), nil
}

// Capture captures a PaymentIntent.
func (g *Gateway) Capture(ctx context.Context, req ports.CaptureRequest) (ports.CaptureResult, error) {
	params := &stripego.PaymentIntentCaptureParams{AmountToCapture: stripego.Int64(domain.ToMinor(req.Amount, req.Currency))}
	params.SetIdempotencyKey(req.PaymentID + ":capture")
	pi, err := g.sc.V1PaymentIntents.Capture(ctx, req.TransactionID, params)
	if err != nil {
		return ports.CaptureResult{}, err
	}
	out := ports.CaptureResult{}
	if pi.LatestCharge != nil {
		out.ProviderReference = pi.LatestCharge.ID
	}
	return out, nil
}

// Cancel cancels a PaymentIntent (none exists before the first answer).
func (g *Gateway) Cancel(ctx context.Context, req ports.CancelRequest) error {
	if req.TransactionID == "" {
		return nil
	}
	_, err := g.sc.V1PaymentIntents.Cancel(ctx, req.TransactionID, &stripego.PaymentIntentCancelParams{})
	return err
}

// Refund creates a Refund of the PaymentIntent.
func (g *Gateway) Refund(ctx context.Context, req ports.RefundRequest) (ports.RefundResult, error) {
	params := &stripego.RefundCreateParams{
		PaymentIntent: stripego.String(req.TransactionID),
		Amount:        stripego.Int64(domain.ToMinor(req.Amount, req.Currency)),
		Metadata:      map[string]string{"refund_id": req.RefundID, "payment_id": req.PaymentID},
	}
	if req.Reason != "" {
		params.Reason = stripego.String(req.Reason)
	}
	params.SetIdempotencyKey(req.RefundID)
	r, err := g.sc.V1Refunds.Create(ctx, params)
	if err != nil {
		var se *stripego.Error
		if errors.As(err, &se) && se.HTTPStatusCode >= 400 && se.HTTPStatusCode < 500 {
			return ports.RefundResult{Status: domain.RefundFailed, FailureReason: se.Msg}, nil
		}
		return ports.RefundResult{}, err
	}
	out := ports.RefundResult{ProviderRefundID: r.ID, Status: refundStatus(string(r.Status))}
	if r.FailureReason != "" {
		out.FailureReason = string(r.FailureReason)
	}
	return out, nil
}

// SaveMethod creates a Customer and a PaymentMethod attached to it.
func (g *Gateway) SaveMethod(ctx context.Context, req ports.SaveMethodRequest) (ports.SavedMethodResult, error) {
	pm, err := g.createMethod(ctx, req.Card)
	if err != nil {
		var se *stripego.Error
		if errors.As(err, &se) && se.Type == stripego.ErrorTypeCard {
			return ports.SavedMethodResult{}, domain.ErrInvalidPaymentMethod.WithMessage("%s", se.Msg)
		}
		return ports.SavedMethodResult{}, err
	}
	c, err := g.sc.V1Customers.Create(ctx, &stripego.CustomerCreateParams{Email: nonEmpty(req.Email), Metadata: map[string]string{"owner": req.Owner}})
	if err != nil {
		return ports.SavedMethodResult{}, err
	}
	if _, err := g.sc.V1PaymentMethods.Attach(ctx, pm.ID, &stripego.PaymentMethodAttachParams{Customer: stripego.String(c.ID)}); err != nil {
		return ports.SavedMethodResult{}, err
	}
	return ports.SavedMethodResult{ProviderToken: pm.ID, ProviderCustomer: c.ID, Card: cardDetails(pm)}, nil
}

// DeleteMethod detaches the PaymentMethod from its Customer.
func (g *Gateway) DeleteMethod(ctx context.Context, providerToken, _ string) error {
	if providerToken == "" {
		return nil
	}
	_, err := g.sc.V1PaymentMethods.Detach(ctx, providerToken, &stripego.PaymentMethodDetachParams{})
	return err
}

// ParseWebhook verifies the Stripe-Signature header (HMAC-SHA256 of "t.body" with the
// webhook secret, t within 300 s of now either way) accepting any api_version, then
// maps the event.
func (g *Gateway) ParseWebhook(_ context.Context, headers http.Header, body []byte) (ports.WebhookEvent, error) {
	if g.cfg.WebhookSecret == "" {
		return ports.WebhookEvent{}, domain.ErrInvalidSignature.WithMessage("Webhook signing secret is not configured")
	}
	header := headers.Get("Stripe-Signature")
	if _, err := webhook.ConstructEventWithOptions(body, header, g.cfg.WebhookSecret,
		webhook.ConstructEventOptions{IgnoreAPIVersionMismatch: true, IgnoreTolerance: true}); err != nil {
		return ports.WebhookEvent{}, domain.ErrInvalidSignature.WithCause(err)
	}
	if err := checkTimestamp(header, g.cfg.Now()); err != nil {
		return ports.WebhookEvent{}, domain.ErrInvalidSignature.WithCause(err)
	}
	return MapEvent(body)
}

// VerifySignature checks a header in Stripe's scheme (`t=..,v1=..`): an HMAC-SHA256 of
// "t.body" with the secret, and t within signedtime.Tolerance of now, before or after
// (stripe-go's own tolerance only refuses old timestamps).
func VerifySignature(body []byte, header, secret string, now time.Time) error {
	if err := webhook.ValidatePayloadIgnoringTolerance(body, header, secret); err != nil {
		return err
	}
	return checkTimestamp(header, now)
}

func checkTimestamp(header string, now time.Time) error {
	at, err := signedtime.StripeTimestamp(header)
	if err != nil {
		return err
	}
	return signedtime.Check(now, at)
}

func nonEmpty(s string) *string {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	return stripego.String(s)
}

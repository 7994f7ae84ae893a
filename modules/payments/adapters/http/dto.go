package http

import (
	"fmt"
	"strconv"
	"time"

	"github.com/gocommerce/commerce/modules/payments/api"
	"github.com/gocommerce/commerce/modules/payments/app"
	"github.com/gocommerce/commerce/modules/payments/domain"
	"github.com/gocommerce/commerce/modules/payments/ports"
	"github.com/gocommerce/commerce/platform/httpx"
)

// flexInt accepts an integer or a string of digits (clients send exp_month both ways).
type flexInt int

func (f *flexInt) UnmarshalJSON(b []byte) error {
	s, quoted, err := httpx.JSONText(b)
	if err != nil {
		return err
	}
	if !quoted && s == "null" {
		return nil
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		*f = -1    // validated later as out of range
		return nil //nolint:nilerr // a malformed number is reported by the card validation
	}
	*f = flexInt(n)
	return nil
}

// decimalField keeps an amount as sent: only a JSON string is a decimal string.
type decimalField struct {
	set   bool
	value string
	ok    bool
}

func (d *decimalField) UnmarshalJSON(b []byte) error {
	s, quoted, err := httpx.JSONText(b)
	if !quoted && s == "null" {
		return nil
	}
	d.set = true
	if quoted {
		if err != nil {
			return err
		}
		d.value, d.ok = s, true
	}
	return nil
}

// text is the amount to parse: a non-string becomes an invalid amount.
func (d decimalField) text() string {
	if d.set && !d.ok {
		return "not-a-decimal-string"
	}
	return d.value
}

type cardRequest struct {
	Number   string  `json:"number"`
	ExpMonth flexInt `json:"exp_month"`
	ExpYear  flexInt `json:"exp_year"`
	CVC      string  `json:"cvc"`
	Name     string  `json:"name"`
}

type bankTransferRequest struct {
	AccountNumber     string `json:"account_number"`
	RoutingNumber     string `json:"routing_number"`
	AccountHolderName string `json:"account_holder_name"`
	BankName          string `json:"bank_name"`
}

type paymentMethodRequest struct {
	Type         string               `json:"type"`
	Card         *cardRequest         `json:"card"`
	Token        string               `json:"token"`
	CVC          string               `json:"cvc"`
	BankTransfer *bankTransferRequest `json:"bank_transfer"`
}

func (m *paymentMethodRequest) toAPI() api.PaymentMethodInput {
	if m == nil {
		return api.PaymentMethodInput{}
	}
	out := api.PaymentMethodInput{Type: m.Type, Token: m.Token, CVC: m.CVC}
	if m.Card != nil {
		out.Card = &api.Card{Number: m.Card.Number, ExpMonth: int(m.Card.ExpMonth), ExpYear: int(m.Card.ExpYear), CVC: m.Card.CVC, Name: m.Card.Name}
	}
	if m.BankTransfer != nil {
		b := m.BankTransfer
		out.BankTransfer = &api.BankTransfer{AccountNumber: b.AccountNumber, RoutingNumber: b.RoutingNumber, AccountHolderName: b.AccountHolderName, BankName: b.BankName}
	}
	// A saved card may be named by type "saved_card", or by a token with type "card".
	if out.Type == "" && out.Token != "" || out.Type == domain.MethodCard && out.Card == nil && out.Token != "" {
		out.Type = domain.MethodSavedCard
	}
	return out
}

type initiateRequest struct {
	GatewayID         string                `json:"gateway_id"`
	Amount            decimalField          `json:"amount"`
	Currency          string                `json:"currency"`
	PaymentMethod     *paymentMethodRequest `json:"payment_method"`
	OrderID           string                `json:"order_id"`
	CustomerEmail     string                `json:"customer_email"`
	CustomerID        string                `json:"customer_id"`
	Description       string                `json:"description"`
	Metadata          map[string]any        `json:"metadata"`
	ReturnURL         string                `json:"return_url"`
	IdempotencyKey    string                `json:"idempotency_key"`
	SavePaymentMethod bool                  `json:"save_payment_method"`
}

type methodsRequest struct {
	Currency string       `json:"currency"`
	Amount   decimalField `json:"amount"`
}

type completeRequest struct {
	ActionType string         `json:"action_type"`
	ActionData map[string]any `json:"action_data"`
}

type refundRequest struct {
	Amount         decimalField   `json:"amount"`
	Reason         string         `json:"reason"`
	Metadata       map[string]any `json:"metadata"`
	IdempotencyKey string         `json:"idempotency_key"`
}

type captureRequest struct {
	Amount decimalField `json:"amount"`
}

type saveMethodRequest struct {
	GatewayID         string                `json:"gateway_id"`
	PaymentMethodData *paymentMethodRequest `json:"payment_method_data"`
	SetAsDefault      bool                  `json:"set_as_default"`
}

// Responses.

type successResponse struct {
	Type          string            `json:"type"`
	PaymentID     string            `json:"payment_id"`
	TransactionID string            `json:"transaction_id"`
	PaymentStatus string            `json:"payment_status"`
	PaymentMethod api.MethodDetails `json:"payment_method"`
	ReceiptURL    string            `json:"receipt_url"`
}

// requiresActionResponse is a requires_action body: the action's members follow
// type and payment_id.
type requiresActionResponse struct {
	Type      string `json:"type"`
	PaymentID string `json:"payment_id"`
	api.Action
}

type failedResponse struct {
	Type         string `json:"type"`
	PaymentID    string `json:"payment_id"`
	ErrorCode    string `json:"error_code"`
	ErrorMessage string `json:"error_message"`
	RetryAllowed bool   `json:"retry_allowed"`
}

// toResultResponse writes a result as the spec's body for its type, with its status:
// 200 for success and requires_action, 402 for failed
// (docs/decisions/0052-payment-responses.md).
func toResultResponse(r api.PaymentResult) (int, any) {
	switch r.Type {
	case api.ResultRequiresAction:
		out := requiresActionResponse{Type: r.Type, PaymentID: r.PaymentID, Action: api.Action{Data: map[string]any{}}}
		if r.Action != nil {
			out.Action.Type, out.ExpiresAt = r.Action.Type, r.Action.ExpiresAt.UTC()
			if r.Action.Data != nil {
				out.Data = r.Action.Data
			}
		}
		return 200, out
	case api.ResultFailed:
		return 402, failedResponse{Type: r.Type, PaymentID: r.PaymentID, ErrorCode: r.ErrorCode, ErrorMessage: r.ErrorMessage, RetryAllowed: r.RetryAllowed}
	default:
		out := successResponse{Type: api.ResultSuccess, PaymentID: r.PaymentID, TransactionID: r.TransactionID, PaymentStatus: r.PaymentStatus, ReceiptURL: r.ReceiptURL}
		if m := r.PaymentMethod; m != nil {
			out.PaymentMethod = *m
		}
		return 200, out
	}
}

type paymentResponse struct {
	PaymentID      string            `json:"payment_id"`
	Status         string            `json:"status"`
	Amount         string            `json:"amount"`
	AmountRefunded string            `json:"amount_refunded"`
	Currency       string            `json:"currency"`
	Gateway        string            `json:"gateway"`
	TransactionID  string            `json:"transaction_id"`
	CaptureMethod  string            `json:"capture_method"`
	PaymentMethod  api.MethodSummary `json:"payment_method"`
	OrderID        *string           `json:"order_id"`
	CustomerID     *string           `json:"customer_id"`
	CreatedAt      time.Time         `json:"created_at"`
	CompletedAt    *time.Time        `json:"completed_at"`
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func toPaymentResponse(p api.Payment) paymentResponse {
	c := domain.Currency(p.Currency)
	return paymentResponse{
		PaymentID: p.ID, Status: p.Status, Amount: domain.FormatAmount(p.Amount, c), AmountRefunded: domain.FormatAmount(p.AmountRefunded, c),
		Currency: p.Currency, Gateway: p.Gateway, TransactionID: p.TransactionID, CaptureMethod: p.CaptureMethod,
		PaymentMethod: p.PaymentMethod, OrderID: optional(p.OrderID), CustomerID: optional(p.CustomerID),
		CreatedAt: p.CreatedAt.UTC(), CompletedAt: p.CompletedAt,
	}
}

type refundResponse struct {
	RefundID  string         `json:"refund_id"`
	PaymentID string         `json:"payment_id"`
	Amount    string         `json:"amount"`
	Currency  string         `json:"currency"`
	Status    string         `json:"status"`
	Reason    string         `json:"reason"`
	Metadata  map[string]any `json:"metadata"`
	CreatedAt time.Time      `json:"created_at"`
}

func toRefundResponse(r api.Refund) refundResponse {
	md := r.Metadata
	if md == nil {
		md = map[string]any{}
	}
	return refundResponse{
		RefundID: r.ID, PaymentID: r.PaymentID, Amount: domain.FormatAmount(r.Amount, domain.Currency(r.Currency)), Currency: r.Currency,
		Status: r.Status, Reason: r.Reason, Metadata: md, CreatedAt: r.CreatedAt.UTC(),
	}
}

// savedMethodResponse is a saved method in lists; its method fields are the
// payment_method of a save's answer.
type savedMethodResponse struct {
	Token     string `json:"token"`
	GatewayID string `json:"gateway_id"`
	savedPaymentMethodResponse
	ExpiresAt *time.Time `json:"expires_at"`
	CreatedAt time.Time  `json:"created_at"`
}

func toSavedMethodResponse(m *domain.SavedMethod) savedMethodResponse {
	return savedMethodResponse{
		Token: m.Token, GatewayID: m.Gateway, ExpiresAt: m.ExpiresAt, CreatedAt: m.CreatedAt.UTC(),
		savedPaymentMethodResponse: savedPaymentMethodResponse{
			MethodType: m.MethodType, LastFour: m.Card.LastFour, CardBrand: m.Card.Brand, ExpMonth: fmt.Sprintf("%02d", m.Card.ExpMonth),
			ExpYear: strconv.Itoa(m.Card.ExpYear), CardholderName: m.Card.Name, IsDefault: m.IsDefault,
		},
	}
}

type savedPaymentMethodResponse struct {
	MethodType     string `json:"method_type"`
	LastFour       string `json:"last_four"`
	CardBrand      string `json:"card_brand"`
	ExpMonth       string `json:"exp_month"`
	ExpYear        string `json:"exp_year"`
	CardholderName string `json:"cardholder_name"`
	IsDefault      bool   `json:"is_default"`
}

type saveMethodResponse struct {
	Token         string                     `json:"token"`
	PaymentMethod savedPaymentMethodResponse `json:"payment_method"`
	ExpiresAt     *time.Time                 `json:"expires_at"`
}

type deleteMethodResponse struct {
	Success bool   `json:"success"`
	Message string `json:"message"`
	Token   string `json:"token"`
}

type requiredField struct {
	Name        string `json:"name"`
	Label       string `json:"label"`
	FieldType   string `json:"field_type"`
	Required    bool   `json:"required"`
	Pattern     string `json:"pattern"`
	Placeholder string `json:"placeholder"`
}

// cardFields are the card's required fields with the spec's patterns.
var cardFields = []requiredField{
	{Name: "number", Label: "Card number", FieldType: "card_number", Required: true, Pattern: domain.PatternCardNumber, Placeholder: "4242 4242 4242 4242"},
	{Name: "exp_month", Label: "Expiry month", FieldType: "expiry_date", Required: true, Pattern: domain.PatternExpMonth, Placeholder: "MM"},
	{Name: "exp_year", Label: "Expiry year", FieldType: "expiry_date", Required: true, Pattern: domain.PatternExpYear, Placeholder: "YYYY"},
	{Name: "cvc", Label: "Security code", FieldType: "cvc", Required: true, Pattern: domain.PatternCVC, Placeholder: "123"},
}

type methodDescriptor struct {
	MethodType           string          `json:"method_type"`
	Enabled              bool            `json:"enabled"`
	DisplayName          string          `json:"display_name"`
	RequiresRedirect     bool            `json:"requires_redirect"`
	Supports3DS          bool            `json:"supports_3ds"`
	SupportsTokenization bool            `json:"supports_tokenization"`
	SupportsRecurring    bool            `json:"supports_recurring"`
	RequiredFields       []requiredField `json:"required_fields"`
	SupportedCurrencies  []string        `json:"supported_currencies"`
	MinAmount            string          `json:"min_amount"`
	MaxAmount            string          `json:"max_amount"`
}

type gatewayDescriptor struct {
	GatewayID      string             `json:"gateway_id"`
	GatewayName    string             `json:"gateway_name"`
	PaymentMethods []methodDescriptor `json:"payment_methods"`
	RequiredFields []requiredField    `json:"required_fields"`
}

func fieldsOf(spec ports.MethodSpec) []requiredField {
	if spec.CardFields {
		return cardFields
	}
	return []requiredField{}
}

func toGatewayDescriptor(g app.GatewayMethods) gatewayDescriptor {
	out := gatewayDescriptor{GatewayID: g.GatewayID, GatewayName: g.GatewayName, RequiredFields: []requiredField{}}
	for _, m := range g.Methods {
		out.PaymentMethods = append(out.PaymentMethods, methodDescriptor{
			MethodType: m.Spec.MethodType, Enabled: true, DisplayName: m.Spec.DisplayName, RequiresRedirect: m.Spec.RequiresRedirect,
			Supports3DS: m.Spec.Supports3DS, SupportsTokenization: m.Spec.SupportsTokenization, SupportsRecurring: m.Spec.SupportsRecurring,
			RequiredFields: fieldsOf(m.Spec), SupportedCurrencies: m.Spec.Currencies,
			MinAmount: domain.FormatAmount(m.MinAmount, g.Currency), MaxAmount: domain.FormatAmount(m.MaxAmount, g.Currency),
		})
		if m.Spec.CardFields {
			out.RequiredFields = cardFields
		}
	}
	return out
}

// Package alipay is the `alipay` gateway (China wallet): Alipay's open API at
// {base_url}/gateway.do with RSA2 (SHA256withRSA) signing of the sorted parameter string
// with the app's private key, and verification of responses and asynchronous
// notifications with the Alipay public key. Standard library only.
package alipay

import (
	"context"
	"crypto/rsa"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/payments/adapters/internal/gatewaykit"
	"github.com/gocommerce/commerce/modules/payments/domain"
	"github.com/gocommerce/commerce/modules/payments/internal/rsakeys"
	"github.com/gocommerce/commerce/modules/payments/ports"
)

// Config is the gateway's section of payment.alipay.
type Config struct {
	AppID              string
	PrivateKeyPEM      string // the app's RSA private key (PKCS#1 or PKCS#8, PEM or bare base64)
	AlipayPublicKeyPEM string // Alipay's RSA public key (PKIX, PEM or bare base64)
	BaseURL            string
	HTTPClient         *http.Client
	// Now is the clock requests are stamped with and notification times are checked
	// against (time.Now when nil).
	Now func() time.Time
}

// beijing is the time zone of Alipay's timestamp parameter.
var beijing = time.FixedZone("CST", 8*3600)

// Gateway is the Alipay adapter.
type Gateway struct {
	gatewaykit.Signed
	cfg Config
}

var _ ports.Gateway = (*Gateway)(nil)

// New parses the keys and builds the adapter.
func New(cfg Config) (*Gateway, error) {
	wallet := gatewaykit.Wallet{NoSavedMethods: gatewaykit.NoSavedMethods{Provider: "Alipay"}, GatewayID: "alipay", Currencies: []string{"CNY"}, MaxMinor: 10000000000}
	signed, err := gatewaykit.NewSigned(wallet, cfg.PrivateKeyPEM, cfg.AlipayPublicKeyPEM, cfg.BaseURL, cfg.Now)
	if err != nil {
		return nil, err
	}
	cfg.HTTPClient, cfg.Now = gatewaykit.HTTPClient(cfg.HTTPClient), signed.Now
	return &Gateway{Signed: signed, cfg: cfg}, nil
}

// ParsePrivateKey reads an RSA private key (PKCS#1 or PKCS#8, PEM or bare base64).
func ParsePrivateKey(s string) (*rsa.PrivateKey, error) { return rsakeys.ParsePrivate(s) }

// ParsePublicKey reads an RSA public key (PKIX or PKCS#1, PEM or bare base64).
func ParsePublicKey(s string) (*rsa.PublicKey, error) { return rsakeys.ParsePublic(s) }

// SignContent is Alipay's string to sign: every non-empty parameter except sign (and,
// for notifications, sign_type), sorted by name, as k=v joined with &.
func SignContent(params url.Values, skip ...string) string {
	keys := make([]string, 0, len(params))
outer:
	for k := range params {
		for _, s := range skip {
			if k == s {
				continue outer
			}
		}
		if params.Get(k) == "" {
			continue
		}
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		parts = append(parts, k+"="+params.Get(k))
	}
	return strings.Join(parts, "&")
}

// Sign signs content with SHA256withRSA (RSA2), base64.
func Sign(key *rsa.PrivateKey, content string) (string, error) { return rsakeys.Sign(key, content) }

// Verify checks a base64 SHA256withRSA signature of content.
func Verify(pub *rsa.PublicKey, content, sig string) error { return rsakeys.Verify(pub, content, sig) }

// CaptureMethod is always automatic (page pay has no separate capture).
func (g *Gateway) CaptureMethod() string { return domain.CaptureAutomatic }

// outTradeNo is the merchant order number: letters, digits and underscores only.
func outTradeNo(id string) string { return strings.ReplaceAll(id, "-", "") }

// signed returns the common parameters plus biz_content, signed.
func (g *Gateway) signed(method string, biz map[string]any, extra map[string]string) (url.Values, error) {
	raw, err := json.Marshal(biz)
	if err != nil {
		return nil, err
	}
	v := url.Values{}
	v.Set("app_id", g.cfg.AppID)
	v.Set("method", method)
	v.Set("format", "JSON")
	v.Set("charset", "utf-8")
	v.Set("sign_type", "RSA2")
	v.Set("timestamp", g.Now().In(beijing).Format("2006-01-02 15:04:05"))
	v.Set("version", "1.0")
	v.Set("biz_content", string(raw))
	for k, val := range extra {
		if val != "" {
			v.Set(k, val)
		}
	}
	sig, err := g.Sign(SignContent(v, "sign"))
	if err != nil {
		return nil, err
	}
	v.Set("sign", sig)
	return v, nil
}

// call posts a signed request and verifies the signed response; it returns the
// response node of the method (e.g. alipay_trade_query_response).
func (g *Gateway) call(ctx context.Context, method string, biz map[string]any) (map[string]any, error) {
	v, err := g.signed(method, biz, nil)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, g.Base+"/gateway.do", strings.NewReader(v.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded;charset=utf-8")
	resp, err := gatewaykit.Do(g.cfg.HTTPClient, req, 1<<20, "alipay: "+method)
	if err != nil {
		return nil, err
	}
	body := resp.Body
	if resp.Status != http.StatusOK {
		return nil, fmt.Errorf("alipay: %s: status %d", method, resp.Status)
	}
	var env map[string]json.RawMessage
	if err := json.Unmarshal(body, &env); err != nil {
		return nil, fmt.Errorf("alipay: %s: %w", method, err)
	}
	node := strings.ReplaceAll(method, ".", "_") + "_response"
	raw, ok := env[node]
	if !ok {
		return nil, fmt.Errorf("alipay: %s: no %s in the answer", method, node)
	}
	var sig string
	_ = json.Unmarshal(env["sign"], &sig)
	// The signature covers the response node exactly as sent.
	if err := g.Verify(string(raw), sig); err != nil {
		return nil, fmt.Errorf("alipay: %s: response signature: %w", method, err)
	}
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, err
	}
	return out, nil
}

func str(m map[string]any, k string) string {
	s, _ := m[k].(string)
	return s
}

// Authorize builds the signed page-pay URL: the customer pays on Alipay
// (requires_action, action_type redirect), then complete queries the trade.
func (g *Gateway) Authorize(_ context.Context, req ports.ChargeRequest) (ports.ChargeResult, error) {
	subject, err := g.Subject(req, "Alipay payments are made in the Alipay wallet; send payment_method type alipay")
	if err != nil {
		return ports.ChargeResult{}, err
	}
	no := outTradeNo(req.PaymentID)
	v, err := g.signed("alipay.trade.page.pay", map[string]any{
		"out_trade_no": no, "total_amount": domain.FormatAmount(req.Amount, req.Currency), "subject": subject,
		"product_code": "FAST_INSTANT_TRADE_PAY",
	}, map[string]string{"return_url": req.ReturnURL, "notify_url": req.NotifyURL})
	if err != nil {
		return ports.ChargeResult{}, err
	}
	return ports.ChargeResult{
		Status: domain.StatusRequiresAction, TransactionID: no,
		Action: &domain.Action{Type: domain.ActionRedirect, Data: map[string]any{
			"type": "alipay_page_pay", "redirect_url": g.Base + "/gateway.do?" + v.Encode(), "out_trade_no": no, "payment_intent": no,
		}},
	}, nil
}

// Complete queries the trade (alipay.trade.query).
func (g *Gateway) Complete(ctx context.Context, req ports.CompleteRequest) (ports.ChargeResult, error) {
	out, err := g.call(ctx, "alipay.trade.query", map[string]any{"out_trade_no": req.TransactionID})
	if err != nil {
		return ports.ChargeResult{}, err
	}
	res := ports.ChargeResult{TransactionID: req.TransactionID, ProviderReference: str(out, "trade_no")}
	if str(out, "code") != "10000" {
		if str(out, "sub_code") == "ACQ.TRADE_NOT_EXIST" {
			res.Status = domain.StatusRequiresAction // the customer has not paid yet
			return res, nil
		}
		return ports.ChargeResult{Status: domain.StatusFailed, DeclineCode: "processing_error", DeclineMessage: str(out, "sub_msg")}, nil
	}
	switch str(out, "trade_status") {
	case "TRADE_SUCCESS", "TRADE_FINISHED":
		res.Status = domain.StatusSucceeded
	case "WAIT_BUYER_PAY":
		res.Status = domain.StatusRequiresAction
	default: // TRADE_CLOSED
		res.Status, res.DeclineCode, res.DeclineMessage = domain.StatusFailed, "card_declined", "The Alipay trade was closed"
	}
	return res, nil
}

// Capture is not offered (payments are captured when paid).
func (g *Gateway) Capture(context.Context, ports.CaptureRequest) (ports.CaptureResult, error) {
	return ports.CaptureResult{}, domain.ErrAlreadyCaptured.WithMessage("Alipay payments are captured when paid")
}

// Cancel closes an unpaid trade (alipay.trade.close).
func (g *Gateway) Cancel(ctx context.Context, req ports.CancelRequest) error {
	out, err := g.call(ctx, "alipay.trade.close", map[string]any{"out_trade_no": req.TransactionID})
	if err != nil {
		return err
	}
	if str(out, "code") != "10000" && str(out, "sub_code") != "ACQ.TRADE_NOT_EXIST" {
		return fmt.Errorf("alipay: close: %s %s", str(out, "sub_code"), str(out, "sub_msg"))
	}
	return nil
}

// Refund refunds part or all of a trade (alipay.trade.refund).
func (g *Gateway) Refund(ctx context.Context, req ports.RefundRequest) (ports.RefundResult, error) {
	biz := map[string]any{
		"out_trade_no": req.TransactionID, "refund_amount": domain.FormatAmount(req.Amount, req.Currency),
		"out_request_no": outTradeNo(req.RefundID),
	}
	if req.Reason != "" {
		biz["refund_reason"] = req.Reason
	}
	out, err := g.call(ctx, "alipay.trade.refund", biz)
	if err != nil {
		return ports.RefundResult{}, err
	}
	if str(out, "code") != "10000" {
		return ports.RefundResult{Status: domain.RefundFailed, FailureReason: str(out, "sub_msg")}, nil
	}
	return ports.RefundResult{ProviderRefundID: outTradeNo(req.RefundID), Status: domain.RefundSucceeded}, nil
}

// ParseWebhook verifies an asynchronous notification (form parameters; sign over the
// sorted parameters without sign and sign_type, with the Alipay public key; the signed
// notify_time, Beijing time, within 5 minutes of now either way) and maps it.
func (g *Gateway) ParseWebhook(_ context.Context, _ http.Header, body []byte) (ports.WebhookEvent, error) {
	params, err := url.ParseQuery(string(body))
	if err != nil || params.Get("sign") == "" {
		return ports.WebhookEvent{}, domain.ErrInvalidSignature.WithMessage("Missing Alipay notification signature")
	}
	if err := g.Verify(SignContent(params, "sign", "sign_type"), params.Get("sign")); err != nil {
		return ports.WebhookEvent{}, domain.ErrInvalidSignature.WithCause(err)
	}
	if params.Get("app_id") != g.cfg.AppID {
		return ports.WebhookEvent{}, domain.ErrInvalidSignature.WithMessage("Notification is for another app_id")
	}
	sent, err := time.ParseInLocation("2006-01-02 15:04:05", params.Get("notify_time"), beijing)
	if err != nil {
		return ports.WebhookEvent{}, domain.ErrInvalidSignature.WithMessage("Missing or malformed notify_time")
	}
	if err := g.Fresh(sent); err != nil {
		return ports.WebhookEvent{}, domain.ErrInvalidSignature.WithCause(err)
	}
	ev := ports.WebhookEvent{
		ID: params.Get("notify_id"), Type: params.Get("notify_type") + ":" + params.Get("trade_status"), Kind: ports.EventIgnored,
		TransactionID: params.Get("out_trade_no"), ProviderReference: params.Get("trade_no"), Currency: "CNY", Payload: body,
	}
	ev.Amount, _ = decimal.NewFromString(params.Get("total_amount"))
	refunded, _ := decimal.NewFromString(params.Get("refund_fee"))
	switch {
	case refunded.IsPositive():
		ev.Kind = ports.EventRefundUpdated
		ev.AmountRefunded = refunded
		if no := params.Get("out_biz_no"); no != "" {
			ev.Refunds = []ports.WebhookRefund{{ProviderRefundID: no, Amount: refunded, Status: domain.RefundSucceeded}}
		}
	case params.Get("trade_status") == "TRADE_SUCCESS" || params.Get("trade_status") == "TRADE_FINISHED":
		ev.Kind = ports.EventPaymentSucceeded
	case params.Get("trade_status") == "TRADE_CLOSED":
		ev.Kind = ports.EventPaymentCanceled
	}
	return ev, nil
}

// Package wechatpay is the `wechat_pay` gateway (China wallet): WeChat Pay API v3 Native
// payments over net/http. Requests carry the documented
// `Authorization: WECHATPAY2-SHA256-RSA2048 mchid=..,nonce_str=..,signature=..,
// timestamp=..,serial_no=..` header, the signature being SHA256withRSA of
// "METHOD\nURL\nTIMESTAMP\nNONCE\nBODY\n" with the merchant key; answers and
// notifications are verified (Wechatpay-Signature over "TIMESTAMP\nNONCE\nBODY\n" with
// the platform public key) and notification resources decrypted with AES-256-GCM using
// the APIv3 key. Standard library only.
package wechatpay

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/gocommerce/commerce/modules/payments/adapters/internal/gatewaykit"
	"github.com/gocommerce/commerce/modules/payments/adapters/internal/signedtime"
	"github.com/gocommerce/commerce/modules/payments/domain"
	"github.com/gocommerce/commerce/modules/payments/ports"
)

// Config is the gateway's section of payment.wechat_pay.
type Config struct {
	AppID                string
	MerchantID           string
	PrivateKeyPEM        string // merchant API private key
	PlatformPublicKeyPEM string // WeChat Pay platform public key
	APIv3Key             string // 32 bytes; decrypts notification resources
	SerialNo             string // merchant API certificate serial number
	BaseURL              string
	HTTPClient           *http.Client
}

// Gateway is the WeChat Pay adapter.
type Gateway struct {
	gatewaykit.Signed
	cfg Config
}

var _ ports.Gateway = (*Gateway)(nil)

// Tolerance is how far a signed timestamp may be from now, before or after.
const Tolerance = signedtime.Tolerance

// New parses the keys and builds the adapter.
func New(cfg Config) (*Gateway, error) {
	wallet := gatewaykit.Wallet{NoSavedMethods: gatewaykit.NoSavedMethods{Provider: "WeChat Pay"}, GatewayID: "wechat_pay", Currencies: []string{"CNY"}, MaxMinor: 10000000000}
	signed, err := gatewaykit.NewSigned(wallet, cfg.PrivateKeyPEM, cfg.PlatformPublicKeyPEM, cfg.BaseURL, nil)
	if err != nil {
		return nil, err
	}
	if cfg.APIv3Key != "" && len(cfg.APIv3Key) != 32 {
		return nil, errors.New("webhook_secret: the APIv3 key must be 32 bytes")
	}
	cfg.HTTPClient = gatewaykit.HTTPClient(cfg.HTTPClient)
	return &Gateway{Signed: signed, cfg: cfg}, nil
}

// CaptureMethod is always automatic.
func (g *Gateway) CaptureMethod() string { return domain.CaptureAutomatic }

// SignatureMessage is the documented request string to sign.
func SignatureMessage(method, urlPath, timestamp, nonce, body string) string {
	return method + "\n" + urlPath + "\n" + timestamp + "\n" + nonce + "\n" + body + "\n"
}

// ResponseMessage is the documented answer/notification string to verify.
func ResponseMessage(timestamp, nonce, body string) string {
	return timestamp + "\n" + nonce + "\n" + body + "\n"
}

func nonce() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return strings.ToUpper(hex.EncodeToString(b))
}

// Authorization builds the request's Authorization header.
func (g *Gateway) Authorization(method, urlPath, body string) (string, error) {
	ts := strconv.FormatInt(g.Now().Unix(), 10)
	n := nonce()
	sig, err := g.Sign(SignatureMessage(method, urlPath, ts, n, body))
	if err != nil {
		return "", err
	}
	return fmt.Sprintf(`WECHATPAY2-SHA256-RSA2048 mchid="%s",nonce_str="%s",signature="%s",timestamp="%s",serial_no="%s"`,
		g.cfg.MerchantID, n, sig, ts, g.cfg.SerialNo), nil
}

// verify checks Wechatpay-Timestamp/Nonce/Signature over body with the platform key.
func (g *Gateway) verify(h http.Header, body []byte) error {
	ts, n, sig := h.Get("Wechatpay-Timestamp"), h.Get("Wechatpay-Nonce"), h.Get("Wechatpay-Signature")
	if ts == "" || n == "" || sig == "" {
		return errors.New("missing Wechatpay-Timestamp, Wechatpay-Nonce or Wechatpay-Signature")
	}
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return errors.New("bad Wechatpay-Timestamp")
	}
	if err := g.Fresh(time.Unix(sec, 0)); err != nil {
		return fmt.Errorf("Wechatpay-Timestamp: %w", err)
	}
	return g.Verify(ResponseMessage(ts, n, string(body)), sig)
}

// apiError is a WeChat Pay error answer.
type apiError struct {
	Status  int
	Code    string `json:"code"`
	Message string `json:"message"`
}

func (e *apiError) Error() string {
	return fmt.Sprintf("wechat_pay: %d %s: %s", e.Status, e.Code, e.Message)
}

// refused is the error of a failed answer with the given status (gatewaykit.Send).
func refused(status int) error { return &apiError{Status: status} }

// call sends a signed request and verifies the signed answer.
func (g *Gateway) call(ctx context.Context, method, path string, in, out any) error {
	req, raw, err := gatewaykit.NewRequest(ctx, method, g.Base+path, in, "Accept", "application/json")
	if err != nil {
		return err
	}
	auth, err := g.Authorization(method, path, string(raw))
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", auth)
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := gatewaykit.Send(g.cfg.HTTPClient, req, 1<<20, "wechat_pay: "+method+" "+path, refused)
	if err != nil {
		return err
	}
	if err := g.verify(resp.Header, resp.Body); err != nil {
		return fmt.Errorf("wechat_pay: %s %s: answer signature: %w", method, path, err)
	}
	return resp.Decode(out)
}

// outTradeNo is the merchant order number (6-32 characters): the payment's UUID
// without hyphens.
func outTradeNo(id string) string {
	id = strings.TrimPrefix(strings.TrimPrefix(id, "pay_"), "ref_")
	return strings.ReplaceAll(id, "-", "")
}

type amount struct {
	Total    int64  `json:"total,omitempty"`
	Refund   int64  `json:"refund,omitempty"`
	Currency string `json:"currency,omitempty"`
}

// Authorize places a Native order: the customer scans code_url (requires_action,
// action_type redirect), then complete queries the order.
func (g *Gateway) Authorize(ctx context.Context, req ports.ChargeRequest) (ports.ChargeResult, error) {
	desc, err := g.Subject(req, "WeChat Pay payments are made in WeChat; send payment_method type wechat_pay")
	if err != nil {
		return ports.ChargeResult{}, err
	}
	no := outTradeNo(req.PaymentID)
	var out struct {
		CodeURL string `json:"code_url"`
	}
	body := map[string]any{
		"appid": g.cfg.AppID, "mchid": g.cfg.MerchantID, "description": desc, "out_trade_no": no, "notify_url": req.NotifyURL,
		"amount": amount{Total: domain.ToMinor(req.Amount, req.Currency), Currency: string(req.Currency)},
	}
	if err := g.call(ctx, http.MethodPost, "/v3/pay/transactions/native", body, &out); err != nil {
		var e *apiError
		if errors.As(err, &e) && e.Status < 500 {
			return ports.ChargeResult{Status: domain.StatusFailed, DeclineCode: "processing_error", DeclineMessage: e.Message}, nil
		}
		return ports.ChargeResult{}, err
	}
	return ports.ChargeResult{
		Status: domain.StatusRequiresAction, TransactionID: no,
		Action: &domain.Action{Type: domain.ActionRedirect, Data: map[string]any{
			"type": "wechat_pay_native", "redirect_url": out.CodeURL, "code_url": out.CodeURL, "out_trade_no": no, "payment_intent": no,
		}},
	}, nil
}

// Complete queries the order by out_trade_no.
func (g *Gateway) Complete(ctx context.Context, req ports.CompleteRequest) (ports.ChargeResult, error) {
	var out struct {
		TradeState     string `json:"trade_state"`
		TradeStateDesc string `json:"trade_state_desc"`
		TransactionID  string `json:"transaction_id"`
	}
	path := "/v3/pay/transactions/out-trade-no/" + url.PathEscape(req.TransactionID) + "?mchid=" + url.QueryEscape(g.cfg.MerchantID)
	if err := g.call(ctx, http.MethodGet, path, nil, &out); err != nil {
		var e *apiError
		if errors.As(err, &e) && e.Code == "ORDER_NOT_EXIST" {
			return ports.ChargeResult{Status: domain.StatusRequiresAction, TransactionID: req.TransactionID}, nil
		}
		return ports.ChargeResult{}, err
	}
	res := ports.ChargeResult{TransactionID: req.TransactionID, ProviderReference: out.TransactionID}
	switch out.TradeState {
	case "SUCCESS":
		res.Status = domain.StatusSucceeded
	case "NOTPAY", "USERPAYING":
		res.Status = domain.StatusRequiresAction
	default:
		res.Status, res.DeclineCode, res.DeclineMessage = domain.StatusFailed, "card_declined", "WeChat Pay: "+out.TradeState+" "+out.TradeStateDesc
	}
	return res, nil
}

// Capture is not offered (payments are captured when paid).
func (g *Gateway) Capture(context.Context, ports.CaptureRequest) (ports.CaptureResult, error) {
	return ports.CaptureResult{}, domain.ErrAlreadyCaptured.WithMessage("WeChat Pay payments are captured when paid")
}

// Cancel closes an unpaid order.
func (g *Gateway) Cancel(ctx context.Context, req ports.CancelRequest) error {
	return g.call(ctx, http.MethodPost, "/v3/pay/transactions/out-trade-no/"+url.PathEscape(req.TransactionID)+"/close",
		map[string]any{"mchid": g.cfg.MerchantID}, nil)
}

// Refund creates a domestic refund.
func (g *Gateway) Refund(ctx context.Context, req ports.RefundRequest) (ports.RefundResult, error) {
	body := map[string]any{
		"out_trade_no": req.TransactionID, "out_refund_no": outTradeNo(req.RefundID), "notify_url": req.NotifyURL,
		"amount": amount{Refund: domain.ToMinor(req.Amount, req.Currency), Total: domain.ToMinor(req.PaymentAmount, req.Currency), Currency: string(req.Currency)},
	}
	if req.Reason != "" {
		body["reason"] = req.Reason
	}
	var out struct {
		RefundID string `json:"refund_id"`
		Status   string `json:"status"`
	}
	if err := g.call(ctx, http.MethodPost, "/v3/refund/domestic/refunds", body, &out); err != nil {
		var e *apiError
		if errors.As(err, &e) && e.Status < 500 {
			return ports.RefundResult{Status: domain.RefundFailed, FailureReason: e.Message}, nil
		}
		return ports.RefundResult{}, err
	}
	return ports.RefundResult{ProviderRefundID: outTradeNo(req.RefundID), Status: refundStatus(out.Status)}, nil
}

// refundStates are the final refund states.
var refundStates = gatewaykit.RefundStates{Succeeded: []string{"SUCCESS"}, Failed: []string{"ABNORMAL", "CLOSED"}}

func refundStatus(s string) domain.RefundStatus { return refundStates.Of(s) }

// Decrypt opens a notification resource (AEAD_AES_256_GCM with the APIv3 key).
func Decrypt(apiV3Key, nonce, associatedData, ciphertext string) ([]byte, error) {
	raw, err := base64.StdEncoding.DecodeString(ciphertext)
	if err != nil {
		return nil, err
	}
	block, err := aes.NewCipher([]byte(apiV3Key))
	if err != nil {
		return nil, err
	}
	gcm, err := cipher.NewGCMWithNonceSize(block, len(nonce))
	if err != nil {
		return nil, err
	}
	return gcm.Open(nil, []byte(nonce), raw, []byte(associatedData))
}

// notification is a notification's envelope; its resource is encrypted.
type notification struct {
	ID         string            `json:"id"`
	CreateTime string            `json:"create_time"`
	EventType  string            `json:"event_type"`
	Resource   encryptedResource `json:"resource"`
}

type encryptedResource struct {
	Algorithm      string `json:"algorithm"`
	Ciphertext     string `json:"ciphertext"`
	AssociatedData string `json:"associated_data"`
	Nonce          string `json:"nonce"`
}

// resource is a decrypted payment or refund notification resource.
type resource struct {
	OutTradeNo    string `json:"out_trade_no"`
	TransactionID string `json:"transaction_id"`
	TradeState    string `json:"trade_state"`
	OutRefundNo   string `json:"out_refund_no"`
	RefundStatus  string `json:"refund_status"`
	Amount        struct {
		Total    int64  `json:"total"`
		Refund   int64  `json:"refund"`
		Currency string `json:"currency"`
	} `json:"amount"`
}

// open decrypts the resource with the APIv3 key and decodes it; either failure is
// INVALID_SIGNATURE.
func (e encryptedResource) open(apiV3Key string) (resource, error) {
	var r resource
	plain, err := Decrypt(apiV3Key, e.Nonce, e.AssociatedData, e.Ciphertext)
	if err != nil {
		return r, domain.ErrInvalidSignature.WithMessage("Notification resource does not decrypt")
	}
	if err := json.Unmarshal(plain, &r); err != nil {
		return r, domain.ErrInvalidSignature.WithMessage("Notification resource is not JSON")
	}
	return r, nil
}

// ParseWebhook verifies a notification's signature headers, decrypts its resource with
// the APIv3 key and maps it.
func (g *Gateway) ParseWebhook(_ context.Context, headers http.Header, body []byte) (ports.WebhookEvent, error) {
	if g.cfg.APIv3Key == "" {
		return ports.WebhookEvent{}, domain.ErrInvalidSignature.WithMessage("WeChat Pay APIv3 key is not configured")
	}
	if err := g.verify(headers, body); err != nil {
		return ports.WebhookEvent{}, domain.ErrInvalidSignature.WithCause(err)
	}
	var env notification
	if err := json.Unmarshal(body, &env); err != nil {
		return ports.WebhookEvent{}, domain.ErrInvalidSignature.WithMessage("Notification is not JSON")
	}
	r, err := env.Resource.open(g.cfg.APIv3Key)
	if err != nil {
		return ports.WebhookEvent{}, err
	}
	c := domain.Currency("CNY")
	if r.Amount.Currency != "" {
		c = domain.Currency(r.Amount.Currency)
	}
	// Only the envelope is stored: the decrypted resource holds nothing secret, but the
	// payload kept is what was received.
	ev := ports.WebhookEvent{ID: env.ID, Type: env.EventType, Kind: ports.EventIgnored, TransactionID: r.OutTradeNo,
		ProviderReference: r.TransactionID, Currency: c, Amount: domain.FromMinor(r.Amount.Total, c), Payload: body}
	if t, err := time.Parse(time.RFC3339, env.CreateTime); err == nil {
		ev.OccurredAt = t.UTC()
	}
	switch {
	case env.EventType == "TRANSACTION.SUCCESS" && r.TradeState == "SUCCESS":
		ev.Kind = ports.EventPaymentSucceeded
	case strings.HasPrefix(env.EventType, "REFUND."):
		ev.Kind = ports.EventRefundUpdated
		ev.Refunds = []ports.WebhookRefund{{ProviderRefundID: r.OutRefundNo, Amount: domain.FromMinor(r.Amount.Refund, c), Status: refundStatus(r.RefundStatus)}}
	}
	return ev, nil
}

package wechatpay_test

import (
	"context"
	"crypto/rsa"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/payments/adapters/wechatpay"
	"github.com/gocommerce/commerce/modules/payments/domain"
	"github.com/gocommerce/commerce/modules/payments/internal/gatewaytest"
	"github.com/gocommerce/commerce/modules/payments/ports"
)

const (
	mchID    = "1900000109"
	appID    = "wxd678efh567hg6787"
	serialNo = "5157F09EFDC096DE15EBE81A47057A7232F1B8E1"
	apiV3Key = "0123456789abcdef0123456789abcdef"
)

var authHeader = regexp.MustCompile(`^WECHATPAY2-SHA256-RSA2048 mchid="([^"]+)",nonce_str="([^"]+)",signature="([^"]+)",timestamp="([^"]+)",serial_no="([^"]+)"$`)

// signHeaders sets WeChat Pay's answer/notification signature headers.
func signHeaders(h http.Header, platform *rsa.PrivateKey, body string, at time.Time) {
	kv := gatewaytest.WeChatHeaders(platform, body, "NONCE123", "PLATFORM-SERIAL", at)
	for i := 0; i < len(kv); i += 2 {
		h.Set(kv[i], kv[i+1])
	}
}

// fakeWeChat is a local stand-in of WeChat Pay API v3. It verifies each request's
// Authorization header (SHA256withRSA of METHOD\nURL\nTIMESTAMP\nNONCE\nBODY\n with the
// merchant's public key, mchid and serial_no) and signs every answer with the platform key.
type fakeWeChat struct {
	merchant *rsa.PublicKey
	platform *rsa.PrivateKey
	mu       sync.Mutex
	state    *gatewaytest.State
	bodies   map[string]map[string]any
	srv      *httptest.Server
}

func (f *fakeWeChat) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	m := authHeader.FindStringSubmatch(r.Header.Get("Authorization"))
	ok := m != nil && m[1] == mchID && m[5] == serialNo
	ok = ok && gatewaytest.Verify(f.merchant, wechatpay.SignatureMessage(r.Method, r.URL.RequestURI(), m[4], m[2], string(body)), m[3])
	answer := func(status int, v any) {
		raw, _ := json.Marshal(v)
		if status == http.StatusNoContent {
			raw = nil
		}
		signHeaders(w.Header(), f.platform, string(raw), time.Now())
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write(raw)
	}
	if !ok {
		answer(401, map[string]any{"code": "SIGN_ERROR", "message": "signature verification failed"})
		return
	}
	var in map[string]any
	_ = json.Unmarshal(body, &in)
	f.mu.Lock()
	f.bodies[r.URL.Path] = in
	f.mu.Unlock()
	state := f.state.Get()
	switch {
	case r.URL.Path == "/v3/pay/transactions/native":
		answer(200, map[string]any{"code_url": "weixin://wxpay/bizpayurl?pr=abc"})
	case strings.HasPrefix(r.URL.Path, "/v3/pay/transactions/out-trade-no/") && strings.HasSuffix(r.URL.Path, "/close"):
		answer(204, nil)
	case strings.HasPrefix(r.URL.Path, "/v3/pay/transactions/out-trade-no/"):
		if r.URL.Query().Get("mchid") != mchID {
			answer(400, map[string]any{"code": "PARAM_ERROR", "message": "mchid"})
			return
		}
		answer(200, map[string]any{"trade_state": state, "transaction_id": "4200000001", "out_trade_no": strings.TrimPrefix(r.URL.Path, "/v3/pay/transactions/out-trade-no/")})
	case r.URL.Path == "/v3/refund/domestic/refunds":
		answer(200, map[string]any{"refund_id": "50000001", "status": "PROCESSING"})
	default:
		answer(404, map[string]any{"code": "NOT_FOUND", "message": "no"})
	}
}

func gateway(t *testing.T, merchant *rsa.PrivateKey, platform *rsa.PublicKey, base string) *wechatpay.Gateway {
	t.Helper()
	g, err := wechatpay.New(wechatpay.Config{AppID: appID, MerchantID: mchID, PrivateKeyPEM: gatewaytest.PrivatePEM(merchant),
		PlatformPublicKeyPEM: gatewaytest.PublicPEM(t, platform), APIv3Key: apiV3Key, SerialNo: serialNo, BaseURL: base})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func fake(t *testing.T, merchant *rsa.PublicKey, platform *rsa.PrivateKey) *fakeWeChat {
	t.Helper()
	f := &fakeWeChat{merchant: merchant, platform: platform, state: gatewaytest.NewState("NOTPAY"), bodies: map[string]map[string]any{}}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

type fixture struct {
	g                  *wechatpay.Gateway
	f                  *fakeWeChat
	merchant, platform *rsa.PrivateKey
}

func setup(t *testing.T) fixture {
	t.Helper()
	merchant, platform := gatewaytest.RSAKey(t), gatewaytest.RSAKey(t)
	f := fake(t, &merchant.PublicKey, platform)
	return fixture{g: gateway(t, merchant, &platform.PublicKey, f.srv.URL), f: f, merchant: merchant, platform: platform}
}

func TestWeChatPayAPIv3(t *testing.T) {
	t.Parallel()
	fx := setup(t)
	g, f := fx.g, fx.f
	ctx := context.Background()
	res, err := g.Authorize(ctx, ports.ChargeRequest{PaymentID: "pay_0190c8a2-1b2c-7d3e-8f40-123456789abc", Amount: decimal.RequireFromString("19.99"),
		Currency: "CNY", MethodType: "wechat_pay", Capture: true, NotifyURL: "https://api.example/api/v2/webhooks/wechat_pay", Description: "Order 1001"})
	if err != nil || res.Status != domain.StatusRequiresAction || res.TransactionID != "0190c8a21b2c7d3e8f40123456789abc" ||
		res.Action.Data["code_url"] != "weixin://wxpay/bizpayurl?pr=abc" || res.Action.Type != "redirect" {
		t.Fatalf("native order: %+v %v", res, err)
	}
	b := f.bodies["/v3/pay/transactions/native"]
	amount := b["amount"].(map[string]any)
	if b["appid"] != appID || b["mchid"] != mchID || b["out_trade_no"] != res.TransactionID || amount["total"] != float64(1999) ||
		amount["currency"] != "CNY" || b["notify_url"] != "https://api.example/api/v2/webhooks/wechat_pay" {
		t.Fatalf("order body %v", b)
	}
	gatewaytest.AssertPaidOnQuery(ctx, t, g, res.TransactionID, f.state, "SUCCESS", "4200000001")
	rr, err := g.Refund(ctx, ports.RefundRequest{RefundID: "ref_0190c8a2-0000-7000-8000-000000000001", TransactionID: res.TransactionID,
		Amount: decimal.RequireFromString("5"), PaymentAmount: decimal.RequireFromString("19.99"), Currency: "CNY"})
	ra := f.bodies["/v3/refund/domestic/refunds"]["amount"].(map[string]any)
	if err != nil || rr.Status != domain.RefundPending || ra["refund"] != float64(500) || ra["total"] != float64(1999) {
		t.Fatalf("refund: %+v %v %v", rr, err, ra)
	}
	if err := g.Cancel(ctx, ports.CancelRequest{TransactionID: res.TransactionID}); err != nil {
		t.Fatalf("close: %v", err)
	}
	// Answers not signed with the platform key are refused.
	forged := fake(t, &fx.merchant.PublicKey, gatewaytest.RSAKey(t))
	if _, err := gateway(t, fx.merchant, &fx.platform.PublicKey, forged.srv.URL).Complete(ctx, ports.CompleteRequest{TransactionID: "x"}); err == nil {
		t.Fatal("forged answer accepted")
	}
	// Requests signed with another merchant key are refused by the stand-in.
	if _, err := gateway(t, gatewaytest.RSAKey(t), &fx.platform.PublicKey, f.srv.URL).Complete(ctx, ports.CompleteRequest{TransactionID: "x"}); err == nil {
		t.Fatal("request with a wrong key accepted")
	}
}

func encrypt(t *testing.T, plain, nonce, aad string) string {
	return gatewaytest.Encrypt(t, apiV3Key, plain, nonce, aad)
}

func TestWeChatPayNotifications(t *testing.T) {
	t.Parallel()
	fx := setup(t)
	g, platform := fx.g, fx.platform
	resource := `{"out_trade_no":"0190c8a21b2c7d3e8f40123456789abc","transaction_id":"4200000001","trade_state":"SUCCESS","amount":{"total":1999,"currency":"CNY"}}`
	body := fmt.Sprintf(`{"id":"EV-1","create_time":"2026-11-22T18:00:00+08:00","resource_type":"encrypt-resource","event_type":"TRANSACTION.SUCCESS",`+
		`"resource":{"algorithm":"AEAD_AES_256_GCM","ciphertext":%q,"associated_data":"transaction","nonce":"fdasflkja484","original_type":"transaction"}}`,
		encrypt(t, resource, "fdasflkja484", "transaction"))
	h := http.Header{}
	signHeaders(h, platform, body, time.Now())
	ev, err := g.ParseWebhook(context.Background(), h, []byte(body))
	if err != nil || ev.ID != "EV-1" || ev.Kind != ports.EventPaymentSucceeded || ev.TransactionID != "0190c8a21b2c7d3e8f40123456789abc" ||
		!ev.Amount.Equal(decimal.RequireFromString("19.99")) {
		t.Fatalf("notification: %+v %v", ev, err)
	}
	if _, err := g.ParseWebhook(context.Background(), h, []byte(strings.Replace(body, "EV-1", "EV-2", 1))); !errors.Is(err, domain.ErrInvalidSignature) {
		t.Fatalf("tampered: %v", err)
	}
	old := http.Header{}
	signHeaders(old, platform, body, time.Now().Add(-10*time.Minute))
	if _, err := g.ParseWebhook(context.Background(), old, []byte(body)); !errors.Is(err, domain.ErrInvalidSignature) {
		t.Fatalf("stale: %v", err)
	}
	// A resource encrypted with another key does not decrypt.
	bad := strings.Replace(body, encrypt(t, resource, "fdasflkja484", "transaction"), encrypt(t, resource, "fdasflkja484", "other"), 1)
	hb := http.Header{}
	signHeaders(hb, platform, bad, time.Now())
	if _, err := g.ParseWebhook(context.Background(), hb, []byte(bad)); !errors.Is(err, domain.ErrInvalidSignature) {
		t.Fatalf("wrong aad: %v", err)
	}
	refund := `{"out_trade_no":"0190c8a21b2c7d3e8f40123456789abc","out_refund_no":"0190c8a2000070008000000000000001","refund_status":"SUCCESS","amount":{"refund":500,"total":1999}}`
	rbody := fmt.Sprintf(`{"id":"EV-3","event_type":"REFUND.SUCCESS","resource":{"algorithm":"AEAD_AES_256_GCM","ciphertext":%q,"associated_data":"refund","nonce":"abcdefabcdef"}}`,
		encrypt(t, refund, "abcdefabcdef", "refund"))
	hr := http.Header{}
	signHeaders(hr, platform, rbody, time.Now())
	ev, err = g.ParseWebhook(context.Background(), hr, []byte(rbody))
	if err != nil || ev.Kind != ports.EventRefundUpdated || ev.Refunds[0].Status != domain.RefundSucceeded || !ev.Refunds[0].Amount.Equal(decimal.RequireFromString("5")) {
		t.Fatalf("refund notification: %+v %v", ev, err)
	}
}

package alipay_test

import (
	"context"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/payments/adapters/alipay"
	"github.com/gocommerce/commerce/modules/payments/domain"
	"github.com/gocommerce/commerce/modules/payments/internal/gatewaytest"
	"github.com/gocommerce/commerce/modules/payments/ports"
)

const appID = "2021000000000001"

type keys struct {
	merchant, alipay *rsa.PrivateKey
}

func newKeys(t *testing.T) keys {
	t.Helper()
	return keys{merchant: gatewaytest.RSAKey(t), alipay: gatewaytest.RSAKey(t)}
}

func privatePEM(t *testing.T, k *rsa.PrivateKey) string {
	der, err := x509.MarshalPKCS8PrivateKey(k)
	if err != nil {
		t.Fatal(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}))
}

// publicBase64 is the key as Alipay's console shows it: bare base64, no PEM armour.
func publicBase64(t *testing.T, k *rsa.PublicKey) string {
	der, err := x509.MarshalPKIXPublicKey(k)
	if err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(der)
}

// fakeAlipay is a local stand-in of Alipay's gateway.do. It verifies each request's
// RSA2 signature over the sorted parameters with the merchant's public key, the way
// Alipay documents it, and signs its answers' response node with its own key.
type fakeAlipay struct {
	t      *testing.T
	k      keys
	mu     sync.Mutex
	status *gatewaytest.State
	calls  map[string]map[string]any
	srv    *httptest.Server
}

func newFake(t *testing.T, k keys) *fakeAlipay {
	f := &fakeAlipay{t: t, k: k, status: gatewaytest.NewState("WAIT_BUYER_PAY"), calls: map[string]map[string]any{}}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func checkRequest(k *rsa.PublicKey, v url.Values) error {
	if v.Get("sign_type") != "RSA2" || v.Get("app_id") != appID || v.Get("charset") != "utf-8" || v.Get("format") != "JSON" || v.Get("version") != "1.0" {
		return errors.New("bad common parameters")
	}
	if _, err := time.Parse("2006-01-02 15:04:05", v.Get("timestamp")); err != nil {
		return errors.New("bad timestamp")
	}
	return alipay.Verify(k, alipay.SignContent(v, "sign"), v.Get("sign"))
}

func (f *fakeAlipay) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	v, _ := url.ParseQuery(string(body))
	method := v.Get("method")
	node := strings.ReplaceAll(method, ".", "_") + "_response"
	var content string
	if err := checkRequest(&f.k.merchant.PublicKey, v); err != nil {
		content = `{"code":"40002","msg":"Invalid Arguments","sub_code":"isv.invalid-signature","sub_msg":"` + err.Error() + `"}`
	} else {
		var biz map[string]any
		_ = json.Unmarshal([]byte(v.Get("biz_content")), &biz)
		f.mu.Lock()
		f.calls[method] = biz
		f.mu.Unlock()
		status := f.status.Get()
		switch method {
		case "alipay.trade.query":
			if biz["out_trade_no"] == "missing" {
				content = `{"code":"40004","msg":"Business Failed","sub_code":"ACQ.TRADE_NOT_EXIST","sub_msg":"no trade"}`
			} else {
				content = fmt.Sprintf(`{"code":"10000","msg":"Success","trade_no":"2026112222001","out_trade_no":%q,"trade_status":%q,"total_amount":"19.99"}`, biz["out_trade_no"], status)
			}
		case "alipay.trade.refund":
			content = `{"code":"10000","msg":"Success","fund_change":"Y","refund_fee":"5.00"}`
		case "alipay.trade.close":
			content = `{"code":"10000","msg":"Success"}`
		default:
			content = `{"code":"40004","msg":"unknown method"}`
		}
	}
	sig, _ := alipay.Sign(f.k.alipay, content)
	w.Header().Set("Content-Type", "application/json;charset=utf-8")
	_, _ = fmt.Fprintf(w, `{"%s":%s,"sign":"%s"}`, node, content, sig)
}

func newGateway(t *testing.T, k keys, base string, now ...func() time.Time) *alipay.Gateway {
	t.Helper()
	cfg := alipay.Config{AppID: appID, PrivateKeyPEM: privatePEM(t, k.merchant), AlipayPublicKeyPEM: publicBase64(t, &k.alipay.PublicKey), BaseURL: base}
	if len(now) > 0 {
		cfg.Now = now[0]
	}
	g, err := alipay.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestAlipayOpenAPI(t *testing.T) {
	t.Parallel()
	k := newKeys(t)
	f := newFake(t, k)
	g := newGateway(t, k, f.srv.URL)
	ctx := context.Background()

	res, err := g.Authorize(ctx, ports.ChargeRequest{PaymentID: "pay_0190c8a2-1b2c-7d3e-8f40-123456789abc", Amount: decimal.RequireFromString("19.99"),
		Currency: "CNY", MethodType: "alipay", Capture: true, ReturnURL: "https://shop.example/return", NotifyURL: "https://api.example/api/v2/webhooks/alipay"})
	if err != nil || res.Status != domain.StatusRequiresAction || res.Action.Type != "redirect" || res.TransactionID != "pay_0190c8a21b2c7d3e8f40123456789abc" {
		t.Fatalf("page pay: %+v %v", res, err)
	}
	// The redirect URL is a signed page-pay request Alipay would accept.
	u, err := url.Parse(res.Action.Data["redirect_url"].(string))
	if err != nil || u.Path != "/gateway.do" {
		t.Fatalf("redirect %v", res.Action.Data)
	}
	q := u.Query()
	if err := checkRequest(&k.merchant.PublicKey, q); err != nil || q.Get("method") != "alipay.trade.page.pay" || q.Get("return_url") != "https://shop.example/return" ||
		q.Get("notify_url") != "https://api.example/api/v2/webhooks/alipay" {
		t.Fatalf("page pay request: %v %v", q, err)
	}
	var biz map[string]any
	_ = json.Unmarshal([]byte(q.Get("biz_content")), &biz)
	if biz["total_amount"] != "19.99" || biz["product_code"] != "FAST_INSTANT_TRADE_PAY" || biz["out_trade_no"] != res.TransactionID {
		t.Fatalf("biz_content %v", biz)
	}
	// Query: still waiting, then paid; a trade not created yet is still waiting.
	gatewaytest.AssertPaidOnQuery(ctx, t, g, res.TransactionID, f.status, "TRADE_SUCCESS", "2026112222001")
	if r, err := g.Complete(ctx, ports.CompleteRequest{TransactionID: "missing"}); err != nil || r.Status != domain.StatusRequiresAction {
		t.Fatalf("query missing: %+v %v", r, err)
	}
	rr, err := g.Refund(ctx, ports.RefundRequest{RefundID: "ref_0190c8a2-0000-7000-8000-000000000001", TransactionID: res.TransactionID,
		Amount: decimal.RequireFromString("5"), Currency: "CNY", Reason: "requested_by_customer"})
	if err != nil || rr.Status != domain.RefundSucceeded || f.calls["alipay.trade.refund"]["refund_amount"] != "5.00" ||
		f.calls["alipay.trade.refund"]["out_request_no"] != "ref_0190c8a2000070008000000000000001" {
		t.Fatalf("refund: %+v %v %v", rr, err, f.calls["alipay.trade.refund"])
	}
	if err := g.Cancel(ctx, ports.CancelRequest{TransactionID: res.TransactionID}); err != nil {
		t.Fatalf("close: %v", err)
	}
	// An answer not signed by Alipay's key is refused.
	other := newKeys(t)
	forged := newFake(t, keys{merchant: k.merchant, alipay: other.alipay})
	if _, err := newGateway(t, k, forged.srv.URL).Complete(ctx, ports.CompleteRequest{TransactionID: "x"}); err == nil {
		t.Fatal("forged answer accepted")
	}
	// A request signed with another merchant key is refused by the stand-in.
	wrong := newGateway(t, keys{merchant: other.merchant, alipay: k.alipay}, f.srv.URL)
	if r, err := wrong.Complete(ctx, ports.CompleteRequest{TransactionID: "x"}); err != nil || r.Status != domain.StatusFailed {
		t.Fatalf("request with a wrong key: %+v %v", r, err)
	}
}

func notification(t *testing.T, k *rsa.PrivateKey, params map[string]string) []byte {
	t.Helper()
	v := url.Values{}
	for key, val := range params {
		v.Set(key, val)
	}
	return gatewaytest.AlipayNotification(t, k, v)
}

func TestAlipayNotifications(t *testing.T) {
	t.Parallel()
	k := newKeys(t)
	// notify_time is Beijing time: 18:00:00 there is 10:00:00 UTC.
	g := newGateway(t, k, "http://127.0.0.1:1", func() time.Time { return time.Date(2026, 11, 22, 10, 0, 30, 0, time.UTC) })
	paid := map[string]string{
		"notify_id": "n-1", "notify_type": "trade_status_sync", "notify_time": "2026-11-22 18:00:00", "app_id": appID, "charset": "utf-8",
		"version": "1.0", "trade_no": "2026112222001", "out_trade_no": "pay_abc", "trade_status": "TRADE_SUCCESS", "total_amount": "19.99",
	}
	ev, err := g.ParseWebhook(context.Background(), http.Header{}, notification(t, k.alipay, paid))
	if err != nil || ev.ID != "n-1" || ev.Kind != ports.EventPaymentSucceeded || ev.TransactionID != "pay_abc" || !ev.Amount.Equal(decimal.RequireFromString("19.99")) {
		t.Fatalf("paid: %+v %v", ev, err)
	}
	body := notification(t, k.alipay, paid)
	tampered := []byte(strings.Replace(string(body), "19.99", "99.99", 1))
	if _, err := g.ParseWebhook(context.Background(), http.Header{}, tampered); !errors.Is(err, domain.ErrInvalidSignature) {
		t.Fatalf("tampered: %v", err)
	}
	if _, err := g.ParseWebhook(context.Background(), http.Header{}, notification(t, k.merchant, paid)); !errors.Is(err, domain.ErrInvalidSignature) {
		t.Fatalf("signed by another key: %v", err)
	}
	paid["refund_fee"], paid["out_biz_no"], paid["notify_id"] = "5.00", "ref_1", "n-2"
	ev, err = g.ParseWebhook(context.Background(), http.Header{}, notification(t, k.alipay, paid))
	if err != nil || ev.Kind != ports.EventRefundUpdated || len(ev.Refunds) != 1 || ev.Refunds[0].ProviderRefundID != "ref_1" {
		t.Fatalf("refund: %+v %v", ev, err)
	}
}

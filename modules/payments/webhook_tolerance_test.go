package payments_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"github.com/gocommerce/commerce/modules/payments/adapters/alipay"
	"github.com/gocommerce/commerce/modules/payments/adapters/paypal"
	"github.com/gocommerce/commerce/modules/payments/adapters/stripe"
	"github.com/gocommerce/commerce/modules/payments/adapters/wechatpay"
	"github.com/gocommerce/commerce/modules/payments/internal/gatewaytest"
	"github.com/gocommerce/commerce/modules/payments/ports"
	"github.com/gocommerce/commerce/platform/testdb"
)

// delivery is a correctly signed webhook request of one gateway, its signed timestamp
// being at.
type delivery func(t *testing.T, id string, at time.Time) (body []byte, headers []string)

// stripeScheme signs Stripe-shaped events in Stripe's scheme under header.
func stripeScheme(header, secret string) delivery {
	return func(t *testing.T, id string, at time.Time) ([]byte, []string) {
		raw, sig := signed(t, stripeEvent(id, "customer.created", map[string]any{"id": "cus_1", "object": "customer"}), secret, at)
		return raw, []string{header, sig}
	}
}

// payPal enables the paypal gateway against a stand-in of PayPal that verifies every
// signature it is asked about: what refuses a delivery here is the service's own check
// of the signed PAYPAL-TRANSMISSION-TIME.
func payPal(t *testing.T) (ports.Gateway, delivery) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/v1/oauth2/token":
			_, _ = w.Write([]byte(`{"access_token":"tok","token_type":"Bearer","expires_in":32400}`))
		case "/v1/notifications/verify-webhook-signature":
			_, _ = w.Write([]byte(`{"verification_status":"SUCCESS"}`))
		default:
			w.WriteHeader(http.StatusNotFound)
		}
	}))
	t.Cleanup(srv.Close)
	g := paypal.New(paypal.Config{ClientID: "client", Secret: "secret", WebhookID: "WH-1", BaseURL: srv.URL})
	return g, func(t *testing.T, id string, at time.Time) ([]byte, []string) {
		body := []byte(fmt.Sprintf(`{"id":%q,"event_type":"CUSTOMER.DISPUTE.CREATED","resource":{"id":"PP-D-1"}}`, id))
		return body, []string{
			paypal.HeaderTransmissionID, "tx-" + id, paypal.HeaderTransmissionTime, at.UTC().Format(time.RFC3339),
			paypal.HeaderTransmissionSig, "c2ln", paypal.HeaderCertURL, srv.URL + "/certs/CERT-1", paypal.HeaderAuthAlgo, "SHA256withRSA",
		}
	}
}

// aliPay enables the alipay gateway; notifications are forms signed with Alipay's key,
// notify_time in Beijing time.
func aliPay(t *testing.T) (ports.Gateway, delivery) {
	merchant, platform := gatewaytest.RSAKey(t), gatewaytest.RSAKey(t)
	g, err := alipay.New(alipay.Config{AppID: "2021000000000001", PrivateKeyPEM: gatewaytest.PrivatePEM(merchant),
		AlipayPublicKeyPEM: gatewaytest.PublicPEM(t, &platform.PublicKey), BaseURL: "http://127.0.0.1:1"})
	if err != nil {
		t.Fatal(err)
	}
	beijing := time.FixedZone("CST", 8*3600)
	return g, func(t *testing.T, id string, at time.Time) ([]byte, []string) {
		v := url.Values{"notify_id": {id}, "notify_type": {"trade_status_sync"}, "notify_time": {at.In(beijing).Format("2006-01-02 15:04:05")},
			"app_id": {"2021000000000001"}, "charset": {"utf-8"}, "version": {"1.0"}, "trade_no": {"2026112522001"},
			"out_trade_no": {"nobody"}, "trade_status": {"WAIT_BUYER_PAY"}, "total_amount": {"1.00"}}
		return gatewaytest.AlipayNotification(t, platform, v), []string{"Content-Type", "application/x-www-form-urlencoded"}
	}
}

// weChatPay enables the wechat_pay gateway; notifications carry an AES-256-GCM
// resource and Wechatpay-* headers signed with the platform key.
func weChatPay(t *testing.T) (ports.Gateway, delivery) {
	const apiV3Key = "0123456789abcdef0123456789abcdef"
	merchant, platform := gatewaytest.RSAKey(t), gatewaytest.RSAKey(t)
	g, err := wechatpay.New(wechatpay.Config{AppID: "wx1", MerchantID: "1900000001", PrivateKeyPEM: gatewaytest.PrivatePEM(merchant),
		PlatformPublicKeyPEM: gatewaytest.PublicPEM(t, &platform.PublicKey), APIv3Key: apiV3Key, SerialNo: "S1", BaseURL: "http://127.0.0.1:1"})
	if err != nil {
		t.Fatal(err)
	}
	return g, func(t *testing.T, id string, at time.Time) ([]byte, []string) {
		nonce := "fdasflkja484"
		resource := gatewaytest.Encrypt(t, apiV3Key, `{"out_trade_no":"nobody","trade_state":"NOTPAY"}`, nonce, "transaction")
		body, err := json.Marshal(map[string]any{"id": id, "create_time": at.Format(time.RFC3339), "resource_type": "encrypt-resource",
			"event_type": "TRANSACTION.CLOSED", "resource": map[string]any{"algorithm": "AEAD_AES_256_GCM", "ciphertext": resource,
				"associated_data": "transaction", "nonce": nonce, "original_type": "transaction"}})
		if err != nil {
			t.Fatal(err)
		}
		return body, gatewaytest.WeChatHeaders(platform, string(body), "NONCE-"+id, "PLATFORM-1", at)
	}
}

// TestWebhookTimestampTolerance: for every gateway, a correctly signed delivery whose
// signed timestamp is more than the 5-minute tolerance away from now, in the past or
// in the future, is 400 INVALID_SIGNATURE and stores nothing; within the tolerance,
// either way, it is accepted.
func TestWebhookTimestampTolerance(t *testing.T) {
	testdb.EachEngine(t, func(t *testing.T, engine string) {
		pp, ppDeliver := payPal(t)
		ali, aliDeliver := aliPay(t)
		wx, wxDeliver := weChatPay(t)
		s := newStack(t, engine, stackOptions{extra: []ports.Gateway{
			stripe.New(stripe.Config{APIKey: "sk_test_1", WebhookSecret: "whsec_stripe", BaseURL: "http://127.0.0.1:1"}), pp, ali, wx,
		}})
		gateways := []struct {
			id      string
			deliver delivery
		}{
			{"test", stripeScheme("Test-Signature", webhookSecret)},
			{"stripe", stripeScheme("Stripe-Signature", "whsec_stripe")},
			{"paypal", ppDeliver},
			{"alipay", aliDeliver},
			{"wechat_pay", wxDeliver},
		}
		const tolerance = 5 * time.Minute
		for _, g := range gateways {
			for _, c := range []struct {
				name   string
				offset time.Duration
				want   int
			}{
				{"future beyond the tolerance", tolerance + time.Minute, http.StatusBadRequest},
				{"past beyond the tolerance", -tolerance - time.Minute, http.StatusBadRequest},
				{"future within the tolerance", tolerance - time.Minute, http.StatusOK},
				{"past within the tolerance", -tolerance + time.Minute, http.StatusOK},
			} {
				id := fmt.Sprintf("evt_%s_%d", g.id, c.offset/time.Minute)
				body, headers := g.deliver(t, id, time.Now().Add(c.offset))
				got := s.do(http.MethodPost, "/api/v2/webhooks/"+g.id, "", body, headers...)
				if got.Code != c.want {
					t.Errorf("%s, %s: %d %s", g.id, c.name, got.Code, got.Raw)
					continue
				}
				if c.want == http.StatusBadRequest && (errCode(got) != "INVALID_SIGNATURE" || sub(got.Body, "error")["category"] != "validation") {
					t.Errorf("%s, %s: %s", g.id, c.name, got.Raw)
				}
				if c.want == http.StatusOK && got.Raw != `{"received":true}` {
					t.Errorf("%s, %s: %s", g.id, c.name, got.Raw)
				}
				stored := s.Count("payments_webhook_events", "gateway = ? AND provider_event_id = ?", g.id, id)
				if want := map[bool]int64{true: 1, false: 0}[c.want == http.StatusOK]; stored != want {
					t.Errorf("%s, %s: %d events stored, want %d", g.id, c.name, stored, want)
				}
			}
		}
	})
}

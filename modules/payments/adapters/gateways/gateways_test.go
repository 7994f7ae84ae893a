package gateways_test

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"strings"
	"testing"

	"github.com/gocommerce/commerce/modules/payments/adapters/gateways"
	"github.com/gocommerce/commerce/platform/config"
)

func TestFromConfig(t *testing.T) {
	t.Parallel()
	cfg := config.Default().Payment
	r, err := gateways.FromConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Enabled()) != 1 || r.Default() != "test" {
		t.Fatalf("default config: %d gateways, default %q", len(r.Enabled()), r.Default())
	}
	if _, ok := r.Get("stripe"); ok {
		t.Fatal("a disabled gateway is available")
	}

	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	priv := string(pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)}))
	der, _ := x509.MarshalPKIXPublicKey(&key.PublicKey)
	pub := string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}))
	cfg.Stripe.Enabled, cfg.PayPal.Enabled = true, true
	cfg.Alipay = config.Gateway{Enabled: true, AppID: "app", PrivateKey: priv, PublicKey: pub}
	cfg.WeChatPay = config.Gateway{Enabled: true, MerchantID: "m", PrivateKey: priv, PublicKey: pub, WebhookSecret: "0123456789abcdef0123456789abcdef"}
	r, err = gateways.FromConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, g := range r.Enabled() {
		ids = append(ids, g.ID())
	}
	if strings.Join(ids, ",") != "test,stripe,paypal,alipay,wechat_pay" {
		t.Fatalf("enabled %v", ids)
	}
	cfg.Alipay.PrivateKey = "not a key"
	cfg.WeChatPay.WebhookSecret = "short"
	_, err = gateways.FromConfig(cfg)
	if err == nil || !strings.Contains(err.Error(), "payment.alipay: private_key") || !strings.Contains(err.Error(), "payment.wechat_pay: webhook_secret") {
		t.Fatalf("bad keys: %v", err)
	}
}

// Package gatewaytest holds the checks and the provider-side signing the gateway
// adapters' tests and the module's webhook tests share (imported by tests only).
package gatewaytest

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"net/url"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/gocommerce/commerce/modules/payments/adapters/alipay"
	"github.com/gocommerce/commerce/modules/payments/adapters/wechatpay"
	"github.com/gocommerce/commerce/modules/payments/domain"
	"github.com/gocommerce/commerce/modules/payments/internal/rsakeys"
	"github.com/gocommerce/commerce/modules/payments/ports"
)

// Completer is a gateway's Complete.
type Completer interface {
	Complete(ctx context.Context, req ports.CompleteRequest) (ports.ChargeResult, error)
}

// State is a fake provider's trade state, read by its handler and set by the test.
type State struct {
	mu sync.Mutex
	v  string
}

// NewState is a state that starts as v.
func NewState(v string) *State { return &State{v: v} }

// Get is the state now.
func (s *State) Get() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.v
}

// Set changes the state.
func (s *State) Set(v string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.v = v
}

// AssertPaidOnQuery checks a payment the customer finishes at the provider: Complete
// answers requires_action until the fake provider's trade state becomes paid, then
// succeeded with the provider's reference.
func AssertPaidOnQuery(ctx context.Context, t testing.TB, g Completer, transactionID string, state *State, paid, reference string) {
	t.Helper()
	if r, err := g.Complete(ctx, ports.CompleteRequest{TransactionID: transactionID}); err != nil || r.Status != domain.StatusRequiresAction {
		t.Fatalf("query waiting: %+v %v", r, err)
	}
	state.Set(paid)
	if r, err := g.Complete(ctx, ports.CompleteRequest{TransactionID: transactionID}); err != nil || r.Status != domain.StatusSucceeded || r.ProviderReference != reference {
		t.Fatalf("query paid: %+v %v", r, err)
	}
}

// RSAKey is a fresh 2048-bit key (a merchant's or a provider's).
func RSAKey(t testing.TB) *rsa.PrivateKey {
	t.Helper()
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// PrivatePEM is k as PKCS#1 PEM.
func PrivatePEM(k *rsa.PrivateKey) string {
	return string(pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(k)}))
}

// PublicPEM is k as PKIX PEM.
func PublicPEM(t testing.TB, k *rsa.PublicKey) string {
	t.Helper()
	der, err := x509.MarshalPKIXPublicKey(k)
	if err != nil {
		t.Fatal(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}))
}

// Sign is msg's SHA256withRSA (PKCS#1 v1.5) signature in base64.
func Sign(k *rsa.PrivateKey, msg string) string {
	sig, _ := rsakeys.Sign(k, msg)
	return sig
}

// Verify checks msg's base64 SHA256withRSA signature with pub (what a fake provider
// does with a merchant's request).
func Verify(pub *rsa.PublicKey, msg, sig string) bool {
	return rsakeys.Verify(pub, msg, sig) == nil
}

// Encrypt is plain sealed with AES-256-GCM under key (WeChat Pay's APIv3 key) with
// nonce and the associated data aad, in base64: a notification resource's ciphertext.
func Encrypt(t testing.TB, key, plain, nonce, aad string) string {
	t.Helper()
	block, err := aes.NewCipher([]byte(key))
	if err != nil {
		t.Fatal(err)
	}
	gcm, err := cipher.NewGCMWithNonceSize(block, len(nonce))
	if err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(gcm.Seal(nil, []byte(nonce), []byte(plain), []byte(aad)))
}

// WeChatHeaders are the Wechatpay-* headers (name, value pairs) of an answer or a
// notification body signed with the platform key, the timestamp being at.
func WeChatHeaders(platform *rsa.PrivateKey, body, nonce, serial string, at time.Time) []string {
	ts := strconv.FormatInt(at.Unix(), 10)
	return []string{"Wechatpay-Timestamp", ts, "Wechatpay-Nonce", nonce, "Wechatpay-Serial", serial,
		"Wechatpay-Signature", Sign(platform, wechatpay.ResponseMessage(ts, nonce, body))}
}

// AlipayNotification is the form body of an asynchronous notification with params,
// signed with Alipay's key (sign over the sorted parameters, then sign_type RSA2).
func AlipayNotification(t testing.TB, key *rsa.PrivateKey, params url.Values) []byte {
	t.Helper()
	sig, err := alipay.Sign(key, alipay.SignContent(params, "sign", "sign_type"))
	if err != nil {
		t.Fatal(err)
	}
	params.Set("sign", sig)
	params.Set("sign_type", "RSA2")
	return []byte(params.Encode())
}

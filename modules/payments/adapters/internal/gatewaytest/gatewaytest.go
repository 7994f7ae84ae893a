// Package gatewaytest holds the checks the gateway adapters' tests share (imported by
// tests only).
package gatewaytest

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"testing"

	"github.com/gocommerce/commerce/modules/payments/adapters/internal/rsakeys"
	"github.com/gocommerce/commerce/modules/payments/domain"
	"github.com/gocommerce/commerce/modules/payments/ports"
)

// Completer is a gateway's Complete.
type Completer interface {
	Complete(ctx context.Context, req ports.CompleteRequest) (ports.ChargeResult, error)
}

// AssertPaidOnQuery checks a payment the customer finishes at the provider: Complete
// answers requires_action until paid marks the trade paid at the fake provider, then
// succeeded with the provider's reference.
func AssertPaidOnQuery(ctx context.Context, t testing.TB, g Completer, transactionID string, paid func(), reference string) {
	t.Helper()
	if r, err := g.Complete(ctx, ports.CompleteRequest{TransactionID: transactionID}); err != nil || r.Status != domain.StatusRequiresAction {
		t.Fatalf("query waiting: %+v %v", r, err)
	}
	paid()
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

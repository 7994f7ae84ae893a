// Package gatewaytest holds the checks the gateway adapters' tests share (imported by
// tests only).
package gatewaytest

import (
	"context"
	"testing"

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

// Package gatewaytest holds the checks the redirect gateways' tests share.
package gatewaytest

import (
	"context"
	"testing"

	"github.com/gocommerce/commerce/modules/payments/domain"
	"github.com/gocommerce/commerce/modules/payments/ports"
)

// Completer is the part of a gateway CompletesAfter drives.
type Completer interface {
	Complete(ctx context.Context, req ports.CompleteRequest) (ports.ChargeResult, error)
}

// CompletesAfter checks that completing transactionID still waits for the customer
// (requires_action) until pay runs, and then succeeds with the provider's reference.
func CompletesAfter(t *testing.T, g Completer, transactionID, reference string, pay func()) {
	t.Helper()
	ctx := context.Background()
	if r, err := g.Complete(ctx, ports.CompleteRequest{TransactionID: transactionID}); err != nil || r.Status != domain.StatusRequiresAction {
		t.Fatalf("complete before payment: %+v %v", r, err)
	}
	pay()
	if r, err := g.Complete(ctx, ports.CompleteRequest{TransactionID: transactionID}); err != nil || r.Status != domain.StatusSucceeded || r.ProviderReference != reference {
		t.Fatalf("complete after payment: %+v %v", r, err)
	}
}

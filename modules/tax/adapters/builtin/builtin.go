// Package builtin is the default tax provider (tax.provider "builtin"): the module's own
// engine on the rates the store keeps.
package builtin

import (
	"context"

	"github.com/gocommerce/commerce/modules/tax/api"
	"github.com/gocommerce/commerce/modules/tax/domain"
	"github.com/gocommerce/commerce/modules/tax/ports"
)

// Provider is the built-in engine.
type Provider struct{}

var _ ports.Provider = Provider{}

// New builds the provider.
func New() Provider { return Provider{} }

// Calculate runs domain.Calculate.
func (Provider) Calculate(_ context.Context, b *domain.Book, s domain.Settings, in domain.Input) (api.Result, error) {
	return domain.Calculate(b, s, in), nil
}

// Package identity owns credentials, staff users, JWTs, API keys and scopes.
package identity

import (
	"github.com/google/wire"

	"github.com/gocommerce/commerce/modules/identity/api"
	"github.com/gocommerce/commerce/platform/auth"
)

// Module is the identity module (stub until implemented).
type Module struct{}

// Name names the module.
func (m *Module) Name() string { return "identity" }

// NewModule builds the module.
func NewModule() *Module { return &Module{} }

// ProviderSet wires the module.
var ProviderSet = wire.NewSet(NewModule, provideIdentity, provideAuthenticator)

// stub providers, replaced by the real implementation.
func provideIdentity() api.Identity           { return nil }
func provideAuthenticator() auth.Authenticator { return nil }

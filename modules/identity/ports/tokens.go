package ports

import (
	"context"

	"github.com/gocommerce/commerce/modules/identity/domain"
)

// Tokens signs and verifies identity JWTs.
type Tokens interface {
	// Issue signs claims.
	Issue(c domain.Claims) (string, error)
	// Parse verifies signature, algorithm, issuer and expiry and returns the claims;
	// failures are domain.ErrTokenExpired or domain.ErrInvalidToken.
	Parse(token string) (domain.Claims, error)
}

// KeyInvalidations tells every process that an API key changed (revoked or deleted),
// so each drops it from its verification cache at once.
type KeyInvalidations interface {
	// Publish announces that the key with prefix changed.
	Publish(ctx context.Context, prefix string) error
	// Subscribe calls fn with each announced prefix (including this process's own)
	// until the returned stop function is called.
	Subscribe(fn func(prefix string)) (stop func(), err error)
}

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

// KeyInvalidations tells every process that a credential changed, so each stops
// accepting it at once: an API key revoked or deleted (the message is the key's
// prefix) or a customer's tokens revoked (domain.RevocationSignal).
type KeyInvalidations interface {
	// Publish announces a message: a key prefix or a revocation signal.
	Publish(ctx context.Context, msg string) error
	// Subscribe calls fn with each announced message (including this process's own)
	// until the returned stop function is called.
	Subscribe(fn func(msg string)) (stop func(), err error)
}

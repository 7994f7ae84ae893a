package ports

import (
	"context"
	"time"

	"github.com/gocommerce/commerce/modules/checkout/domain"
)

// Sessions stores checkout sessions, one per cart.
type Sessions interface {
	// Get returns the cart's session, or found false.
	Get(ctx context.Context, cartID string) (*domain.Session, bool, error)
	// ByPayment returns the session whose attempt has the payment, or found false.
	ByPayment(ctx context.Context, paymentID string) (*domain.Session, bool, error)
	// AwaitingPayments returns the sessions awaiting one of the payments (status
	// awaiting_payment), by payment id, in one read.
	AwaitingPayments(ctx context.Context, paymentIDs []string) (map[string]*domain.Session, error)
	// Create inserts a session unless the cart has one (then the stored one wins).
	Create(ctx context.Context, s *domain.Session) error
	// Save writes s if its version is the stored one (then increments it), answering
	// false when another writer saved first.
	Save(ctx context.Context, s *domain.Session) (bool, error)
	// SaveLater is Save for a write that may go out with the transaction's next
	// statement (on PostgreSQL, decision 0240): a version that is not the stored one
	// answers stale, or fails the transaction with stale when it is found out then.
	SaveLater(ctx context.Context, s *domain.Session, stale error) error
	// Claim writes s (processing, for its attempt) over its stored version in one
	// statement conditional on that version being open and unchanged (then increments
	// s.Version and the attempt count); false when another attempt or writer came first.
	Claim(ctx context.Context, s *domain.Session) (bool, error)
	// Lapsed returns sessions awaiting payment whose hold expired before now, and
	// sessions left processing since before stuck (an attempt cut short by a crash).
	Lapsed(ctx context.Context, now, stuck time.Time, limit int) ([]*domain.Session, error)
}

// Failure is the stored answer of an attempt that failed, replayed for its key.
type Failure struct {
	Kind    int
	Code    string
	Message string
	Extra   map[string]any
}

// Idempotency stores Idempotency-Key records: the key's cart and, once an attempt
// with the key failed, its answer.
type Idempotency interface {
	// Claim records the key for the cart unless it exists, and returns the stored
	// record: its cart and its failure, if any.
	Claim(ctx context.Context, key, cartID string, now time.Time) (string, *Failure, error)
	// Fail stores the key's failure.
	Fail(ctx context.Context, key string, f Failure) error
}

// Package ports declares what the webhooks module needs: its stores, the sender that
// makes the HTTP requests, and the resolver that checks a URL's addresses.
package ports

import (
	"context"
	"net/netip"
	"time"

	"github.com/gocommerce/commerce/modules/webhooks/domain"
)

// EndpointRepository stores endpoints.
type EndpointRepository interface {
	Create(ctx context.Context, e *domain.Endpoint) error
	Get(ctx context.Context, id string) (*domain.Endpoint, error)
	List(ctx context.Context, offset, limit int) ([]*domain.Endpoint, int64, error)
	// Enabled lists every enabled endpoint (the fan-out of an event).
	Enabled(ctx context.Context) ([]*domain.Endpoint, error)
	// Update writes the endpoint's mutable columns.
	Update(ctx context.Context, e *domain.Endpoint) error
	// Delete removes the endpoint with its deliveries and attempts.
	Delete(ctx context.Context, id string) error
	// Claim leases an enabled endpoint's delivery work to one worker until until (or
	// renews token's lease); false when another holds it, or the endpoint is gone or
	// disabled.
	Claim(ctx context.Context, id, token string, now, until time.Time) (bool, error)
	// RecordOutcome counts an attempt against the failure streak (a success resets
	// it); the failure that brings it to disableAfter (> 0) disables the endpoint,
	// which it then returns (nil otherwise).
	RecordOutcome(ctx context.Context, id string, ok bool, disableAfter int, now time.Time) (*domain.Endpoint, error)
	// Release ends the lease token holds.
	Release(ctx context.Context, id, token string) error
}

// DeliveryRepository stores deliveries and their attempts.
type DeliveryRepository interface {
	// Add inserts deliveries in one transaction, each unless its endpoint already has
	// one of the event (the bus delivers at least once) or is disabled by then (an
	// endpoint disabled concurrently fails the ones it lets in). A redelivery always is
	// inserted while its endpoint is enabled.
	Add(ctx context.Context, ds ...*domain.Delivery) error
	Get(ctx context.Context, endpointID, id string) (*domain.Delivery, error)
	// List pages an endpoint's deliveries, newest first, with their attempts.
	List(ctx context.Context, endpointID string, offset, limit int) ([]*domain.Delivery, map[string][]domain.Attempt, int64, error)
	// Due lists the endpoint's pending deliveries due at now, due first, at most limit.
	Due(ctx context.Context, endpointID string, now time.Time, limit int) ([]*domain.Delivery, error)
	// NextRetry is when the endpoint's next pending delivery falls due (nil: none).
	NextRetry(ctx context.Context, endpointID string) (*time.Time, error)
	// Record stores an attempt and the delivery's new state.
	Record(ctx context.Context, d *domain.Delivery, a domain.Attempt) error
	// FailPending fails an endpoint's pending deliveries (it was disabled).
	FailPending(ctx context.Context, endpointID, reason string, now time.Time) error
	// DueEndpoints lists endpoints with a delivery due at now (the sweep).
	DueEndpoints(ctx context.Context, now time.Time, limit int) ([]string, error)
}

// Request is one delivery request.
type Request struct {
	URL     string
	Body    []byte
	Headers map[string]string
}

// Response is what the sender got: a status and the start of the body, or an error.
type Response struct {
	StatusCode int
	Body       string
	Err        error
}

// Sender posts a delivery within its timeout, refusing addresses the policy forbids.
type Sender interface {
	Send(ctx context.Context, r Request) Response
}

// Resolver finds a host's addresses.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

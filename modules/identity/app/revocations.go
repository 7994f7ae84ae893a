package app

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/identity/domain"
	"github.com/gocommerce/commerce/modules/identity/ports"
	"github.com/gocommerce/commerce/platform/clock"
	"github.com/gocommerce/commerce/platform/tx"
)

// pollOverlap is how far before the previous poll each poll starts reading: a
// revocation's revoked_at is taken before its transaction commits, and processes'
// clocks differ a little (docs/decisions/0096).
const pollOverlap = time.Minute

// pruneEvery is how often entries past the longest token lifetime are dropped.
const pruneEvery = time.Minute

// signalTimeout bounds telling the other processes about a revocation.
const signalTimeout = 2 * time.Second

// Revocations is what this process knows of customer token revocations
// (docs/decisions/0096): for each revoked customer, the generation below which the
// customer's tokens (access and refresh) are refused. The authenticator asks it on every
// customer request, which costs a map lookup under a read lock and no database round
// trip. A process learns of a revocation
//
//   - at once when it makes it (after commit);
//   - from the channels that carry API key invalidations (Redis pub/sub; in the embedded
//     mode also the data directory's signal file): the message carries the generation;
//   - by polling the table every RevocationPollInterval (1 s) for the rows revoked since
//     the previous poll, which covers lost messages and deployments without Redis.
//
// An entry is dropped once every token it could refuse has expired (the longest token
// lifetime after the revocation).
type Revocations struct {
	repo     ports.TokenRevocationRepository
	tx       tx.Manager
	signals  ports.KeyInvalidations
	clock    clock.Clock
	log      *zap.Logger
	lifetime time.Duration

	mu   sync.RWMutex
	gens map[string]revocation
	n    atomic.Int64 // len(gens): the hot path skips the lock while nothing is revoked

	pollMu   sync.Mutex
	polledAt time.Time // start of the last successful poll; zero before the first
	prunedAt time.Time
}

type revocation struct {
	gen int64
	at  time.Time
}

// NewRevocations builds the (empty) list; the authenticator loads and refreshes it.
func NewRevocations(s Settings, repo ports.TokenRevocationRepository, tm tx.Manager, signals ports.KeyInvalidations, clk clock.Clock, log *zap.Logger) *Revocations {
	return &Revocations{
		repo: repo, tx: tm, signals: signals, clock: clk, log: log.Named("identity.revocations"),
		lifetime: s.TokenLifetime(), gens: map[string]revocation{},
	}
}

// Refused reports whether a customer token of generation gen is dead.
func (r *Revocations) Refused(customerID string, gen int64) bool {
	if r.n.Load() == 0 {
		return false
	}
	r.mu.RLock()
	e, ok := r.gens[customerID]
	r.mu.RUnlock()
	return ok && gen < e.gen
}

// Apply records a revocation this process heard of (a newer generation wins).
func (r *Revocations) Apply(rv domain.TokenRevocation) {
	r.mu.Lock()
	if e, ok := r.gens[rv.CustomerID]; !ok || e.gen < rv.Generation {
		r.gens[rv.CustomerID] = revocation{gen: rv.Generation, at: rv.RevokedAt}
	}
	r.n.Store(int64(len(r.gens)))
	r.mu.Unlock()
}

// Revoke kills every token issued to the customer so far. The generation is raised in
// ctx's transaction; once that commits, this process refuses the old tokens at once and
// every other process is told (a failed broadcast is logged: the others then notice at
// their next poll).
func (r *Revocations) Revoke(ctx context.Context, customerID string) error {
	rv, err := r.repo.Revoke(ctx, customerID, r.clock.Now())
	if err != nil {
		return err
	}
	r.tx.AfterCommit(ctx, func() {
		r.Apply(rv)
		sctx, cancel := context.WithTimeout(context.Background(), signalTimeout)
		defer cancel()
		if err := r.signals.Publish(sctx, domain.RevocationSignal(rv.CustomerID, rv.Generation)); err != nil {
			r.log.Warn("token revocation broadcast failed; other processes notice at their next poll",
				zap.String("customer_id", rv.CustomerID), zap.Error(err))
		}
	})
	return nil
}

// Generation reads the customer's current generation from the database: the one new
// tokens are issued in, and the one a refresh token must have.
func (r *Revocations) Generation(ctx context.Context, customerID string) (int64, error) {
	return r.repo.Generation(ctx, customerID)
}

// Poll reads the revocations made since the previous poll (the first poll reads those
// of the longest token lifetime) and drops the entries no token can need any more.
func (r *Revocations) Poll(ctx context.Context) error {
	r.pollMu.Lock()
	defer r.pollMu.Unlock()
	now := r.clock.Now()
	from := now.Add(-r.lifetime)
	if !r.polledAt.IsZero() {
		if f := r.polledAt.Add(-pollOverlap); f.After(from) {
			from = f
		}
	}
	rows, err := r.repo.Since(ctx, from)
	if err != nil {
		return err
	}
	for _, rv := range rows {
		r.Apply(rv)
	}
	r.polledAt = now
	if now.Sub(r.prunedAt) >= pruneEvery {
		r.prune(now.Add(-r.lifetime))
		r.prunedAt = now
	}
	return nil
}

// prune drops the revocations made before cutoff: the tokens they refuse have expired.
func (r *Revocations) prune(cutoff time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for id, e := range r.gens {
		if e.at.Before(cutoff) {
			delete(r.gens, id)
		}
	}
	r.n.Store(int64(len(r.gens)))
}

// Len is the number of customers whose revocation this process holds (tests, metrics).
func (r *Revocations) Len() int { return int(r.n.Load()) }

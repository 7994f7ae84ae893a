package app

import (
	"context"
	"slices"
	"strings"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/inventory/ports"
	"github.com/gocommerce/commerce/platform/apperr"
)

// The background catalog sync of reservations (docs/decisions/0229): a reservation
// does not report the variants' totals to the catalog in its transaction; once it has
// committed, its variants are queued and one goroutine reports every queued variant's
// total in its own transaction, a batch at a time (after Settings.CatalogSyncDelay, so
// that the reservations of concurrent checkouts share one), so the catalog's
// inventory_quantity follows within a moment. A failed batch is retried (a few
// attempts, with a pause); a batch the catalog refuses for good (a stock limit, a
// product deleted meanwhile) is retried variant by variant, and what still fails is
// logged. A sync lost anyway (failed after its attempts, or a process stopped before
// it ran) is covered by the periodic sweep (ReconcileCatalog), which reports again the
// totals of every variant reserved since its previous run; and the next stock change
// of a variant reports its total again in any case.
const (
	// syncTimeout bounds one batch's transaction.
	syncTimeout = 10 * time.Second
	// syncAttempts is how many times a batch is tried.
	syncAttempts = 4
	// syncBatch is the most variants one transaction reports. Its transaction holds
	// the products' stock locks while the catalog writes their totals and events:
	// 25 keeps that to a few milliseconds (500 held them up to 100 ms, in the way of
	// the checkouts reserving one of them; decision 0239).
	syncBatch = 25
)

// syncPause is the pause before the next attempt (attempt × syncPause).
var syncPause = 200 * time.Millisecond

// catalogSync is the queue of variants whose totals the catalog is still to learn.
type catalogSync struct {
	mu      sync.Mutex
	pending map[string]ports.Variant // by variant id
	running bool
	// idle is closed when the running goroutine has emptied the queue and stopped.
	idle chan struct{}
	// reconciled is when the last ReconcileCatalog that ran to its end started (zero:
	// none yet).
	reconciled time.Time
}

// syncLater queues the variants' totals for the catalog, to be reported once the
// transaction carried by ctx has committed (at once when there is none).
func (s *Service) syncLater(ctx context.Context, vs []ports.Variant) {
	vs = slices.Clone(vs)
	s.tx.AfterCommit(ctx, func() { s.enqueueSync(vs) })
}

func (s *Service) enqueueSync(vs []ports.Variant) {
	q := &s.sync
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.pending == nil {
		q.pending = map[string]ports.Variant{}
	}
	for _, v := range vs {
		q.pending[v.VariantID] = v
	}
	if !q.running && len(q.pending) > 0 {
		q.running, q.idle = true, make(chan struct{})
		go s.runSync()
	}
}

// Sweep windows of ReconcileCatalog.
const (
	// reconcileFirst is how far back a process's first sweep looks.
	reconcileFirst = time.Hour
	// reconcileOverlap is how far before its previous run a sweep looks again (a
	// reservation's transaction may commit after the previous sweep read).
	reconcileOverlap = time.Minute
)

// ReconcileCatalog reports to the catalog the totals of the variants reserved since
// the previous run (less an overlap; the last hour at a process's first run), a batch
// per transaction, products locked as a stock change locks them. It returns how many
// variants it reported. The periodic task inventory:catalog_sync calls it.
func (s *Service) ReconcileCatalog(ctx context.Context) (int, error) {
	now := s.clock.Now()
	s.sync.mu.Lock()
	since := s.sync.reconciled.Add(-reconcileOverlap)
	if s.sync.reconciled.IsZero() {
		since = now.Add(-reconcileFirst)
	}
	s.sync.mu.Unlock()
	vs, err := s.repos.Reservations.ReservedSince(ctx, since)
	if err != nil {
		return 0, err
	}
	slices.SortFunc(vs, compareVariants)
	n := 0
	for len(vs) > 0 {
		batch := vs[:min(len(vs), syncBatch)]
		vs = vs[len(batch):]
		err := s.tx.InTx(ctx, func(ctx context.Context) error {
			if err := s.repos.Levels.LockProducts(ctx, productIDs(batch)); err != nil {
				return err
			}
			return s.reportVariantTotals(ctx, batch)
		})
		if err != nil && retryable(err) {
			return n, err
		}
		if err != nil { // refused for good: variant by variant
			s.syncBatch(batch)
		}
		n += len(batch)
	}
	s.sync.mu.Lock()
	s.sync.reconciled = now
	s.sync.mu.Unlock()
	return n, nil
}

func compareVariants(a, b ports.Variant) int {
	if c := strings.Compare(a.ProductID, b.ProductID); c != 0 {
		return c
	}
	return strings.Compare(a.VariantID, b.VariantID)
}

// WaitCatalogSync waits until every queued catalog sync has run (tests).
func (s *Service) WaitCatalogSync() {
	for {
		s.sync.mu.Lock()
		running, idle := s.sync.running, s.sync.idle
		s.sync.mu.Unlock()
		if !running {
			return
		}
		<-idle
	}
}

// DrainCatalogSync waits for the queued catalog syncs at shutdown, at most d: false
// when some were still running (they are logged as they fail).
func (s *Service) DrainCatalogSync(d time.Duration) bool {
	done := make(chan struct{})
	go func() { s.WaitCatalogSync(); close(done) }()
	select {
	case <-done:
		return true
	case <-time.After(d):
		s.log.Warn("shutdown: catalog stock sync still running")
		return false
	}
}

// runSync reports the queued variants until the queue is empty.
func (s *Service) runSync() {
	q := &s.sync
	for {
		if d := s.settings.CatalogSyncDelay; d > 0 {
			time.Sleep(d)
		}
		q.mu.Lock()
		if len(q.pending) == 0 {
			q.running = false
			close(q.idle)
			q.mu.Unlock()
			return
		}
		// Everything gathered during the delay is reported now, a batch at a time:
		// small batches keep each transaction's product locks short (a checkout's
		// reservation that needs one of them waits for the whole transaction).
		round := make([]ports.Variant, 0, len(q.pending))
		for _, v := range q.pending {
			round = append(round, v)
		}
		clear(q.pending)
		q.mu.Unlock()
		slices.SortFunc(round, compareVariants)
		for batch := range slices.Chunk(round, syncBatch) {
			s.syncBatch(batch)
		}
	}
}

// syncBatch reports a batch with retries; a batch refused for good is reported
// variant by variant. A panic is logged (the sweep makes the batch good), not raised:
// no request is there to recover it.
func (s *Service) syncBatch(batch []ports.Variant) {
	defer func() {
		if r := recover(); r != nil {
			s.log.Error("catalog stock sync panicked", zap.Any("panic", r), zap.Int("variants", len(batch)))
		}
	}()
	err := s.syncAttempts(batch)
	if err == nil {
		return
	}
	if !retryable(err) && len(batch) > 1 {
		for _, v := range batch {
			if err := s.syncAttempts([]ports.Variant{v}); err != nil {
				s.log.Error("catalog stock total not reported", zap.String("product_id", v.ProductID), zap.String("variant_id", v.VariantID), zap.Error(err))
			}
		}
		return
	}
	for _, v := range batch {
		s.log.Error("catalog stock total not reported", zap.String("product_id", v.ProductID), zap.String("variant_id", v.VariantID), zap.Error(err))
	}
}

// syncAttempts reports the batch's totals in a transaction of its own, trying again
// after a transient failure.
func (s *Service) syncAttempts(batch []ports.Variant) error {
	var err error
	for attempt := 1; attempt <= syncAttempts; attempt++ {
		ctx, cancel := context.WithTimeout(context.Background(), syncTimeout)
		err = s.tx.InTx(ctx, func(ctx context.Context) error {
			// The products' stock records are locked first, as every stock change
			// locks them: the totals read cannot be overtaken by a change that
			// reports its own before this report is written.
			if err := s.repos.Levels.LockProducts(ctx, productIDs(batch)); err != nil {
				return err
			}
			return s.reportVariantTotals(ctx, batch)
		})
		cancel()
		if err == nil || !retryable(err) {
			return err
		}
		if attempt < syncAttempts {
			s.log.Warn("catalog stock sync failed, trying again", zap.Int("attempt", attempt), zap.Int("variants", len(batch)), zap.Error(err))
			time.Sleep(time.Duration(attempt) * syncPause)
		}
	}
	return err
}

// productIDs lists the variants' products once each, in id order (the lock order).
func productIDs(vs []ports.Variant) []string {
	out := make([]string, 0, len(vs))
	for _, v := range vs {
		out = append(out, v.ProductID)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// retryable tells a transient failure (the database) from a refusal (an application
// error other than internal or unavailable).
func retryable(err error) bool {
	e, ok := apperr.As(err)
	return !ok || e.Kind == apperr.Internal || e.Kind == apperr.Unavailable
}

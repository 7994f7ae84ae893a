package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/webhooks/api"
	"github.com/gocommerce/commerce/modules/webhooks/domain"
	"github.com/gocommerce/commerce/modules/webhooks/ports"
	"github.com/gocommerce/commerce/platform/event"
)

// body is a delivery's JSON body (CONTRACT §5).
type body struct {
	ID        string          `json:"id"`
	Type      string          `json:"type"`
	CreatedAt time.Time       `json:"created_at"`
	Data      json.RawMessage `json:"data"`
}

// HandleEvent turns a committed event into one delivery per enabled endpoint
// subscribed to its type, then queues each endpoint's delivery task. It only writes
// rows: no request is made on the relay's time. The bus delivers at least once; an
// endpoint gets one delivery per event id.
func (s *Service) HandleEvent(ctx context.Context, ev event.Event) error {
	eps, err := s.enabled(ctx)
	if err != nil {
		return err
	}
	var wanted []*domain.Endpoint
	for _, e := range eps {
		// An endpoint receives the events of its types committed after its creation
		// (not older ones the relay happens to deliver later, or re-opens).
		if e.Wants(ev.Type) && !ev.CreatedAt.Before(e.CreatedAt.Add(-time.Second)) {
			wanted = append(wanted, e)
		}
	}
	if len(wanted) == 0 {
		return nil
	}
	data := ev.Data
	if len(data) == 0 {
		data = json.RawMessage("null")
	}
	payload, err := json.Marshal(body{ID: ev.ID, Type: ev.Type, CreatedAt: ev.CreatedAt.UTC(), Data: data})
	if err != nil {
		return fmt.Errorf("webhooks: event %s: %w", ev.ID, err)
	}
	// One statement (its own transaction): a delivery per endpoint, those the endpoint
	// already has (the event delivered again) skipped.
	now := s.clock.Now()
	ds := make([]*domain.Delivery, len(wanted))
	for i, e := range wanted {
		ds[i] = &domain.Delivery{ID: s.newID(), EndpointID: e.ID, EventID: ev.ID, EventType: ev.Type, Payload: payload,
			Status: domain.StatusPending, NextAttemptAt: &now, CreatedAt: now, UpdatedAt: now}
	}
	if err := s.deliveries.Add(ctx, ds...); err != nil {
		return err
	}
	// A task for an endpoint with nothing due (a skipped duplicate) finds nothing to do.
	for _, e := range wanted {
		s.enqueue(ctx, e.ID, 0, "")
	}
	return nil
}

// routesTTL is how long HandleEvent routes events by the enabled endpoints it read
// (decision 0191): this process's own changes drop them at once; another process's
// (the API's, when workers relay) are seen within it.
const routesTTL = time.Second

// routes is a snapshot of the enabled endpoints.
type routes struct {
	list []*domain.Endpoint
	at   time.Time // the process's clock (monotonic), not the business clock
}

// enabled returns the enabled endpoints, from the snapshot while it is fresh: every
// event would otherwise read them, including the many no endpoint wants.
func (s *Service) enabled(ctx context.Context) ([]*domain.Endpoint, error) {
	if r := s.routes.Load(); r != nil && time.Since(r.at) < routesTTL {
		return r.list, nil
	}
	gen := s.routesGen.Load()
	at := time.Now()
	list, err := s.endpoints.Enabled(ctx)
	if err != nil {
		return nil, err
	}
	if s.routesGen.Load() == gen { // no change of ours while reading
		s.routes.Store(&routes{list: list, at: at})
	}
	return list, nil
}

// Wants reports, from memory, whether an enabled endpoint is subscribed to events of
// the type (the outbox's routing, decision 0234): by the routing snapshot while it is
// fresh; otherwise true, and the snapshot is read again in the background, so a
// publish never waits for the database. Another process's endpoint changes are seen
// within routesTTL, as HandleEvent's routing sees them (decision 0191).
func (s *Service) Wants(eventType string) bool {
	r := s.routes.Load()
	if r == nil || time.Since(r.at) >= routesTTL {
		s.refreshRoutes()
		return true
	}
	for _, e := range r.list {
		if e.Wants(eventType) {
			return true
		}
	}
	return false
}

// refreshRoutes reads the enabled endpoints in the background, one read at a time.
func (s *Service) refreshRoutes() {
	if !s.refreshing.CompareAndSwap(false, true) {
		return
	}
	go func() {
		defer s.refreshing.Store(false)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if _, err := s.enabled(ctx); err != nil {
			s.log.Warn("webhook endpoints not read for routing", zap.Error(err))
		}
	}()
}

// endpointsChanged drops the routing snapshot (after an endpoint's change commits).
func (s *Service) endpointsChanged() {
	s.routesGen.Add(1)
	s.routes.Store(nil)
}

// ListDeliveries pages an endpoint's deliveries, newest first, each with its attempts.
func (s *Service) ListDeliveries(ctx context.Context, endpointID string, offset, limit int) ([]api.Delivery, int64, error) {
	if _, err := s.endpoints.Get(ctx, endpointID); err != nil {
		return nil, 0, err
	}
	list, attempts, total, err := s.deliveries.List(ctx, endpointID, offset, limit)
	if err != nil {
		return nil, 0, err
	}
	out := make([]api.Delivery, len(list))
	for i, d := range list {
		out[i] = ToDelivery(d, attempts[d.ID])
	}
	return out, total, nil
}

// Redeliver sends a delivery's event to its endpoint again: a new delivery with the
// same event id and body (a receiver de-duplicating by event id sees it once),
// attempted and retried like any other. A disabled endpoint must be enabled first.
func (s *Service) Redeliver(ctx context.Context, endpointID, deliveryID string) (api.Delivery, error) {
	var d *domain.Delivery
	err := s.tx.InTx(ctx, func(ctx context.Context) error {
		e, err := s.endpoints.Get(ctx, endpointID)
		if err != nil {
			return err
		}
		if !e.Enabled {
			return domain.ErrEndpointDisabled
		}
		orig, err := s.deliveries.Get(ctx, endpointID, deliveryID)
		if err != nil {
			return err
		}
		now := s.clock.Now()
		d = &domain.Delivery{ID: s.newID(), EndpointID: e.ID, EventID: orig.EventID, EventType: orig.EventType, Payload: orig.Payload,
			Status: domain.StatusPending, NextAttemptAt: &now, RedeliveryOf: orig.ID, CreatedAt: now, UpdatedAt: now}
		return s.deliveries.Add(ctx, d)
	})
	if err != nil {
		return api.Delivery{}, err
	}
	s.enqueue(ctx, endpointID, 0, "")
	return ToDelivery(d, nil), nil
}

// Sweep queues the delivery task of every endpoint with a due delivery (a task lost
// with a process, or a retry whose delayed task is gone) and answers how many.
func (s *Service) Sweep(ctx context.Context) (int64, error) {
	due, err := s.deliveries.DueEndpoints(ctx, s.clock.Now(), 1000)
	for _, id := range due {
		s.enqueue(ctx, id, 0, TaskSweep+":"+id)
	}
	return int64(len(due)), err
}

// DeliverEndpoint is the endpoint's delivery task: under the endpoint's lease, it sends
// its due deliveries, at most Concurrency at a time (one endpoint never holds more than
// one worker, so a slow or dead one delays only itself), for at most its budget, then
// queues itself again for what is left or the earliest retry. Another task holding the
// lease makes this one a no-op; after releasing, a delivery that fell due meanwhile is
// taken too.
func (s *Service) DeliverEndpoint(ctx context.Context, endpointID string) error {
	start := time.Now()
	for {
		token := s.newID()
		now := s.clock.Now()
		ok, err := s.endpoints.Claim(ctx, endpointID, token, now, now.Add(s.lease()))
		if err != nil || !ok {
			return err
		}
		err = s.drain(ctx, endpointID, token, start)
		if rerr := s.endpoints.Release(context.WithoutCancel(ctx), endpointID, token); rerr != nil {
			err = errors.Join(err, rerr)
		}
		if err != nil {
			return err
		}
		due, err := s.deliveries.Due(ctx, endpointID, s.clock.Now(), 1)
		if err != nil {
			return err
		}
		if len(due) == 0 || time.Since(start) > s.budget() {
			break
		}
	}
	next, err := s.deliveries.NextRetry(ctx, endpointID)
	if err != nil || next == nil {
		return err
	}
	delay := max(next.Sub(s.clock.Now()), 0)
	s.enqueue(ctx, endpointID, delay, TaskDeliver+":"+endpointID+":"+strconv.FormatInt(next.UnixNano(), 10))
	return nil
}

// budget is how long one run of an endpoint's task keeps starting requests before it
// queues itself again, so a busy or dead endpoint takes its turn with the others and a
// stopping worker is not held long.
func (s *Service) budget() time.Duration { return max(2*s.settings.Timeout, 5*time.Second) }

// drain sends the endpoint's due deliveries, up to Concurrency at a time, while the
// lease holds and the run's budget lasts. Attempts cut short by the worker stopping
// are not recorded: the deliveries stay due for the next run.
func (s *Service) drain(ctx context.Context, endpointID, token string, start time.Time) error {
	leased := time.Time{}
	for ctx.Err() == nil && time.Since(start) <= s.budget() {
		e, err := s.endpoints.Get(ctx, endpointID)
		if errors.Is(err, domain.ErrEndpointNotFound) {
			return nil
		}
		if err != nil || !e.Enabled {
			return err
		}
		now := s.clock.Now()
		due, err := s.deliveries.Due(ctx, endpointID, now, 4*s.settings.Concurrency)
		if err != nil || len(due) == 0 {
			return err
		}
		// Renew the lease when what is left of it may not cover this batch; lost (taken
		// over, or the endpoint disabled): stop.
		if time.Until(leased) < time.Duration(len(due)/s.settings.Concurrency+1)*s.settings.Timeout+5*time.Second {
			ok, err := s.endpoints.Claim(ctx, endpointID, token, now, now.Add(s.lease()))
			if err != nil || !ok {
				return err
			}
			leased = time.Now().Add(s.lease())
		}
		if err := s.sendAll(ctx, e, due); err != nil {
			return err
		}
	}
	return nil
}

// sendAll attempts the deliveries, Concurrency at a time, and records each outcome.
func (s *Service) sendAll(ctx context.Context, e *domain.Endpoint, due []*domain.Delivery) error {
	sem := make(chan struct{}, s.settings.Concurrency)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var errs []error
	var stop atomic.Bool // the endpoint was disabled: send nothing more
	for _, d := range due {
		sem <- struct{}{}
		if stop.Load() {
			<-sem
			break
		}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			a := s.attempt(ctx, e, d)
			if ctx.Err() != nil {
				return // the worker is stopping: not the endpoint's failure
			}
			disabled, err := s.record(ctx, d, a)
			if disabled {
				stop.Store(true)
			}
			if err != nil {
				mu.Lock()
				errs = append(errs, err)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}

// attempt sends one request of the delivery and measures it.
func (s *Service) attempt(ctx context.Context, e *domain.Endpoint, d *domain.Delivery) domain.Attempt {
	now := s.clock.Now()
	a := domain.Attempt{ID: s.newID(), DeliveryID: d.ID, EndpointID: e.ID, Number: d.Attempts + 1, CreatedAt: now}
	if msg := s.policy.CheckScheme(e.URL); msg != "" {
		a.Error = "url " + msg
		return a
	}
	req := ports.Request{URL: e.URL, Body: d.Payload, Headers: map[string]string{
		"Content-Type": "application/json", "User-Agent": "Commerce-Webhooks/1.0",
		domain.SignatureHeader: domain.Sign(e.Secret, time.Now(), d.Payload),
		"X-Commerce-Event-Id":  d.EventID, "X-Commerce-Event-Type": d.EventType,
		"X-Commerce-Delivery-Id": d.ID, "X-Commerce-Attempt": strconv.Itoa(a.Number),
	}}
	ctx, cancel := context.WithTimeout(ctx, s.settings.Timeout)
	defer cancel()
	start := time.Now()
	res := s.sender.Send(ctx, req)
	a.Duration = time.Since(start)
	a.StatusCode, a.ResponseBody = res.StatusCode, res.Body
	if res.Err != nil {
		a.Error = res.Err.Error()
	}
	return a
}

// record counts the attempt against the endpoint's failure streak, stores it and the
// delivery's new state, and disables the endpoint (failing its pending deliveries and
// publishing webhook_endpoint.disabled) when the streak reaches the limit. It reports
// whether the endpoint is disabled. The endpoint row is written first, so concurrent
// records of one endpoint lock in the same order (no deadlock on PostgreSQL).
func (s *Service) record(ctx context.Context, d *domain.Delivery, a domain.Attempt) (disabled bool, err error) {
	err = s.tx.InTx(ctx, func(ctx context.Context) error {
		disabled = false
		now := s.clock.Now()
		off, err := s.endpoints.RecordOutcome(ctx, d.EndpointID, a.Succeeded(), s.settings.DisableAfter, now)
		if err != nil {
			return err
		}
		d.Record(a, s.settings.Retry, now)
		if err := s.deliveries.Record(ctx, d, a); err != nil {
			return err
		}
		if off == nil {
			if d.Status != domain.StatusPending {
				return nil
			}
			// An attempt in flight when another disabled the endpoint: fail it too.
			e, err := s.endpoints.Get(ctx, d.EndpointID)
			if err != nil || e.Enabled {
				return err
			}
			disabled = true
			return s.deliveries.FailPending(ctx, e.ID, "endpoint disabled", now)
		}
		disabled = true
		s.log.Warn("webhook endpoint disabled", zap.String("endpoint_id", off.ID), zap.Int("failures", off.FailureStreak))
		if err := s.deliveries.FailPending(ctx, off.ID, "endpoint disabled", now); err != nil {
			return err
		}
		return s.publishDisabled(ctx, off)
	})
	if disabled && err == nil {
		s.endpointsChanged()
	}
	return disabled, err
}

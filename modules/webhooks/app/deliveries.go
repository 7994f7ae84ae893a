package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
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
	eps, err := s.endpoints.Enabled(ctx)
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
	var added []string
	err = s.tx.InTx(ctx, func(ctx context.Context) error {
		added = added[:0]
		now := s.clock.Now()
		for _, e := range wanted {
			d := &domain.Delivery{ID: s.newID(), EndpointID: e.ID, EventID: ev.ID, EventType: ev.Type, Payload: payload,
				Status: domain.StatusPending, NextAttemptAt: &now, CreatedAt: now, UpdatedAt: now}
			ok, err := s.deliveries.Add(ctx, d)
			if err != nil {
				return err
			}
			if ok {
				added = append(added, e.ID)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, id := range added {
		s.enqueue(ctx, id, 0, "")
	}
	return nil
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
		_, err = s.deliveries.Add(ctx, d)
		return err
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
// its due deliveries one after the other (one endpoint never holds more than one
// worker, so a slow or dead one delays only itself), then queues itself again for the
// earliest retry. Another task holding the lease makes this one a no-op; after
// releasing, a delivery that fell due meanwhile is taken too.
func (s *Service) DeliverEndpoint(ctx context.Context, endpointID string) error {
	for {
		token := s.newID()
		now := s.clock.Now()
		ok, err := s.endpoints.Claim(ctx, endpointID, token, now, now.Add(s.lease()))
		if err != nil || !ok {
			return err
		}
		err = s.drain(ctx, endpointID, token)
		if rerr := s.endpoints.Release(context.WithoutCancel(ctx), endpointID, token); rerr != nil {
			err = errors.Join(err, rerr)
		}
		if err != nil {
			return err
		}
		d, err := s.deliveries.NextDue(ctx, endpointID, s.clock.Now())
		if err != nil {
			return err
		}
		if d == nil {
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

// drain sends the endpoint's due deliveries while the lease holds.
func (s *Service) drain(ctx context.Context, endpointID, token string) error {
	for ctx.Err() == nil {
		e, err := s.endpoints.Get(ctx, endpointID)
		if errors.Is(err, domain.ErrEndpointNotFound) {
			return nil
		}
		if err != nil || !e.Enabled {
			return err
		}
		now := s.clock.Now()
		d, err := s.deliveries.NextDue(ctx, endpointID, now)
		if err != nil || d == nil {
			return err
		}
		// Renew the lease for this attempt; lost (taken over): stop.
		if ok, err := s.endpoints.Claim(ctx, endpointID, token, now, now.Add(s.lease())); err != nil || !ok {
			return err
		}
		a := s.attempt(ctx, e, d)
		if err := s.record(ctx, d, a); err != nil {
			return err
		}
	}
	return nil
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

// record stores the attempt and the delivery's new state, counts it against the
// endpoint's failure streak, and disables the endpoint (failing its pending deliveries
// and publishing webhook_endpoint.disabled) when the streak reaches the limit.
func (s *Service) record(ctx context.Context, d *domain.Delivery, a domain.Attempt) error {
	return s.tx.InTx(ctx, func(ctx context.Context) error {
		now := s.clock.Now()
		d.Record(a, s.settings.Retry, now)
		if err := s.deliveries.Record(ctx, d, a); err != nil {
			return err
		}
		disabled, err := s.endpoints.RecordOutcome(ctx, d.EndpointID, a.Succeeded(), s.settings.DisableAfter, now)
		if err != nil || disabled == nil {
			return err
		}
		s.log.Warn("webhook endpoint disabled", zap.String("endpoint_id", disabled.ID), zap.Int("failures", disabled.FailureStreak))
		if err := s.deliveries.FailPending(ctx, disabled.ID, "endpoint disabled", now); err != nil {
			return err
		}
		return s.publishDisabled(ctx, disabled)
	})
}

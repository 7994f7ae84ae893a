package app

import (
	"context"
	"errors"
	"time"

	"github.com/gocommerce/commerce/modules/shipping/api"
	"github.com/gocommerce/commerce/modules/shipping/domain"
	"github.com/gocommerce/commerce/modules/shipping/ports"
)

func utc(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

// statusEvents names the event each status change publishes.
var statusEvents = map[domain.Status]string{
	domain.StatusLabelCreated:   api.EventShipmentLabelCreated,
	domain.StatusInTransit:      api.EventShipmentInTransit,
	domain.StatusOutForDelivery: api.EventShipmentOutForDelivery,
	domain.StatusDelivered:      api.EventShipmentDelivered,
	domain.StatusException:      api.EventShipmentException,
	domain.StatusCancelled:      api.EventShipmentCancelled,
}

// TrackingUpdate is a carrier's report about one tracking number (webhook or poll).
type TrackingUpdate struct {
	Carrier        string
	TrackingNumber string
	Events         []domain.TrackingEvent
}

// ApplyTracking records a carrier's events for the shipment with that tracking number
// and moves its status when the newest event allows it, publishing shipment.<status>,
// all in one transaction (retried once when the shipment changed meanwhile). Known
// events are ignored, so a webhook and the sweep may report the same scan.
func (s *Service) ApplyTracking(ctx context.Context, u TrackingUpdate) (api.Shipment, error) {
	var out api.Shipment
	var err error
	for range 3 {
		err = s.tx.InTx(ctx, func(ctx context.Context) error {
			sh, err := s.repo.GetByTracking(ctx, u.Carrier, u.TrackingNumber)
			if err != nil {
				return err
			}
			if err := s.apply(ctx, sh, u.Events, nil); err != nil {
				return err
			}
			out = ToResource(sh)
			return nil
		})
		if !errors.Is(err, ports.ErrVersion) {
			break
		}
	}
	return out, err
}

// PushTracking applies an update a carrier pushed in its own format; a carrier without
// one (or in table mode) is INVALID_CARRIER.
func (s *Service) PushTracking(ctx context.Context, carrier string, body []byte) (api.Shipment, error) {
	c, ok := s.carriers.get(carrier)
	p, native := c.(ports.TrackingPush)
	if !ok || !native {
		return api.Shipment{}, domain.ErrInvalidCarrier.WithMessage("%s pushes no native tracking updates here", carrier)
	}
	number, events, err := p.ParsePush(body)
	if err != nil {
		return api.Shipment{}, err
	}
	for i := range events {
		events[i].Source = "webhook"
	}
	return s.ApplyTracking(ctx, TrackingUpdate{Carrier: carrier, TrackingNumber: number, Events: events})
}

// apply stores new events, runs the status machine over the whole history and writes
// the shipment (with next, the next poll, when not nil; a zero next stops polling)
// inside ctx's transaction.
func (s *Service) apply(ctx context.Context, sh *domain.Shipment, events []domain.TrackingEvent, next *time.Time) error {
	for i := range events {
		events[i].ID = s.newID()
		events[i].ShipmentID = sh.ID
	}
	added, err := s.repo.AddEvents(ctx, events)
	if err != nil {
		return err
	}
	if len(added) == 0 && next == nil {
		return nil
	}
	history, err := s.repo.Events(ctx, sh.ID)
	if err != nil {
		return err
	}
	changed, previous := false, sh.Status
	if len(added) > 0 {
		changed, previous = sh.Track(history)
	}
	if next != nil {
		sh.NextTrackAt = next
		if next.IsZero() {
			sh.NextTrackAt = nil
		}
	}
	if sh.Status.Final() {
		sh.NextTrackAt = nil
	}
	sh.UpdatedAt = s.clock.Now().UTC()
	if err := s.repo.Update(ctx, sh); err != nil {
		return err
	}
	if changed {
		return s.publish(ctx, statusEvents[sh.Status], sh, previous)
	}
	return nil
}

// SweepLimit is how many shipments one tracking sweep polls.
const SweepLimit = 100

// PollTracking asks the carriers about every shipment due for a poll (next_track_at
// passed), one carrier call per shipment outside any transaction, and applies the
// answers. A carrier failure only delays that shipment to its next poll. It returns
// how many shipments changed status (the tracking sweep's count).
func (s *Service) PollTracking(ctx context.Context) (int64, error) {
	now := s.clock.Now().UTC()
	due, err := s.repo.DueForTracking(ctx, now, SweepLimit)
	if err != nil {
		return 0, err
	}
	var changed int64
	next := now.Add(s.settings.TrackingInterval)
	for _, sh := range due {
		c, ok := s.carriers.get(sh.Carrier)
		var events []domain.TrackingEvent
		if ok && c.Live() {
			tctx, cancel := context.WithTimeout(ctx, s.settings.RatesTimeout)
			events, err = c.Track(tctx, sh.TrackingNumber)
			cancel()
			if err != nil {
				events = nil
			}
		}
		for i := range events {
			events[i].Source = "poll"
		}
		before := sh.Status
		poll := &next
		if !ok || !c.Live() {
			poll = &time.Time{} // nothing to ask: stop polling
		}
		err := s.tx.InTx(ctx, func(ctx context.Context) error { return s.apply(ctx, sh, events, poll) })
		if errors.Is(err, ports.ErrVersion) {
			continue // changed meanwhile (a webhook): the next sweep sees it
		}
		if err != nil {
			return changed, err
		}
		if sh.Status != before {
			changed++
		}
	}
	return changed, nil
}

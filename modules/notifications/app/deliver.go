package app

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/notifications/domain"
	"github.com/gocommerce/commerce/modules/notifications/ports"
)

// maxErrorMessage bounds a stored provider error.
const maxErrorMessage = 1000

// Deliver makes one attempt at a due notification: it claims it (so no two workers
// send it), sends it through its channel outside any transaction, then stores the
// outcome with the attempt. A failure sets failed at once and, while attempt_count <
// max_attempts, schedules the automatic retry after notifications.retry_backoff.
// A notification that is not due (cancelled, sent, scheduled later, taken) is skipped.
func (s *Service) Deliver(ctx context.Context, id string) (sent bool, err error) {
	now := s.clock.Now()
	n, ok, err := s.stores.Notifications.Claim(ctx, id, now, now.Add(s.settings.ClaimTimeout))
	if err != nil || !ok {
		return false, err
	}
	var providerID string
	ch, found := s.channels[n.Channel]
	if !found {
		err = ports.ErrChannelUnavailable
	} else {
		sendCtx, cancel := context.WithTimeout(ctx, s.settings.ClaimTimeout/2)
		providerID, err = ch.Send(sendCtx, n)
		cancel()
	}
	done := s.clock.Now()
	a := domain.Attempt{ID: s.newID(), NotificationID: n.ID, Channel: n.Channel, AttemptedAt: done, Status: domain.StatusSent}
	if err != nil {
		msg := err.Error()
		if len(msg) > maxErrorMessage {
			msg = msg[:maxErrorMessage]
		}
		a.Status, a.Error = domain.StatusFailed, msg
		n.Failed(done, msg, s.settings.RetryBackoff)
		s.log.Info("notification attempt failed", zap.String("id", n.ID), zap.String("channel", n.Channel),
			zap.Int("attempt", n.AttemptCount), zap.Error(err))
	} else {
		n.Sent(done, providerID)
	}
	if err := s.tx.InTx(ctx, func(ctx context.Context) error {
		if err := s.stores.Notifications.Finish(ctx, n, a); err != nil {
			return err
		}
		if n.Status == domain.StatusFailed && n.NextAttemptAt != nil {
			s.enqueue(ctx, n)
		}
		return nil
	}); err != nil {
		return false, fmt.Errorf("notifications: record attempt of %s: %w", n.ID, err)
	}
	return a.Status == domain.StatusSent, nil
}

// sweepLimit bounds one run of the due sweep.
const sweepLimit = 1000

// SendDue delivers what is due (scheduled times that passed, automatic retries,
// sends whose task was lost in a restart), most urgent first; it answers how many
// were sent.
func (s *Service) SendDue(ctx context.Context) (int64, error) {
	return s.sendAll(ctx, "")
}

// SendBatch delivers the due notifications of a bulk batch.
func (s *Service) SendBatch(ctx context.Context, batchID string) (int64, error) {
	return s.sendAll(ctx, batchID)
}

func (s *Service) sendAll(ctx context.Context, batchID string) (int64, error) {
	var total int64
	for {
		ids, err := s.stores.Notifications.Due(ctx, s.clock.Now(), batchID, sweepLimit)
		if err != nil || len(ids) == 0 {
			return total, err
		}
		n, progressed, err := s.deliverMany(ctx, ids)
		total += n
		if err != nil || !progressed || len(ids) < sweepLimit {
			return total, err
		}
	}
}

// deliverMany sends ids with settings.Concurrency workers; progressed is false when
// none could be claimed (another worker has them).
func (s *Service) deliverMany(ctx context.Context, ids []string) (sent int64, progressed bool, err error) {
	var (
		mu       sync.Mutex
		firstErr error
		wg       sync.WaitGroup
	)
	work := make(chan string)
	for range s.settings.Concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for id := range work {
				ok, err := s.Deliver(ctx, id)
				mu.Lock()
				if ok {
					sent++
				}
				if err == nil {
					progressed = true
				} else if firstErr == nil {
					firstErr = err
				}
				mu.Unlock()
			}
		}()
	}
	for _, id := range ids {
		if ctx.Err() != nil {
			break
		}
		work <- id
	}
	close(work)
	wg.Wait()
	if firstErr == nil {
		firstErr = ctx.Err()
	}
	if errors.Is(firstErr, context.Canceled) {
		firstErr = nil
	}
	return sent, progressed, firstErr
}

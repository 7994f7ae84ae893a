package app

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/shopspring/decimal"
	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/subscriptions/api"
	"github.com/gocommerce/commerce/modules/subscriptions/domain"
	"github.com/gocommerce/commerce/modules/subscriptions/ports"
	"github.com/gocommerce/commerce/platform/apperr"
)

// BillDue is one run of the billing sweep: it renews the subscriptions due now,
// charges the invoices waiting for a charge (due retries, and charges whose worker
// died: their claim lapsed), cancels the subscriptions whose grace ended and makes the
// orders of paid cycles that have none yet. Any number of workers may run it at once:
// each invoice's charge is claimed by one of them (the database holds the truth). It
// answers how many rows it moved.
func (s *Service) BillDue(ctx context.Context) (int64, error) {
	now, limit := s.clock.Now(), s.settings.BatchSize
	var n int64
	var errs []error
	// each runs step on every id list found, counting the rows it moved.
	each := func(list func(context.Context) ([]string, error), step func(ctx context.Context, id string) (bool, error)) {
		ids, err := list(ctx)
		errs = append(errs, err)
		for _, id := range ids {
			moved, err := step(ctx, id)
			errs = append(errs, err)
			if moved {
				n++
			}
		}
	}
	n += s.renewDue(ctx, now, limit, &errs)
	each(func(ctx context.Context) ([]string, error) { return s.repo.Pending(ctx, now, limit) }, func(ctx context.Context, id string) (bool, error) {
		_, ok, err := s.charge(ctx, id, nil, false)
		return ok, err
	})
	each(func(ctx context.Context) ([]string, error) { return s.repo.GraceOver(ctx, now, limit) }, func(ctx context.Context, id string) (bool, error) {
		err := s.failOutAfterGrace(ctx, id)
		return err == nil, err
	})
	each(func(ctx context.Context) ([]string, error) { return s.repo.PaidWithoutOrder(ctx, limit) }, func(ctx context.Context, id string) (bool, error) {
		if err := s.makeOrder(ctx, id); err != nil { // a product gone from the catalog: logged, not retried in a loop of errors
			s.log.Warn("order of a paid cycle failed", zap.String("invoice_id", id), zap.Error(err))
		}
		return false, nil
	})
	return n, errors.Join(errs...)
}

// renewDue renews the due subscriptions batch after batch, while a batch was full and
// brought only subscriptions not seen yet in this sweep, for at most SweepFor: 10,000
// renewals due at once are billed by one sweep, not batch_size a billing interval
// (docs/decisions/0206). It answers how many it renewed.
func (s *Service) renewDue(ctx context.Context, now time.Time, limit int, errs *[]error) int64 {
	start, seen := s.clock.Now(), map[string]bool{}
	var n int64
	for {
		ids, err := s.repo.Due(ctx, now, limit)
		*errs = append(*errs, err)
		fresh := 0
		for _, id := range ids {
			if seen[id] {
				continue // failed earlier in this sweep, or not billable: the next sweep tries it
			}
			seen[id], fresh = true, fresh+1
			err := s.Renew(ctx, id)
			*errs = append(*errs, err)
			if err == nil {
				n++
			}
		}
		if err != nil || len(ids) < limit || fresh == 0 || ctx.Err() != nil ||
			(s.settings.SweepFor > 0 && s.clock.Now().Sub(start) >= s.settings.SweepFor) {
			return n
		}
	}
}

// Renew bills a due subscription's next cycle: it ends one that bills no more
// (cancelled at period end, expired after max_cycles), else issues the cycle's invoice
// (one per cycle: a unique index) and charges it unless another worker holds it.
func (s *Service) Renew(ctx context.Context, id string) error {
	var issued *domain.Invoice
	err := s.tx.InTx(ctx, func(ctx context.Context) error {
		sub, err := s.repo.Get(ctx, id)
		if err != nil {
			return err
		}
		now := s.clock.Now()
		if !sub.Billable(now) {
			return nil
		}
		if st, ended := sub.EndAtDue(now); ended {
			if err := s.repo.Update(ctx, sub); err != nil {
				return err
			}
			ev := api.EventSubscriptionExpired
			if st == domain.StatusCancelled {
				ev = api.EventSubscriptionCancelled
			}
			return s.publishSub(ctx, ev, sub)
		}
		// The cycle's invoice is inserted unless it exists (the usual case: it does
		// not), and read only when it does.
		cycle := sub.NextCycle()
		total := sub.CycleTotal(cycle)
		inv := &domain.Invoice{
			ID: s.newID(), SubscriptionID: sub.ID, CustomerID: sub.CustomerID, OrderRef: s.newID(), CycleNumber: cycle,
			PeriodStart: *sub.NextBillingAt, PeriodEnd: sub.DueOf(cycle + 1), Subtotal: total, TaxTotal: decimal.Zero, Total: total,
			Currency: sub.Currency, Status: domain.InvoicePending, CreatedAt: now, UpdatedAt: now,
		}
		created, err := s.repo.CreateInvoice(ctx, inv)
		if err != nil {
			return err
		}
		if !created { // issued before (a retried sweep) or by another worker meanwhile
			if inv, err = s.repo.InvoiceOfCycle(ctx, sub.ID, cycle); err != nil {
				return err
			}
		} else if err := s.publishInvoice(ctx, api.EventInvoiceCreated, inv); err != nil {
			return err
		}
		if inv.Status == domain.InvoicePending || inv.Status == domain.InvoiceBilled {
			issued = inv
		}
		return nil
	})
	if err != nil || issued == nil {
		return err
	}
	_, _, err = s.charge(ctx, issued.ID, issued, false)
	return err
}

// Charged is the outcome of one charge.
type Charged struct {
	PaymentID string
	Paid      bool
}

// charge claims the invoice's charge (pending, a due retry, a lapsed claim, or with
// manual any failed invoice), charges the saved method with the key of this attempt
// (a resumed charge reuses it, so the provider charges once) and settles the outcome.
// ok is false when the invoice was not chargeable or another worker holds it. known,
// when set, is the invoice as the caller just read or issued it (Renew), which saves
// reading it again.
func (s *Service) charge(ctx context.Context, invoiceID string, known *domain.Invoice, manual bool) (Charged, bool, error) {
	now, token := s.clock.Now(), s.newID()
	before := known
	if before == nil {
		var err error
		if before, err = s.repo.GetInvoice(ctx, invoiceID); err != nil {
			return Charged{}, false, err
		}
	}
	until := now.Add(s.settings.ClaimLease)
	ok, err := s.repo.Claim(ctx, ports.Claim{InvoiceID: invoiceID, Token: token, Until: until, Now: now, Retry: true, Manual: manual})
	if err != nil || !ok {
		return Charged{}, false, err
	}
	var inv *domain.Invoice
	if known != nil && known.Status == domain.InvoicePending {
		// A pending invoice was never charged and changes only by being claimed: the
		// claim just took it from pending, so it is known plus the claim.
		claimed := *known
		claimed.Status, claimed.ClaimToken, claimed.ClaimedUntil, claimed.UpdatedAt = domain.InvoiceBilled, token, &until, now
		inv = &claimed
	} else if inv, err = s.repo.GetInvoice(ctx, invoiceID); err != nil {
		return Charged{}, false, err
	}
	sub, err := s.repo.Get(ctx, inv.SubscriptionID)
	if err != nil {
		return Charged{}, false, err
	}
	if before.Status == domain.InvoicePending && (sub.Status.Ended() || sub.Status == domain.StatusPaused) {
		// Never charged, and the subscription stopped billing since it was issued. (A
		// lapsed charge is resumed whatever the subscription does: it may have gone
		// through, and its outcome is recorded.)
		return Charged{}, false, s.release(ctx, inv, sub, token)
	}
	number := inv.FailedAttempts + 1
	res, err := s.mods.Payments.Charge(ctx, ports.ChargeRequest{
		Gateway: sub.Gateway, PaymentMethodID: sub.PaymentMethodID, CustomerID: sub.CustomerID, OrderID: inv.OrderRef,
		Amount: inv.Total, Currency: inv.Currency, IdempotencyKey: fmt.Sprintf("subscription_invoice_%s_%d", inv.ID, number),
		Description: fmt.Sprintf("Subscription %s, cycle %d", sub.ID, inv.CycleNumber),
		Metadata:    map[string]any{"subscription_id": sub.ID, "subscription_invoice_id": inv.ID, "cycle_number": inv.CycleNumber},
	})
	if err != nil {
		e, ok := apperr.As(err)
		if !ok || (e.Kind != apperr.Invalid && e.Kind != apperr.NotFound && e.Kind != apperr.PaymentRequired) {
			// Not a refusal (the provider or the database is down): the claim lapses
			// and a later sweep charges again with the same key.
			return Charged{}, false, fmt.Errorf("subscriptions: charge invoice %s: %w", inv.ID, err)
		}
		res = ports.ChargeResult{ErrorCode: e.Code, ErrorMessage: e.Message}
	}
	attempt := &domain.Attempt{ID: s.newID(), InvoiceID: inv.ID, SubscriptionID: sub.ID, Number: number, AttemptedAt: now,
		Succeeded: res.Paid, ErrorCode: res.ErrorCode, ErrorMessage: res.ErrorMessage, PaymentID: res.PaymentID, Manual: manual}
	// While the claim is this charge's, nothing else writes the invoice (every other
	// write needs another status or the token), so the settlement starts from inv:
	// its conditional update (billed, with the token) still decides.
	if res.Paid {
		err = s.settlePaid(ctx, inv, inv.ID, res.PaymentID, []domain.InvoiceStatus{domain.InvoiceBilled}, token, attempt)
	} else {
		err = s.settleFailed(ctx, inv, inv.ID, res.ErrorCode, res.ErrorMessage, []domain.InvoiceStatus{domain.InvoiceBilled}, token, attempt)
	}
	if err != nil {
		return Charged{}, false, err
	}
	return Charged{PaymentID: res.PaymentID, Paid: res.Paid}, true, nil
}

// release gives up a claimed charge of a subscription that stopped billing after its
// invoice was issued: an ended one's invoice is cancelled, a paused one's goes back to
// pending (charged after the resume).
func (s *Service) release(ctx context.Context, inv *domain.Invoice, sub *domain.Subscription, token string) error {
	return s.tx.InTx(ctx, func(ctx context.Context) error {
		now := s.clock.Now()
		if sub.Status == domain.StatusPaused {
			inv.Status, inv.ClaimToken, inv.ClaimedUntil, inv.UpdatedAt = domain.InvoicePending, "", nil, now
			_, err := s.repo.Settle(ctx, inv, []domain.InvoiceStatus{domain.InvoiceBilled}, token)
			return err
		}
		inv.Lose(now)
		inv.ClaimToken, inv.ClaimedUntil = "", nil
		if ok, err := s.repo.Settle(ctx, inv, []domain.InvoiceStatus{domain.InvoiceBilled}, token); err != nil || !ok {
			return err
		}
		return s.publishInvoice(ctx, api.EventInvoiceCancelled, inv)
	})
}

// settle stores inv's outcome if the invoice is still in one of from (and token's
// claim when token is set), with the charge's attempt when there is one, and publishes
// eventType; settled is false when it was not (another worker settled it first).
func (s *Service) settle(ctx context.Context, inv *domain.Invoice, from []domain.InvoiceStatus, token string, attempt *domain.Attempt,
	eventType string) (settled bool, err error) {
	if ok, err := s.repo.Settle(ctx, inv, from, token); err != nil || !ok {
		return false, err
	}
	if attempt != nil {
		if err := s.repo.AddAttempt(ctx, attempt); err != nil {
			return false, err
		}
	}
	return true, s.publishInvoice(ctx, eventType, inv)
}

// settlePaid records the payment of an invoice still in one of from (and token's
// claim when token is set): the invoice paid, the subscription renewed (recovered
// from past_due), then the cycle's order. claimed is the invoice as token's claim
// holds it (nil: it is read).
func (s *Service) settlePaid(ctx context.Context, claimed *domain.Invoice, invoiceID, paymentID string, from []domain.InvoiceStatus, token string,
	attempt *domain.Attempt) error {
	var (
		inv *domain.Invoice
		sub *domain.Subscription
	)
	err := s.tx.InTx(ctx, func(ctx context.Context) error {
		var err error
		if inv, err = s.claimedOrRead(ctx, claimed, invoiceID, token); err != nil {
			return err
		}
		now := s.clock.Now()
		inv.Pay(paymentID, now)
		if ok, err := s.settle(ctx, inv, from, token, attempt, api.EventInvoicePaid); err != nil || !ok {
			inv = nil
			return err
		}
		if sub, err = s.repo.Get(ctx, inv.SubscriptionID); err != nil {
			return err
		}
		if sub.Status.Ended() || sub.Status == domain.StatusPaused {
			return nil // ended or paused while the charge ran: the payment stays recorded
		}
		recovered := sub.Status == domain.StatusPastDue
		sub.Paid(inv.CycleNumber, inv.PeriodEnd, now)
		if err := s.repo.Update(ctx, sub); err != nil {
			return err
		}
		if recovered {
			if err := s.publishSub(ctx, api.EventSubscriptionRecovered, sub); err != nil {
				return err
			}
		}
		return s.publishSub(ctx, api.EventSubscriptionRenewed, sub)
	})
	if err != nil || inv == nil {
		return err
	}
	// The invoice and subscription just written: the order's fields (the customer,
	// product and amount) do not change after the payment.
	if err := s.orderOf(ctx, inv, sub); err != nil {
		s.log.Warn("order of a paid cycle failed; the sweep tries again", zap.String("invoice_id", invoiceID), zap.Error(err))
	}
	return nil
}

// claimedOrRead is the invoice a settlement starts from: the one token's claim holds
// (nothing else writes a claimed invoice: the settlement's update checks the status
// and the token), else the stored one.
func (s *Service) claimedOrRead(ctx context.Context, claimed *domain.Invoice, invoiceID, token string) (*domain.Invoice, error) {
	if claimed != nil && token != "" && claimed.ClaimToken == token {
		return claimed, nil
	}
	return s.repo.GetInvoice(ctx, invoiceID)
}

// makeOrder creates the order of a paid invoice (with the id the invoice reserved, so
// it is made once) and records it.
func (s *Service) makeOrder(ctx context.Context, invoiceID string) error {
	inv, err := s.repo.GetInvoice(ctx, invoiceID)
	if err != nil || inv.OrderID != "" || inv.Status != domain.InvoicePaid {
		return err
	}
	return s.orderOf(ctx, inv, nil)
}

// orderOf creates and records the order of the paid invoice inv of sub (nil: read).
func (s *Service) orderOf(ctx context.Context, inv *domain.Invoice, sub *domain.Subscription) error {
	return s.tx.InTx(ctx, func(ctx context.Context) error {
		if sub == nil {
			var err error
			if sub, err = s.repo.Get(ctx, inv.SubscriptionID); err != nil {
				return err
			}
		}
		exists, err := s.mods.Orders.Exists(ctx, inv.OrderRef)
		if err != nil {
			return err
		}
		if !exists {
			note := fmt.Sprintf("Subscription %s, cycle %d", sub.ID, inv.CycleNumber)
			if err := s.mods.Orders.Create(ctx, ports.OrderDraft{
				ID: inv.OrderRef, CustomerID: sub.CustomerID, ProductID: sub.ProductID, VariantID: sub.VariantID, Currency: inv.Currency,
				Price: inv.Total, PaymentID: inv.PaymentID, Note: note,
				Attributes: map[string]any{"subscription_id": sub.ID, "subscription_invoice_id": inv.ID, "cycle_number": inv.CycleNumber},
			}); err != nil {
				return err
			}
		}
		return s.repo.SetInvoiceOrder(ctx, inv.ID, inv.OrderRef)
	})
}

// settleFailed records a failed charge of an invoice still in one of from: the invoice
// failed with its next retry on the schedule, the subscription past_due (its grace
// counted from the first failure), or, with no retry left and the grace over,
// cancelled with reason payment_failed. The dunning email follows the commit.
func (s *Service) settleFailed(ctx context.Context, claimed *domain.Invoice, invoiceID, code, message string, from []domain.InvoiceStatus, token string,
	attempt *domain.Attempt) error {
	var mail string
	var inv *domain.Invoice
	var sub *domain.Subscription
	err := s.tx.InTx(ctx, func(ctx context.Context) error {
		var err error
		if inv, err = s.claimedOrRead(ctx, claimed, invoiceID, token); err != nil {
			return err
		}
		if sub, err = s.repo.Get(ctx, inv.SubscriptionID); err != nil {
			return err
		}
		now := s.clock.Now()
		first := now
		if inv.FirstFailedAt != nil {
			first = *inv.FirstFailedAt
		}
		grace := s.settings.Dunning.GraceEnd(first)
		if sub.GraceEndsAt != nil {
			grace = *sub.GraceEndsAt
		}
		out := s.settings.Dunning.Failed(inv, code, message, &grace, now)
		if sub.Status.Ended() || sub.Status == domain.StatusPaused {
			out.NextRetryAt, out.Email, out.FailOut, inv.NextRetryAt = nil, "", false, nil
		}
		if ok, err := s.settle(ctx, inv, from, token, attempt, api.EventInvoicePaymentFailed); err != nil || !ok {
			mail = ""
			return err
		}
		if sub.Status.Ended() || sub.Status == domain.StatusPaused {
			return nil
		}
		mail = out.Email
		if out.FailOut {
			return s.failOut(ctx, sub, inv, now)
		}
		wasPastDue := sub.Status == domain.StatusPastDue
		sub.PastDue(grace, now)
		if err := s.repo.Update(ctx, sub); err != nil {
			return err
		}
		s.enqueueRetry(ctx, inv)
		if wasPastDue {
			return nil
		}
		return s.publishSub(ctx, api.EventSubscriptionPastDue, sub)
	})
	if err != nil || mail == "" {
		return err
	}
	s.sendDunningEmail(ctx, mail, sub, inv)
	return nil
}

// failOut ends dunning without payment: the invoice cancelled (lost revenue), the
// subscription cancelled with reason payment_failed.
func (s *Service) failOut(ctx context.Context, sub *domain.Subscription, inv *domain.Invoice, now time.Time) error {
	inv.Lose(now)
	if ok, err := s.repo.Settle(ctx, inv, []domain.InvoiceStatus{domain.InvoiceFailed}, ""); err != nil || !ok {
		return err
	}
	if err := s.publishInvoice(ctx, api.EventInvoiceCancelled, inv); err != nil {
		return err
	}
	sub.FailOut(now)
	if err := s.repo.Update(ctx, sub); err != nil {
		return err
	}
	return s.publishSub(ctx, api.EventSubscriptionCancelled, sub)
}

// failOutAfterGrace cancels a past_due subscription whose retries are exhausted once
// its (possibly extended) grace period is over.
func (s *Service) failOutAfterGrace(ctx context.Context, id string) error {
	return s.tx.InTx(ctx, func(ctx context.Context) error {
		sub, err := s.repo.Get(ctx, id)
		if err != nil {
			return err
		}
		now := s.clock.Now()
		if sub.Status != domain.StatusPastDue || sub.GraceEndsAt == nil || sub.GraceEndsAt.After(now) {
			return nil
		}
		inv, err := s.repo.OpenInvoice(ctx, id)
		if err != nil {
			return err
		}
		if inv.Status != domain.InvoiceFailed || inv.NextRetryAt != nil {
			return nil
		}
		return s.failOut(ctx, sub, inv, now)
	})
}

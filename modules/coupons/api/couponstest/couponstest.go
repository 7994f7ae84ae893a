// Package couponstest offers other modules' tests a stand-in for api.Coupons.
package couponstest

import (
	"context"
	"sync"

	"github.com/gocommerce/commerce/modules/coupons/api"
)

// Recorder is an api.Coupons that records every command and notice it is given (in
// order, safe for concurrent use) and answers Evaluate with Answer: without one, every
// code is COUPON_NOT_FOUND.
type Recorder struct {
	Answer func(cmd api.EvaluateCommand) (api.Evaluation, error)

	mu        sync.Mutex
	evaluated []api.EvaluateCommand
	recorded  []api.RecordUsageCommand
	released  []api.ReleaseUsageCommand
	notified  []api.CartCoupon
}

var _ api.Coupons = (*Recorder)(nil)

// Evaluate records cmd and answers it.
func (r *Recorder) Evaluate(_ context.Context, cmd api.EvaluateCommand) (api.Evaluation, error) {
	r.mu.Lock()
	r.evaluated = append(r.evaluated, cmd)
	r.mu.Unlock()
	if r.Answer == nil {
		return api.Evaluation{ErrorCode: "COUPON_NOT_FOUND", ErrorMessage: "Coupon not found"}, nil
	}
	return r.Answer(cmd)
}

// RecordUsage records cmd.
func (r *Recorder) RecordUsage(_ context.Context, cmd api.RecordUsageCommand) (api.Usage, error) {
	record(r, &r.recorded, cmd)
	return api.Usage{}, nil
}

// ReleaseUsage records cmd.
func (r *Recorder) ReleaseUsage(_ context.Context, cmd api.ReleaseUsageCommand) error {
	record(r, &r.released, cmd)
	return nil
}

// NotifyApplied records c.
func (r *Recorder) NotifyApplied(_ context.Context, c api.CartCoupon) error {
	record(r, &r.notified, c)
	return nil
}

// NotifyRemoved records c.
func (r *Recorder) NotifyRemoved(_ context.Context, c api.CartCoupon) error {
	record(r, &r.notified, c)
	return nil
}

// Evaluated is the commands Evaluate was given.
func (r *Recorder) Evaluated() []api.EvaluateCommand { return list(r, r.evaluated) }

// Recorded is the commands RecordUsage was given.
func (r *Recorder) Recorded() []api.RecordUsageCommand { return list(r, r.recorded) }

// Released is the commands ReleaseUsage was given.
func (r *Recorder) Released() []api.ReleaseUsageCommand { return list(r, r.released) }

// Notified is the coupons NotifyApplied and NotifyRemoved were given.
func (r *Recorder) Notified() []api.CartCoupon { return list(r, r.notified) }

func record[T any](r *Recorder, to *[]T, v T) {
	r.mu.Lock()
	defer r.mu.Unlock()
	*to = append(*to, v)
}

func list[T any](r *Recorder, from []T) []T {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]T(nil), from...)
}

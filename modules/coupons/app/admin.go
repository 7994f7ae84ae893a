package app

import (
	"context"
	"errors"

	"github.com/gocommerce/commerce/modules/coupons/api"
	"github.com/gocommerce/commerce/modules/coupons/domain"
	"github.com/gocommerce/commerce/modules/coupons/ports"
	"github.com/gocommerce/commerce/platform/ids"
)

func isNotFound(err error) bool { return errors.Is(err, domain.ErrCouponNotFound) }

// Create creates a coupon (usage_count 0) and publishes coupon.created.
func (s *Service) Create(ctx context.Context, p domain.Patch) (*domain.Coupon, error) {
	c, bad := domain.New(newID(), p, s.now())
	if bad != nil {
		return nil, bad.Err()
	}
	err := s.tx.InTx(ctx, func(ctx context.Context) error {
		if err := s.coupons.Create(ctx, c); err != nil {
			return err
		}
		return s.events.Publish(ctx, api.EventCouponCreated, string(c.ID), ToResource(c))
	})
	if err != nil {
		return nil, err
	}
	return c, nil
}

// Update applies any subset of the coupon's fields and publishes coupon.updated.
func (s *Service) Update(ctx context.Context, id string, p domain.Patch) (*domain.Coupon, error) {
	if !ids.Valid(id) {
		return nil, domain.ErrCouponNotFound
	}
	var out *domain.Coupon
	err := s.tx.InTx(ctx, func(ctx context.Context) error {
		c, err := s.coupons.Update(ctx, domain.CouponID(id), func(c *domain.Coupon) (*domain.Coupon, error) {
			n, bad := c.Update(p, s.now())
			if bad != nil {
				return nil, bad.Err()
			}
			return n, nil
		})
		if err != nil {
			return err
		}
		out = c
		return s.events.Publish(ctx, api.EventCouponUpdated, string(c.ID), ToResource(c))
	})
	return out, err
}

// Delete soft-deletes a coupon (orders that used it keep their history; its code may
// be reused) and publishes coupon.deleted.
func (s *Service) Delete(ctx context.Context, id string) error {
	if !ids.Valid(id) {
		return domain.ErrCouponNotFound
	}
	return s.tx.InTx(ctx, func(ctx context.Context) error {
		now := s.now()
		c, err := s.coupons.Delete(ctx, domain.CouponID(id), now)
		if err != nil {
			return err
		}
		return s.events.Publish(ctx, api.EventCouponDeleted, string(c.ID), api.CouponDeleted{ID: string(c.ID), Code: c.Code, DeletedAt: now})
	})
}

// Get returns a live coupon by id or code. Without full (callers that do not manage
// coupons) only an active coupon is found (docs/decisions/0066).
func (s *Service) Get(ctx context.Context, codeOrID string, full bool) (*domain.Coupon, error) {
	var (
		c   *domain.Coupon
		err error
	)
	if ids.Valid(codeOrID) {
		c, err = s.coupons.Get(ctx, domain.CouponID(codeOrID))
		if isNotFound(err) {
			c, err = s.coupons.GetByCode(ctx, codeOrID)
		}
	} else {
		c, err = s.coupons.GetByCode(ctx, codeOrID)
	}
	if err != nil {
		return nil, err
	}
	if !full && !c.IsActive {
		return nil, domain.ErrCouponNotFound
	}
	return c, nil
}

// ListQuery is a coupon list request.
type ListQuery struct {
	Active *bool
	// Full lists every coupon (coupon managers); otherwise only public ones.
	Full   bool
	Offset int
	Limit  int
}

// List returns a page of coupons, newest first, and the total.
func (s *Service) List(ctx context.Context, q ListQuery) ([]*domain.Coupon, int64, error) {
	return s.coupons.List(ctx, ports.ListQuery{Active: q.Active, Public: !q.Full, Now: s.now(), Offset: q.Offset, Limit: q.Limit})
}

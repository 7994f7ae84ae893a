package app

import (
	"context"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/coupons/api"
	"github.com/gocommerce/commerce/modules/coupons/domain"
	"github.com/gocommerce/commerce/modules/coupons/ports"
	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/ids"
)

// maxOrderIDLength bounds the order ids we store.
const maxOrderIDLength = 100

// RecordUsage records an order's use of a coupon with the limits enforced (api.Coupons).
func (s *Service) RecordUsage(ctx context.Context, cmd api.RecordUsageCommand) (api.Usage, error) {
	return s.recordUsage(ctx, cmd, true)
}

// recordUsage is one transaction (joining the caller's): the order's use already
// recorded answers Recorded false; otherwise usage_count is incremented by a
// conditional update (enforce: only below usage_limit, which serializes concurrent
// recordings of the coupon on its row), the customer's earlier uses are counted after
// that update (so they include every committed concurrent use), and the use is
// inserted with the unique (coupon, order) guard. A refusal leaves nothing written, so
// a caller that continues its transaction after an error keeps a consistent state
// (docs/decisions/0065).
func (s *Service) recordUsage(ctx context.Context, cmd api.RecordUsageCommand, enforce bool) (api.Usage, error) {
	orderID := strings.TrimSpace(cmd.OrderID)
	bad := map[string]string{}
	if orderID == "" || len(orderID) > maxOrderIDLength {
		bad["order_id"] = "is required"
	}
	if cmd.CouponID == "" && strings.TrimSpace(cmd.CouponCode) == "" {
		bad["coupon_code"] = "is required"
	}
	if len(bad) > 0 {
		return api.Usage{}, apperr.Validation(bad)
	}
	used := cmd.UsedAt.UTC()
	if cmd.UsedAt.IsZero() {
		used = s.now()
	}
	var out api.Usage
	err := s.tx.InTx(ctx, func(ctx context.Context) error {
		id := domain.CouponID("")
		if ids.Valid(cmd.CouponID) {
			id = domain.CouponID(strings.ToLower(cmd.CouponID))
		}
		c, err := s.coupons.FindForUsage(ctx, id, cmd.CouponCode)
		if err != nil {
			return err
		}
		out = api.Usage{CouponID: string(c.ID), Code: c.Code, OrderID: orderID}
		done, err := s.usage.Exists(ctx, c.ID, orderID)
		if err != nil || done {
			return err
		}
		ok, err := s.usage.Increment(ctx, c.ID, enforce)
		if err != nil {
			return err
		}
		if !ok {
			// A concurrent call for the same order may have taken the last use: then
			// this call is a repeat, not a refusal.
			if done, err := s.usage.Exists(ctx, c.ID, orderID); err != nil || done {
				return err
			}
			return domain.ErrUsageLimit
		}
		customer := strings.ToLower(strings.TrimSpace(cmd.CustomerID))
		if enforce && c.UsageLimitPerCustomer != nil && customer != "" {
			n, err := s.usage.CountForCustomer(ctx, c.ID, customer)
			if err != nil {
				return err
			}
			if n >= *c.UsageLimitPerCustomer {
				if err := s.usage.Decrement(ctx, c.ID); err != nil {
					return err
				}
				return domain.ErrCustomerLimit
			}
		}
		inserted, err := s.usage.Insert(ctx, ports.Use{
			ID: ids.New(), CouponID: c.ID, OrderID: orderID, CustomerID: customer,
			DiscountAmount: cmd.DiscountAmount, OrderTotal: cmd.OrderTotal, Currency: upper(cmd.Currency), UsedAt: used,
		})
		if err != nil {
			return err
		}
		if !inserted { // a concurrent call recorded this order first
			return s.usage.Decrement(ctx, c.ID)
		}
		out.Recorded = true
		return nil
	})
	if err != nil {
		return api.Usage{}, err
	}
	return out, nil
}

// RecordOrder records the coupon uses of a placed order (the order.created reaction).
// The order exists whatever the limits say, so they are not enforced here: the use is
// counted. Idempotent per order.
func (s *Service) RecordOrder(ctx context.Context, o api.OrderCreated) error {
	uses := o.AppliedCoupons
	if len(uses) == 0 {
		if o.CouponCode == nil || strings.TrimSpace(*o.CouponCode) == "" {
			return nil
		}
		uses = []api.AppliedCoupon{{Code: *o.CouponCode, DiscountAmount: o.DiscountTotal}}
	}
	total, err := parseAmount(o.TotalPrice)
	if err != nil {
		return err
	}
	var at time.Time
	if o.CreatedAt != "" {
		if at, err = time.Parse(time.RFC3339Nano, o.CreatedAt); err != nil {
			return apperr.Invalidf("created_at %q is not a timestamp", o.CreatedAt)
		}
	}
	customer := ""
	if o.CustomerID != nil {
		customer = *o.CustomerID
	}
	return s.tx.InTx(ctx, func(ctx context.Context) error {
		for _, u := range uses {
			amount, err := parseAmount(u.DiscountAmount)
			if err != nil {
				return err
			}
			_, err = s.recordUsage(ctx, api.RecordUsageCommand{
				CouponCode: u.Code, OrderID: o.ID, CustomerID: customer, DiscountAmount: amount,
				OrderTotal: total, Currency: o.Currency, UsedAt: at,
			}, false)
			if err != nil && !isNotFound(err) {
				return err
			}
		}
		return nil
	})
}

func parseAmount(s string) (decimal.Decimal, error) {
	if strings.TrimSpace(s) == "" {
		return decimal.Zero, nil
	}
	d, err := decimal.NewFromString(strings.TrimSpace(s))
	if err != nil {
		return decimal.Zero, apperr.Invalidf("amount %q is not a decimal", s)
	}
	return d, nil
}

// DayUsage is one day of a coupon's usage.
type DayUsage struct {
	Date     string
	Count    int
	Discount decimal.Decimal
}

// UsageStats is the usage report of a coupon.
type UsageStats struct {
	Coupon            *domain.Coupon
	Remaining         *int
	TotalDiscount     decimal.Decimal
	OrdersCount       int
	AverageOrderValue decimal.Decimal
	ByDay             []DayUsage
	// Currency is the currency of the uses when they share one ("" otherwise).
	Currency string
}

// Usage reports a coupon's usage (deleted coupons included): remaining uses, total
// discount, orders, average order value and uses per UTC day.
func (s *Service) Usage(ctx context.Context, id string) (UsageStats, error) {
	if !ids.Valid(id) {
		return UsageStats{}, domain.ErrCouponNotFound
	}
	c, err := s.coupons.GetAny(ctx, domain.CouponID(strings.ToLower(id)))
	if err != nil {
		return UsageStats{}, err
	}
	uses, err := s.usage.ForCoupon(ctx, c.ID)
	if err != nil {
		return UsageStats{}, err
	}
	st := UsageStats{Coupon: c, TotalDiscount: decimal.Zero, AverageOrderValue: decimal.Zero, ByDay: []DayUsage{}, OrdersCount: len(uses)}
	if c.UsageLimit != nil {
		r := max(*c.UsageLimit-c.UsageCount, 0)
		st.Remaining = &r
	}
	totalOrders := decimal.Zero
	currencies := map[string]bool{}
	for _, u := range uses {
		currencies[u.Currency] = true
		st.TotalDiscount = st.TotalDiscount.Add(u.DiscountAmount)
		totalOrders = totalOrders.Add(u.OrderTotal)
		day := u.UsedAt.UTC().Format(time.DateOnly)
		if n := len(st.ByDay); n > 0 && st.ByDay[n-1].Date == day {
			st.ByDay[n-1].Count++
			st.ByDay[n-1].Discount = st.ByDay[n-1].Discount.Add(u.DiscountAmount)
		} else {
			st.ByDay = append(st.ByDay, DayUsage{Date: day, Count: 1, Discount: u.DiscountAmount})
		}
	}
	if len(currencies) == 1 {
		for cur := range currencies {
			st.Currency = cur
		}
	}
	if len(uses) > 0 {
		st.AverageOrderValue = domain.Round(totalOrders.Div(decimal.NewFromInt(int64(len(uses)))), st.Currency)
	}
	return st, nil
}

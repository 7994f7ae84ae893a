package http

import (
	"time"

	"github.com/gocommerce/commerce/modules/coupons/api"
	"github.com/gocommerce/commerce/modules/coupons/app"
	"github.com/gocommerce/commerce/modules/coupons/domain"
)

// publicCoupon is the coupon as callers who do not manage coupons see it: no usage
// figures and no customer lists (docs/decisions/0066).
type publicCoupon struct {
	ID                    string            `json:"id"`
	Code                  string            `json:"code"`
	Type                  string            `json:"type"`
	Value                 string            `json:"value"`
	Description           string            `json:"description"`
	MinimumOrderAmount    string            `json:"minimum_order_amount"`
	MaximumDiscountAmount *string           `json:"maximum_discount_amount"`
	StartsAt              time.Time         `json:"starts_at"`
	ExpiresAt             *time.Time        `json:"expires_at"`
	IsActive              bool              `json:"is_active"`
	AppliesTo             api.AppliesTo     `json:"applies_to"`
	CustomerEligibility   publicEligibility `json:"customer_eligibility"`
	BuyXGetY              *api.BuyXGetY     `json:"buy_x_get_y"`
	CreatedAt             time.Time         `json:"created_at"`
}

type publicEligibility struct {
	NewCustomersOnly bool `json:"new_customers_only"`
}

// toResponse picks the admin or the public view.
func toResponse(c *domain.Coupon, full bool) any {
	r := app.ToResource(c)
	if full {
		return r
	}
	return publicCoupon{
		ID: r.ID, Code: r.Code, Type: r.Type, Value: r.Value, Description: r.Description,
		MinimumOrderAmount: r.MinimumOrderAmount, MaximumDiscountAmount: r.MaximumDiscountAmount,
		StartsAt: r.StartsAt, ExpiresAt: r.ExpiresAt, IsActive: r.IsActive, AppliesTo: r.AppliesTo,
		CustomerEligibility: publicEligibility{NewCustomersOnly: r.CustomerEligibility.NewCustomersOnly},
		BuyXGetY:            r.BuyXGetY, CreatedAt: r.CreatedAt,
	}
}

type validateRequest struct {
	CouponCode string `json:"coupon_code" binding:"required"`
	CartID     string `json:"cart_id" binding:"required"`
}

type validCoupon struct {
	Code        string `json:"code"`
	Type        string `json:"type"`
	Value       string `json:"value"`
	Description string `json:"description"`
}

type validDiscount struct {
	Subtotal       string `json:"subtotal"`
	DiscountAmount string `json:"discount_amount"`
	NewTotal       string `json:"new_total"`
}

type validResponse struct {
	Valid    bool          `json:"valid"`
	Coupon   validCoupon   `json:"coupon"`
	Discount validDiscount `json:"discount"`
}

type invalidError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

type invalidResponse struct {
	Valid bool         `json:"valid"`
	Error invalidError `json:"error"`
}

func toValidation(v app.Validation) any {
	if !v.Valid {
		return invalidResponse{Valid: false, Error: invalidError{Code: v.Error.Code, Message: v.Error.Message}}
	}
	c := v.Coupon
	return validResponse{
		Valid:  true,
		Coupon: validCoupon{Code: c.Code, Type: string(c.Type), Value: domain.FormatAmount(c.Value), Description: c.Description},
		Discount: validDiscount{
			Subtotal: domain.Format(v.Subtotal, v.Currency), DiscountAmount: domain.Format(v.Discount, v.Currency),
			NewTotal: domain.Format(v.NewTotal, v.Currency),
		},
	}
}

type dayUsage struct {
	Date           string `json:"date"`
	UsageCount     int    `json:"usage_count"`
	DiscountAmount string `json:"discount_amount"`
}

type usageResponse struct {
	CouponID            string     `json:"coupon_id"`
	Code                string     `json:"code"`
	UsageLimit          *int       `json:"usage_limit"`
	UsageCount          int        `json:"usage_count"`
	Remaining           *int       `json:"remaining"`
	TotalDiscountAmount string     `json:"total_discount_amount"`
	OrdersCount         int        `json:"orders_count"`
	AverageOrderValue   string     `json:"average_order_value"`
	Currency            *string    `json:"currency"`
	UsageByDay          []dayUsage `json:"usage_by_day"`
}

func toUsage(s app.UsageStats) usageResponse {
	r := usageResponse{
		CouponID: string(s.Coupon.ID), Code: s.Coupon.Code, UsageLimit: s.Coupon.UsageLimit, UsageCount: s.Coupon.UsageCount,
		Remaining: s.Remaining, TotalDiscountAmount: domain.Format(s.TotalDiscount, s.Currency), OrdersCount: s.OrdersCount,
		AverageOrderValue: domain.Format(s.AverageOrderValue, s.Currency), UsageByDay: make([]dayUsage, len(s.ByDay)),
	}
	if s.Currency != "" {
		cur := s.Currency
		r.Currency = &cur
	}
	for i, d := range s.ByDay {
		r.UsageByDay[i] = dayUsage{Date: d.Date, UsageCount: d.Count, DiscountAmount: domain.Format(d.Discount, s.Currency)}
	}
	return r
}

package http

import (
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/checkout/app"
	"github.com/gocommerce/commerce/modules/checkout/domain"
	"github.com/gocommerce/commerce/modules/checkout/ports"
	tax "github.com/gocommerce/commerce/modules/tax/api"
	"github.com/gocommerce/commerce/platform/money"
)

// addressDTO is an address on the wire (region_code, postal_code and country_code; the
// orders module's province, state, zip and country are accepted too).
type addressDTO struct {
	FirstName   string `json:"first_name"`
	LastName    string `json:"last_name"`
	Company     string `json:"company"`
	Phone       string `json:"phone"`
	Address1    string `json:"address1"`
	Address2    string `json:"address2"`
	City        string `json:"city"`
	RegionCode  string `json:"region_code"`
	State       string `json:"state,omitempty"`
	Province    string `json:"province,omitempty"`
	PostalCode  string `json:"postal_code"`
	Zip         string `json:"zip,omitempty"`
	CountryCode string `json:"country_code"`
	Country     string `json:"country,omitempty"`
}

func first(vs ...string) string {
	for _, v := range vs {
		if strings.TrimSpace(v) != "" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

func (a *addressDTO) domain() *domain.Address {
	if a == nil {
		return nil
	}
	return &domain.Address{FirstName: a.FirstName, LastName: a.LastName, Company: a.Company, Phone: a.Phone, Address1: a.Address1,
		Address2: a.Address2, City: a.City, RegionCode: first(a.RegionCode, a.State, a.Province), PostalCode: first(a.PostalCode, a.Zip),
		CountryCode: first(a.CountryCode, a.Country)}
}

func toAddress(a *domain.Address) *addressDTO {
	if a == nil {
		return nil
	}
	return &addressDTO{FirstName: a.FirstName, LastName: a.LastName, Company: a.Company, Phone: a.Phone, Address1: a.Address1,
		Address2: a.Address2, City: a.City, RegionCode: a.RegionCode, PostalCode: a.PostalCode, CountryCode: a.CountryCode}
}

type initiateRequest struct {
	CartID          string      `json:"cart_id" binding:"required"`
	ShippingAddress *addressDTO `json:"shipping_address"`
	BillingAddress  *addressDTO `json:"billing_address"`
	VATID           string      `json:"vat_id"`
	Email           string      `json:"email"`
}

type shippingRequest struct {
	CartID         string `json:"cart_id" binding:"required"`
	ShippingRateID string `json:"shipping_rate_id"`
	ShippingMethod string `json:"shipping_method"`
}

type cardDTO struct {
	Number   string `json:"number"`
	ExpMonth int    `json:"exp_month"`
	ExpYear  int    `json:"exp_year"`
	CVC      string `json:"cvc"`
	Name     string `json:"name"`
}

type paymentMethodDTO struct {
	Type      string   `json:"type"`
	Token     string   `json:"token"`
	CVC       string   `json:"cvc"`
	GatewayID string   `json:"gateway_id"`
	Card      *cardDTO `json:"card"`
}

type completeRequest struct {
	CartID          string            `json:"cart_id" binding:"required"`
	PaymentMethod   *paymentMethodDTO `json:"payment_method" binding:"required"`
	CustomerEmail   string            `json:"customer_email"`
	ReturnURL       string            `json:"return_url"`
	IdempotencyKey  string            `json:"idempotency_key"`
	ShippingAddress *addressDTO       `json:"shipping_address"`
}

func (r completeRequest) method() ports.PaymentMethod {
	m := ports.PaymentMethod{Type: strings.TrimSpace(r.PaymentMethod.Type), Token: r.PaymentMethod.Token, CVC: r.PaymentMethod.CVC, GatewayID: r.PaymentMethod.GatewayID}
	if k := r.PaymentMethod.Card; k != nil {
		m.Card = &ports.Card{Number: k.Number, ExpMonth: k.ExpMonth, ExpYear: k.ExpYear, CVC: k.CVC, Name: k.Name}
	}
	return m
}

type rateDTO struct {
	ID            string `json:"id"`
	Carrier       string `json:"carrier"`
	Name          string `json:"name"`
	Code          string `json:"code"`
	Price         string `json:"price"`
	Currency      string `json:"currency"`
	EstimatedDays *int   `json:"estimated_days"`
}

type lineDTO struct {
	ItemID         string `json:"item_id"`
	ProductID      string `json:"product_id"`
	VariantID      string `json:"variant_id"`
	Title          string `json:"title"`
	SKU            string `json:"sku"`
	Quantity       int    `json:"quantity"`
	UnitPrice      string `json:"unit_price"`
	Subtotal       string `json:"subtotal"`
	DiscountAmount string `json:"discount_amount"`
	TaxableAmount  string `json:"taxable_amount"`
	TaxAmount      string `json:"tax_amount"`
	TaxRate        string `json:"tax_rate"`
}

// checkoutResponse is a checkout session on the wire: the spec's initiate members
// (subtotal, discount_total, item_tax, shipping_tax, tax_total,
// available_shipping_rates, tax_breakdown) and the rest of the session.
type checkoutResponse struct {
	ID                     string             `json:"id"`
	CartID                 string             `json:"cart_id"`
	Status                 string             `json:"status"`
	Currency               string             `json:"currency"`
	Email                  string             `json:"email"`
	Subtotal               string             `json:"subtotal"`
	DiscountTotal          string             `json:"discount_total"`
	ShippingTotal          string             `json:"shipping_total"`
	ItemTax                string             `json:"item_tax"`
	ShippingTax            string             `json:"shipping_tax"`
	TaxTotal               string             `json:"tax_total"`
	Total                  string             `json:"total"`
	AvailableShippingRates []rateDTO          `json:"available_shipping_rates"`
	SelectedShippingRate   *rateDTO           `json:"selected_shipping_rate"`
	TaxBreakdown           []tax.BreakdownRow `json:"tax_breakdown"`
	ReverseChargeApplied   bool               `json:"reverse_charge_applied"`
	LineItems              []lineDTO          `json:"line_items"`
	ShippingAddress        *addressDTO        `json:"shipping_address"`
	BillingAddress         *addressDTO        `json:"billing_address"`
	VATID                  string             `json:"vat_id"`
	CouponCodes            []string           `json:"coupon_codes"`
	UpdatedAt              time.Time          `json:"updated_at"`
}

func amount(d decimal.Decimal, cur string) string { return money.Format(d, cur) }

func toRate(r domain.Rate, cur string) rateDTO {
	out := rateDTO{ID: r.ID, Carrier: r.Carrier, Name: r.Name, Code: r.Code, Price: amount(r.Price, cur), Currency: cur}
	if r.EstimatedDays > 0 {
		d := r.EstimatedDays
		out.EstimatedDays = &d
	}
	return out
}

func toCheckout(s *domain.Session) checkoutResponse {
	cur, t := s.Currency, s.Totals
	out := checkoutResponse{
		ID: s.ID, CartID: s.CartID, Status: string(s.Status), Currency: cur, Email: s.Email,
		Subtotal: amount(t.Subtotal, cur), DiscountTotal: amount(t.DiscountTotal(), cur), ShippingTotal: amount(t.ShippingTotal(), cur),
		ItemTax: amount(t.Tax.ItemTax, cur), ShippingTax: amount(t.Tax.ShippingTax, cur), TaxTotal: amount(t.TaxTotal(), cur), Total: amount(t.Total(), cur),
		AvailableShippingRates: []rateDTO{}, TaxBreakdown: []tax.BreakdownRow{}, ReverseChargeApplied: t.Tax.ReverseCharge, LineItems: []lineDTO{},
		ShippingAddress: toAddress(s.ShippingAddress), BillingAddress: toAddress(s.BillingAddress), VATID: s.VATID, CouponCodes: []string{},
		UpdatedAt: s.UpdatedAt.UTC(),
	}
	for _, r := range s.Rates {
		out.AvailableShippingRates = append(out.AvailableShippingRates, toRate(r, cur))
	}
	if s.Rate != nil {
		r := toRate(*s.Rate, cur)
		out.SelectedShippingRate = &r
	}
	for _, b := range t.Tax.Breakdown {
		out.TaxBreakdown = append(out.TaxBreakdown, tax.BreakdownRow{TaxZoneID: b.ZoneID, TaxZoneName: b.ZoneName, TaxRateID: b.RateID, TaxRateName: b.RateName,
			Rate: b.Rate.String(), TaxableAmount: amount(b.TaxableAmount, cur), TaxAmount: amount(b.TaxAmount, cur)})
	}
	taxes := map[string]domain.LineTax{}
	for _, lt := range t.Tax.Lines {
		taxes[lt.ItemID] = lt
	}
	for _, l := range t.Lines {
		lt := taxes[l.ItemID]
		rate := "0"
		if !lt.Rate.IsZero() {
			rate = lt.Rate.String()
		}
		out.LineItems = append(out.LineItems, lineDTO{ItemID: l.ItemID, ProductID: l.ProductID, VariantID: l.VariantID, Title: l.Title, SKU: l.SKU,
			Quantity: l.Quantity, UnitPrice: amount(l.UnitPrice, cur), Subtotal: amount(l.Subtotal, cur), DiscountAmount: amount(l.Discount, cur),
			TaxableAmount: amount(l.Taxable(), cur), TaxAmount: amount(lt.TaxAmount, cur), TaxRate: rate})
	}
	for _, u := range s.Coupons {
		out.CouponCodes = append(out.CouponCodes, u.Code)
	}
	return out
}

type orderDTO struct {
	ID              string  `json:"id"`
	OrderNumber     string  `json:"order_number"`
	Status          string  `json:"status"`
	FinancialStatus string  `json:"financial_status"`
	TotalPrice      string  `json:"total_price"`
	Currency        string  `json:"currency"`
	Email           string  `json:"email"`
	CustomerID      *string `json:"customer_id"`
}

type paymentDTO struct {
	Type          string         `json:"type"`
	PaymentID     string         `json:"payment_id"`
	PaymentStatus string         `json:"payment_status,omitempty"`
	TransactionID string         `json:"transaction_id,omitempty"`
	PaymentMethod map[string]any `json:"payment_method,omitempty"`
	ReceiptURL    string         `json:"receipt_url,omitempty"`
	ActionType    string         `json:"action_type,omitempty"`
	ActionData    map[string]any `json:"action_data,omitempty"`
	ExpiresAt     *time.Time     `json:"expires_at,omitempty"`
}

// completeResponse is a completed (or pending) checkout: the session with its order
// and payment.
type completeResponse struct {
	checkoutResponse
	OrderID     string     `json:"order_id"`
	OrderNumber string     `json:"order_number"`
	Order       orderDTO   `json:"order"`
	Payment     paymentDTO `json:"payment"`
}

func toComplete(out app.Outcome) completeResponse {
	o := out.Order
	res := completeResponse{checkoutResponse: toCheckout(out.Session), OrderID: o.ID, OrderNumber: o.Number,
		Order: orderDTO{ID: o.ID, OrderNumber: o.Number, Status: o.Status, FinancialStatus: o.FinancialStatus, TotalPrice: amount(o.Total, o.Currency),
			Currency: o.Currency, Email: o.Email},
		Payment: paymentDTO{Type: out.Payment.Outcome, PaymentID: out.Payment.PaymentID, PaymentStatus: out.Payment.Status,
			TransactionID: out.Payment.TransactionID, PaymentMethod: out.Payment.Method, ReceiptURL: out.Payment.ReceiptURL},
	}
	if o.CustomerID != "" {
		res.Order.CustomerID = &o.CustomerID
	}
	if res.Status == string(domain.StatusAwaitingPayment) {
		res.Status = "requires_action"
	}
	if a := out.Payment.Action; a != nil {
		res.Payment.ActionType, res.Payment.ActionData = a.Type, a.Data
		if !a.ExpiresAt.IsZero() {
			t := a.ExpiresAt.UTC()
			res.Payment.ExpiresAt = &t
		}
	}
	return res
}

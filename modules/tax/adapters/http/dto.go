package http

import (
	"strconv"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/tax/api"
	"github.com/gocommerce/commerce/modules/tax/app"
	"github.com/gocommerce/commerce/modules/tax/domain"
	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/money"
)

// malformedVAT is the spec's literal body for a malformed VAT id.
type malformedVAT struct {
	Error string `json:"error"`
	Code  string `json:"code"`
}

type addressJSON struct {
	CountryCode string `json:"country_code"`
	RegionCode  string `json:"region_code"`
	PostalCode  string `json:"postal_code"`
	City        string `json:"city"`
}

func (a *addressJSON) api() *api.Address {
	if a == nil {
		return nil
	}
	return &api.Address{CountryCode: a.CountryCode, RegionCode: a.RegionCode, PostalCode: a.PostalCode, City: a.City}
}

type itemJSON struct {
	ID            string `json:"id"`
	ProductID     string `json:"product_id"`
	Quantity      int    `json:"quantity"`
	UnitPrice     string `json:"unit_price"`
	TaxCategoryID string `json:"tax_category_id"`
	IsDigital     bool   `json:"is_digital"`
	Title         string `json:"title"`
	SKU           string `json:"sku"`
}

type calculateRequest struct {
	Items           []itemJSON   `json:"items" binding:"required"`
	ShippingAddress *addressJSON `json:"shipping_address"`
	BillingAddress  *addressJSON `json:"billing_address"`
	CustomerID      string       `json:"customer_id"`
	VATID           string       `json:"vat_id"`
	Currency        string       `json:"currency" binding:"required"`
	ShippingAmount  string       `json:"shipping_amount"`
	TaxIncluded     *bool        `json:"tax_included"`
}

// amounts parses money strings in the request's currency, naming bad fields.
type amounts struct {
	currency string
	bad      map[string]string
}

func (a amounts) parse(field, s string) decimal.Decimal {
	if s == "" {
		a.bad[field] = "is required"
		return decimal.Zero
	}
	d, err := money.Parse(s, a.currency)
	if err != nil {
		a.bad[field] = err.Error()
	}
	return d
}

func newAmounts(currency string) amounts {
	c, ok := money.Normalize(currency)
	bad := map[string]string{}
	if !ok {
		bad["currency"] = "must be an ISO 4217 currency code"
	}
	return amounts{currency: c, bad: bad}
}

func (a amounts) err() error {
	if len(a.bad) > 0 {
		return apperr.Validation(a.bad)
	}
	return nil
}

func (r *calculateRequest) query() (api.Query, error) {
	a := newAmounts(r.Currency)
	q := api.Query{ShippingAddress: r.ShippingAddress.api(), BillingAddress: r.BillingAddress.api(), CustomerID: r.CustomerID,
		VATID: r.VATID, Currency: a.currency, TaxIncluded: r.TaxIncluded, Lines: make([]api.Line, len(r.Items))}
	if r.ShippingAmount != "" {
		q.ShippingAmount = a.parse("shipping_amount", r.ShippingAmount)
	}
	for i, it := range r.Items {
		q.Lines[i] = api.Line{ID: it.ID, ProductID: it.ProductID, Quantity: it.Quantity, TaxCategoryID: it.TaxCategoryID,
			IsDigital: it.IsDigital, Title: it.Title, SKU: it.SKU,
			UnitPrice: a.parse("items["+itoa(i)+"].unit_price", it.UnitPrice)}
	}
	return q, a.err()
}

func itoa(i int) string { return strconv.Itoa(i) }

type lineJSON struct {
	ItemID        string  `json:"item_id"`
	TaxableAmount string  `json:"taxable_amount"`
	TaxAmount     string  `json:"tax_amount"`
	TaxRate       string  `json:"tax_rate"`
	TaxRateID     *string `json:"tax_rate_id"`
	TaxZoneID     *string `json:"tax_zone_id"`
	ReverseCharge *bool   `json:"reverse_charge,omitempty"`
}

type calculationJSON struct {
	LineItems            []lineJSON         `json:"line_items"`
	ShippingTax          string             `json:"shipping_tax"`
	TotalTax             string             `json:"total_tax"`
	TaxBreakdown         []api.BreakdownRow `json:"tax_breakdown"`
	Currency             string             `json:"currency"`
	TaxIncluded          bool               `json:"tax_included"`
	ReverseChargeApplied bool               `json:"reverse_charge_applied"`
	VATIDValid           *bool              `json:"vat_id_valid,omitempty"`
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func toCalculation(r api.Result) calculationJSON {
	cur := r.Currency
	out := calculationJSON{ShippingTax: money.Format(r.ShippingTax, cur), TotalTax: money.Format(r.TotalTax, cur), Currency: cur,
		TaxIncluded: r.TaxIncluded, ReverseChargeApplied: r.ReverseChargeApplied, VATIDValid: r.VATIDValid,
		LineItems: make([]lineJSON, len(r.Lines)), TaxBreakdown: make([]api.BreakdownRow, len(r.Breakdown))}
	for i, l := range r.Lines {
		out.LineItems[i] = lineJSON{ItemID: l.ItemID, TaxableAmount: money.Format(l.TaxableAmount, cur),
			TaxAmount: money.Format(l.TaxAmount, cur), TaxRate: l.TaxRate.String(), TaxRateID: optional(l.TaxRateID),
			TaxZoneID: optional(l.TaxZoneID)}
		if l.ReverseCharge {
			t := true
			out.LineItems[i].ReverseCharge = &t
		}
	}
	for i, j := range r.Breakdown {
		out.TaxBreakdown[i] = api.BreakdownRow{TaxZoneID: j.TaxZoneID, TaxZoneName: j.TaxZoneName, TaxRateID: j.TaxRateID,
			TaxRateName: j.TaxRateName, Rate: j.Rate.String(), TaxableAmount: money.Format(j.TaxableAmount, cur),
			TaxAmount: money.Format(j.TaxAmount, cur)}
	}
	return out
}

type validateVATRequest struct {
	VATID string `json:"vat_id" binding:"required"`
}

type validationJSON struct {
	VATID           string    `json:"vat_id"`
	CountryCode     string    `json:"country_code"`
	IsValid         bool      `json:"is_valid"`
	BusinessName    *string   `json:"business_name"`
	BusinessAddress *string   `json:"business_address"`
	ValidatedAt     time.Time `json:"validated_at"`
}

func toValidation(v app.VATValidation) validationJSON {
	return validationJSON{VATID: v.VATID, CountryCode: v.CountryCode, IsValid: v.Valid, BusinessName: optional(v.Name),
		BusinessAddress: optional(v.Address), ValidatedAt: v.ValidatedAt.UTC()}
}

type shippingRequest struct {
	ShippingAmount  string       `json:"shipping_amount" binding:"required"`
	ShippingAddress *addressJSON `json:"shipping_address" binding:"required"`
	Currency        string       `json:"currency" binding:"required"`
	TaxIncluded     *bool        `json:"tax_included"`
}

func (r *shippingRequest) query() (app.ShippingQuery, error) {
	a := newAmounts(r.Currency)
	q := app.ShippingQuery{Address: r.ShippingAddress.api(), Currency: a.currency, TaxIncluded: r.TaxIncluded}
	q.Amount = a.parse("shipping_amount", r.ShippingAmount)
	return q, a.err()
}

type shippingJSON struct {
	ShippingAmount string `json:"shipping_amount"`
	ShippingTax    string `json:"shipping_tax"`
	TaxRate        string `json:"tax_rate"`
	TotalWithTax   string `json:"total_with_tax"`
	Currency       string `json:"currency"`
}

func toShipping(s app.ShippingTax) shippingJSON {
	return shippingJSON{ShippingAmount: money.Format(s.Amount, s.Currency), ShippingTax: money.Format(s.Tax, s.Currency),
		TaxRate: s.Rate.String(), TotalWithTax: money.Format(s.TotalWithTax, s.Currency), Currency: s.Currency}
}

type ossRequest struct {
	Scheme      string `json:"scheme" binding:"required"`
	Period      string `json:"period" binding:"required"`
	MemberState string `json:"member_state" binding:"required"`
}

type ossRowJSON struct {
	CountryCode      string `json:"country_code"`
	CountryName      string `json:"country_name,omitempty"`
	VATRate          string `json:"vat_rate"`
	TaxableAmount    string `json:"taxable_amount"`
	VATAmount        string `json:"vat_amount"`
	TransactionCount int    `json:"transaction_count"`
}

type ossJSON struct {
	Scheme       string       `json:"scheme"`
	Period       string       `json:"period"`
	MemberState  string       `json:"member_state"`
	Transactions []ossRowJSON `json:"transactions"`
	Summary      struct {
		TotalTaxableAmount string       `json:"total_taxable_amount"`
		TotalVATAmount     string       `json:"total_vat_amount"`
		TotalTransactions  int          `json:"total_transactions"`
		ByCountry          []ossRowJSON `json:"by_country"`
	} `json:"summary"`
}

func toOSS(r app.OSSReport) ossJSON {
	out := ossJSON{Scheme: r.Scheme, Period: r.Period, MemberState: r.MemberState,
		Transactions: make([]ossRowJSON, len(r.Rows))}
	out.Summary.ByCountry = make([]ossRowJSON, len(r.Rows))
	for i, row := range r.Rows {
		j := ossRowJSON{CountryCode: row.CountryCode, VATRate: row.Rate.String(), TaxableAmount: row.Taxable.StringFixed(2),
			VATAmount: row.VAT.StringFixed(2), TransactionCount: row.Transactions}
		out.Transactions[i] = j
		j.CountryName = row.CountryName
		out.Summary.ByCountry[i] = j
	}
	out.Summary.TotalTaxableAmount, out.Summary.TotalVATAmount = r.TotalTaxable.StringFixed(2), r.TotalVAT.StringFixed(2)
	out.Summary.TotalTransactions = r.TotalTransactions
	return out
}

type categoryJSON struct {
	ID            string `json:"id"`
	Name          string `json:"name"`
	Code          string `json:"code"`
	Description   string `json:"description"`
	IsDigital     bool   `json:"is_digital"`
	IsFood        bool   `json:"is_food"`
	IsLuxury      bool   `json:"is_luxury"`
	IsMedical     bool   `json:"is_medical"`
	IsEducational bool   `json:"is_educational"`
}

func toCategory(c *domain.Category) categoryJSON {
	return categoryJSON{ID: c.ID, Name: c.Name, Code: c.Code, Description: c.Description, IsDigital: c.IsDigital,
		IsFood: c.IsFood, IsLuxury: c.IsLuxury, IsMedical: c.IsMedical, IsEducational: c.IsEducational}
}

// zoneJSON is the tax zone resource.
type zoneJSON struct {
	zoneRefJSON
	RegionCode *string   `json:"region_code"`
	ZoneType   string    `json:"zone_type"`
	CreatedAt  time.Time `json:"created_at"`
	UpdatedAt  time.Time `json:"updated_at"`
}

func toZone(z *domain.Zone) zoneJSON {
	return zoneJSON{zoneRefJSON: toZoneRef(z), RegionCode: optional(z.RegionCode), ZoneType: z.ZoneType,
		CreatedAt: z.CreatedAt.UTC(), UpdatedAt: z.UpdatedAt.UTC()}
}

// rateFields are the members a rate shows everywhere.
type rateFields struct {
	ID            string  `json:"id"`
	Name          string  `json:"name"`
	Rate          string  `json:"rate"`
	RateType      string  `json:"rate_type"`
	IsVAT         bool    `json:"is_vat"`
	VATType       *string `json:"vat_type"`
	B2BExempt     bool    `json:"b2b_exempt"`
	ReverseCharge bool    `json:"reverse_charge"`
	ValidFrom     string  `json:"valid_from"`
	ValidUntil    *string `json:"valid_until"`
}

func fieldsOf(r *domain.Rate) rateFields {
	return rateFields{ID: r.ID, Name: r.Name, Rate: r.Rate.String(), RateType: r.RateType, IsVAT: r.IsVAT,
		VATType: optional(r.VATType), B2BExempt: r.B2BExempt, ReverseCharge: r.ReverseCharge, ValidFrom: r.ValidFrom,
		ValidUntil: optional(r.ValidUntil)}
}

// rateJSON is the tax rate resource (admin create).
type rateJSON struct {
	rateFields
	TaxZoneID     string    `json:"tax_zone_id"`
	TaxCategoryID *string   `json:"tax_category_id"`
	Priority      int       `json:"priority"`
	CreatedAt     time.Time `json:"created_at"`
	UpdatedAt     time.Time `json:"updated_at"`
}

func toRate(r *domain.Rate) rateJSON {
	return rateJSON{rateFields: fieldsOf(r), TaxZoneID: r.ZoneID, TaxCategoryID: optional(r.CategoryID), Priority: r.Priority,
		CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC()}
}

// zoneRefJSON is a zone as a rate in GET /tax/rates names it.
type zoneRefJSON struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Code        string `json:"code"`
	CountryCode string `json:"country_code"`
}

// rateListItem is a rate in GET /tax/rates.
type rateListItem struct {
	rateFields
	TaxZone     zoneRefJSON   `json:"tax_zone"`
	TaxCategory *categoryJSON `json:"tax_category"`
}

func toRateListItem(v app.RateView) rateListItem {
	out := rateListItem{rateFields: fieldsOf(v.Rate), TaxZone: toZoneRef(v.Zone)}
	if v.Category != nil {
		c := toCategory(v.Category)
		out.TaxCategory = &c
	}
	return out
}

func toZoneRef(z *domain.Zone) zoneRefJSON {
	return zoneRefJSON{ID: z.ID, Name: z.Name, Code: z.Code, CountryCode: z.CountryCode}
}

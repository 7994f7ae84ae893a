package http

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/orders/api"
	"github.com/gocommerce/commerce/modules/orders/app"
	"github.com/gocommerce/commerce/modules/orders/domain"
	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/httpx"
)

// addressRequest is Part 2's address shape plus the names other platforms use.
type addressRequest struct {
	api.Address
	Province    string `json:"province"`     // Shopify's name for state
	CountryCode string `json:"country_code"` // accepted for country
}

func (a *addressRequest) toAPI() *api.Address {
	if a == nil {
		return nil
	}
	state, country := a.State, a.Country
	if state == "" {
		state = a.Province
	}
	if country == "" {
		country = a.CountryCode
	}
	trim := strings.TrimSpace
	return &api.Address{
		FirstName: trim(a.FirstName), LastName: trim(a.LastName), Company: trim(a.Company), Phone: trim(a.Phone),
		Address1: trim(a.Address1), Address2: trim(a.Address2), City: trim(a.City), State: trim(state),
		Country: strings.ToUpper(trim(country)), Zip: trim(a.Zip),
	}
}

// optAddress tells an absent address (Set false) from null (Set, Value nil).
type optAddress struct {
	Set   bool
	Value *addressRequest
}

func (o *optAddress) UnmarshalJSON(b []byte) error {
	o.Set = true
	if string(bytes.TrimSpace(b)) == "null" {
		o.Value = nil
		return nil
	}
	var a addressRequest
	if err := json.Unmarshal(b, &a); err != nil {
		return &json.UnmarshalTypeError{Value: "address", Type: reflect.TypeOf(a), Field: "address"}
	}
	o.Value = &a
	return nil
}

func (o optAddress) patch() **domain.Address {
	if !o.Set {
		return nil
	}
	a := app.FromAddress(o.Value.toAPI())
	return &a
}

type lineItemRequest struct {
	ProductID string  `json:"product_id"`
	VariantID string  `json:"variant_id"`
	Quantity  *int    `json:"quantity"`
	Price     *string `json:"price"`
}

type shippingLineRequest struct {
	Title  string `json:"title"`
	Price  string `json:"price"`
	Code   string `json:"code"`
	Source string `json:"source"`
}

type taxLineRequest struct {
	Title string          `json:"title"`
	Rate  json.RawMessage `json:"rate"` // "0.2" or 0.2
	Price string          `json:"price"`
}

type discountCodeRequest struct {
	Code   string `json:"code"`
	Amount string `json:"amount"`
	Type   string `json:"type"`
}

type customerRef struct {
	ID    string `json:"id"`
	Email string `json:"email"`
}

type createOrderRequest struct {
	Email              string                `json:"email"`
	Phone              string                `json:"phone"`
	CustomerID         string                `json:"customer_id"`
	Customer           *customerRef          `json:"customer"`
	Currency           string                `json:"currency"`
	LineItems          []lineItemRequest     `json:"line_items"`
	ShippingAddress    *addressRequest       `json:"shipping_address"`
	BillingAddress     *addressRequest       `json:"billing_address"`
	ShippingLines      []shippingLineRequest `json:"shipping_lines"`
	TaxLines           []taxLineRequest      `json:"tax_lines"`
	DiscountCodes      []discountCodeRequest `json:"discount_codes"`
	Note               string                `json:"note"`
	NoteAttributes     map[string]any        `json:"note_attributes"`
	Tags               httpx.Tags            `json:"tags"`
	Metafields         map[string]any        `json:"metafields"`
	SourceName         string                `json:"source_name"`
	CartToken          string                `json:"cart_token"`
	CheckoutToken      string                `json:"checkout_token"`
	ReferringSite      string                `json:"referring_site"`
	LandingSite        string                `json:"landing_site"`
	ClientDetails      *api.ClientDetails    `json:"client_details"`
	SendReceipt        bool                  `json:"send_receipt"`
	InventoryBehaviour string                `json:"inventory_behaviour"`
	ProcessedAt        *time.Time            `json:"processed_at"`
}

func rate(raw json.RawMessage) (string, bool) {
	s := strings.TrimSpace(string(raw))
	if s == "" || s == "null" {
		return "", true
	}
	if s[0] == '"' {
		var v string
		if json.Unmarshal(raw, &v) != nil {
			return "", false
		}
		return v, true
	}
	d, err := decimal.NewFromString(s)
	if err != nil {
		return "", false
	}
	return d.String(), true
}

// Input converts the body to the create command (httpx.Input).
func (r createOrderRequest) Input() (api.CreateOrderCommand, error) {
	cmd := api.CreateOrderCommand{
		CustomerID: strings.TrimSpace(r.CustomerID), Email: r.Email, Phone: r.Phone, Currency: r.Currency,
		ShippingAddress: r.ShippingAddress.toAPI(), BillingAddress: r.BillingAddress.toAPI(),
		Note: r.Note, NoteAttributes: r.NoteAttributes, Tags: r.Tags, Metafields: r.Metafields, SourceName: r.SourceName,
		CartToken: r.CartToken, CheckoutToken: r.CheckoutToken, ReferringSite: r.ReferringSite, LandingSite: r.LandingSite,
		ClientDetails: r.ClientDetails, SendReceipt: r.SendReceipt, InventoryBehaviour: r.InventoryBehaviour, ProcessedAt: r.ProcessedAt,
	}
	if r.Customer != nil {
		if cmd.CustomerID == "" {
			cmd.CustomerID = strings.TrimSpace(r.Customer.ID)
		}
		if cmd.Email == "" {
			cmd.Email = r.Customer.Email
		}
	}
	fields := map[string]string{}
	if r.LineItems == nil {
		fields["line_items"] = "is required"
	}
	for i, li := range r.LineItems {
		in := api.LineItemInput{ProductID: strings.TrimSpace(li.ProductID), VariantID: strings.TrimSpace(li.VariantID)}
		if li.Quantity == nil {
			fields[fmt.Sprintf("line_items[%d].quantity", i)] = "is required"
		} else {
			in.Quantity = *li.Quantity
		}
		if li.Price != nil {
			in.Price = *li.Price
			if strings.TrimSpace(in.Price) == "" {
				fields[fmt.Sprintf("line_items[%d].price", i)] = "must be a decimal string"
			}
		}
		cmd.LineItems = append(cmd.LineItems, in)
	}
	for _, s := range r.ShippingLines {
		cmd.ShippingLines = append(cmd.ShippingLines, api.ShippingLineInput{Title: s.Title, Price: s.Price, Code: s.Code, Source: s.Source})
	}
	for i, t := range r.TaxLines {
		rt, ok := rate(t.Rate)
		if !ok {
			fields[fmt.Sprintf("tax_lines[%d].rate", i)] = "must be a decimal fraction such as \"0.2\""
		}
		cmd.TaxLines = append(cmd.TaxLines, api.TaxLineInput{Title: t.Title, Rate: rt, Price: t.Price})
	}
	for _, d := range r.DiscountCodes {
		cmd.DiscountCodes = append(cmd.DiscountCodes, api.DiscountCodeInput{Code: d.Code, Amount: d.Amount, Type: d.Type})
	}
	if len(fields) > 0 {
		return cmd, apperr.Validation(fields)
	}
	return cmd, nil
}

type updateOrderRequest struct {
	Email           *string         `json:"email"`
	Phone           *string         `json:"phone"`
	Note            *string         `json:"note"`
	NoteAttributes  *map[string]any `json:"note_attributes"`
	Tags            *httpx.Tags     `json:"tags"`
	ShippingAddress optAddress      `json:"shipping_address"`
	BillingAddress  optAddress      `json:"billing_address"`
	Metafields      *map[string]any `json:"metafields"`
}

func (r updateOrderRequest) patch() domain.Patch {
	p := domain.Patch{
		Email: r.Email, Phone: r.Phone, Note: r.Note, NoteAttributes: r.NoteAttributes, Metafields: r.Metafields,
		ShippingAddress: r.ShippingAddress.patch(), BillingAddress: r.BillingAddress.patch(),
	}
	if r.Tags != nil {
		tags := []string(*r.Tags)
		p.Tags = &tags
	}
	return p
}

type cancelRequest struct {
	Reason         string `json:"reason"`
	Restock        bool   `json:"restock"`
	NotifyCustomer bool   `json:"notify_customer"`
}

type changeLineItemRequest struct {
	Quantity *int    `json:"quantity"`
	Price    *string `json:"price"`
}

type fulfillmentLineRequest struct {
	ID       string `json:"id"`
	Quantity *int   `json:"quantity"`
}

type fulfillmentRequest struct {
	LocationID      string                   `json:"location_id"`
	LineItems       []fulfillmentLineRequest `json:"line_items"`
	TrackingNumber  *string                  `json:"tracking_number"`
	TrackingCompany *string                  `json:"tracking_company"`
	TrackingURL     *string                  `json:"tracking_url"`
	NotifyCustomer  *bool                    `json:"notify_customer"`
}

func (r fulfillmentRequest) tracking() domain.Tracking {
	return domain.Tracking{Number: r.TrackingNumber, Company: r.TrackingCompany, URL: r.TrackingURL, NotifyCustomer: r.NotifyCustomer}
}

// Input converts the body to the fulfillment command (httpx.Input).
func (r fulfillmentRequest) Input() (app.FulfillCommand, error) {
	cmd := app.FulfillCommand{LocationID: strings.TrimSpace(r.LocationID), Tracking: r.tracking()}
	for i, l := range r.LineItems {
		if strings.TrimSpace(l.ID) == "" {
			return cmd, apperr.Validation(map[string]string{fmt.Sprintf("line_items[%d].id", i): "is required"})
		}
		q := 0
		if l.Quantity != nil {
			q = *l.Quantity
			if q <= 0 {
				return cmd, domain.ErrInvalidQuantity
			}
		}
		cmd.Lines = append(cmd.Lines, domain.FulfillmentLine{LineItemID: strings.TrimSpace(l.ID), Quantity: q})
	}
	return cmd, nil
}

type noteRequest struct {
	Body           string `json:"body"`
	Author         string `json:"author"`
	NotifyCustomer bool   `json:"notify_customer"`
}

// refundShippingRequest is the refund's shipping: the spec's string "full", or an
// object {full_refund: true} ({full: true} accepted) or {amount}.
type refundShippingRequest struct {
	FullRefund bool    `json:"full_refund"`
	Full       bool    `json:"full"`
	Amount     *string `json:"amount"`
	// invalid holds a string other than "full" (reported by input, naming shipping).
	invalid bool
}

func (r *refundShippingRequest) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case len(b) > 0 && b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*r = refundShippingRequest{FullRefund: s == "full", invalid: s != "full"}
		return nil
	case len(b) == 0 || b[0] != '{':
		*r = refundShippingRequest{invalid: true}
		return nil
	}
	type plain refundShippingRequest
	var p plain
	// A bad member is an UnmarshalTypeError the decoder names under shipping.
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*r = refundShippingRequest(p)
	return nil
}

type refundLineRequest struct {
	LineItemID string `json:"line_item_id"`
	Quantity   *int   `json:"quantity"`
	Restock    bool   `json:"restock"`
}

type refundTransactionRequest struct {
	ParentID string `json:"parent_id"`
	Amount   string `json:"amount"`
	Kind     string `json:"kind"`
	Gateway  string `json:"gateway"`
}

type refundRequest struct {
	Note            string                      `json:"note"`
	NotifyCustomer  bool                        `json:"notify_customer"`
	Shipping        *refundShippingRequest      `json:"shipping"`
	RefundLineItems []refundLineRequest         `json:"refund_line_items"`
	Transactions    *[]refundTransactionRequest `json:"transactions"`
}

// input converts the body; amounts are read in the order's currency by the use case.
// Input converts the body to the refund input (httpx.Input).
func (r refundRequest) Input() (app.RefundInput, error) {
	out := app.RefundInput{Note: r.Note, NotifyCustomer: r.NotifyCustomer}
	for i, l := range r.RefundLineItems {
		if strings.TrimSpace(l.LineItemID) == "" {
			return out, apperr.Validation(map[string]string{fmt.Sprintf("refund_line_items[%d].line_item_id", i): "is required"})
		}
		if l.Quantity == nil {
			return out, apperr.Validation(map[string]string{fmt.Sprintf("refund_line_items[%d].quantity", i): "is required"})
		}
		out.Lines = append(out.Lines, domain.RefundLineRequest{LineItemID: strings.TrimSpace(l.LineItemID), Quantity: *l.Quantity, Restock: l.Restock})
	}
	if r.Shipping != nil {
		if r.Shipping.invalid {
			return out, apperr.Validation(map[string]string{"shipping": `must be "full" or an object such as {"full_refund": true} or {"amount": "5.00"}`})
		}
		out.FullShipping = r.Shipping.FullRefund || r.Shipping.Full
		out.ShippingAmount = r.Shipping.Amount
	}
	if r.Transactions != nil {
		list := []app.RefundTransactionInput{}
		for i, t := range *r.Transactions {
			if k := strings.TrimSpace(t.Kind); k != "" && k != "refund" && k != "suggested_refund" {
				return out, apperr.Validation(map[string]string{fmt.Sprintf("transactions[%d].kind", i): "must be refund"})
			}
			list = append(list, app.RefundTransactionInput{ParentID: strings.TrimSpace(t.ParentID), Amount: t.Amount})
		}
		out.Transactions = &list
	}
	return out, nil
}

type transactionRequest struct {
	Kind     string `json:"kind"`
	Amount   string `json:"amount"`
	Gateway  string `json:"gateway"`
	ParentID string `json:"parent_id"`
}

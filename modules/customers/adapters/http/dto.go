package http

import (
	"encoding/json"
	"time"

	"github.com/gocommerce/commerce/modules/customers/api"
	"github.com/gocommerce/commerce/modules/customers/app"
	"github.com/gocommerce/commerce/modules/customers/domain"
	"github.com/gocommerce/commerce/modules/customers/ports"
	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/httpx"
	"github.com/gocommerce/commerce/platform/patch"
)

type addressRequest struct {
	FirstName         *string `json:"first_name"`
	LastName          *string `json:"last_name"`
	Company           *string `json:"company"`
	Phone             *string `json:"phone"`
	Address1          *string `json:"address1"`
	Address2          *string `json:"address2"`
	City              *string `json:"city"`
	State             *string `json:"state"`
	Province          *string `json:"province"` // Shopify's name for state
	Country           *string `json:"country"`
	CountryCode       *string `json:"country_code"` // accepted for country
	Zip               *string `json:"zip"`
	IsDefaultShipping *bool   `json:"is_default_shipping"`
	IsDefaultBilling  *bool   `json:"is_default_billing"`
}

func (r addressRequest) input() app.AddressInput {
	state := r.State
	if state == nil {
		state = r.Province
	}
	country := r.Country
	if country == nil {
		country = r.CountryCode
	}
	return app.AddressInput{
		Fields: domain.AddressPatch{
			FirstName: r.FirstName, LastName: r.LastName, Company: r.Company, Phone: r.Phone, Address1: r.Address1,
			Address2: r.Address2, City: r.City, Province: state, Country: country, Zip: r.Zip,
		},
		DefaultShipping: r.IsDefaultShipping,
		DefaultBilling:  r.IsDefaultBilling,
	}
}

type createCustomerRequest struct {
	Email                *string          `json:"email"`
	Phone                *string          `json:"phone"`
	FirstName            *string          `json:"first_name"`
	LastName             *string          `json:"last_name"`
	AcceptsMarketing     *bool            `json:"accepts_marketing"`
	TaxExempt            *bool            `json:"tax_exempt"`
	TaxExemptions        *[]string        `json:"tax_exemptions"`
	Currency             *string          `json:"currency"`
	Language             *string          `json:"language"`
	Note                 *string          `json:"note"`
	Tags                 *httpx.Tags      `json:"tags"`
	VerifiedEmail        *bool            `json:"verified_email"`
	Metafields           *map[string]any  `json:"metafields"`
	Password             *string          `json:"password"`
	PasswordConfirmation *string          `json:"password_confirmation"`
	Addresses            []addressRequest `json:"addresses"`
	SendEmailInvite      *bool            `json:"send_email_invite"`
}

func deref[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// Input is the create command; email is required (httpx.Input).
func (r createCustomerRequest) Input() (app.CreateCommand, error) {
	if r.Email == nil {
		return app.CreateCommand{}, apperr.Validation(map[string]string{"email": "is required"})
	}
	return r.command(), nil
}

func (r createCustomerRequest) command() app.CreateCommand {
	d := domain.Draft{
		Email: deref(r.Email), Phone: deref(r.Phone), FirstName: deref(r.FirstName), LastName: deref(r.LastName),
		AcceptsMarketing: deref(r.AcceptsMarketing), TaxExempt: deref(r.TaxExempt), TaxExemptions: deref(r.TaxExemptions),
		Currency: deref(r.Currency), Language: deref(r.Language), Note: deref(r.Note), Metafields: deref(r.Metafields),
	}
	if t := r.Tags.Slice(); t != nil {
		d.Tags = *t
	}
	cmd := app.CreateCommand{
		Draft: d, VerifiedEmail: r.VerifiedEmail, Password: r.Password, PasswordConfirmation: r.PasswordConfirmation,
		SendEmailInvite: r.SendEmailInvite,
	}
	for _, a := range r.Addresses {
		cmd.Addresses = append(cmd.Addresses, a.input())
	}
	return cmd
}

// updateCommand reads PUT/PATCH /customers/{id} (platform/patch, read with IgnoreNulls:
// a customer's fields are never null, so a null member leaves its field as it is).
func updateCommand(b *patch.Body) app.UpdateCommand {
	cmd := app.UpdateCommand{Patch: domain.Patch{
		Email: b.String("email"), Phone: b.String("phone"), FirstName: b.String("first_name"), LastName: b.String("last_name"),
		AcceptsMarketing: b.Bool("accepts_marketing"), TaxExempt: b.Bool("tax_exempt"), TaxExemptions: b.Strings("tax_exemptions"),
		Currency: b.String("currency"), Language: b.String("language"), Note: b.String("note"), Tags: tags(b),
		VerifiedEmail: b.Bool("verified_email"), Metafields: b.Object("metafields"),
	}}
	if st := b.String("state"); st.HasValue() {
		state := domain.State(st.Value)
		cmd.State = &state
	}
	return cmd
}

// tags reads tags as httpx.Tags does: an array of strings or one comma-separated string.
func tags(b *patch.Body) patch.Field[[]string] {
	return patch.Get(b, "tags", "an array of strings or a comma-separated string", func(raw json.RawMessage) ([]string, bool) {
		var t httpx.Tags
		if t.UnmarshalJSON(raw) != nil {
			return nil, false
		}
		return *t.Slice(), true
	})
}

type activateRequest struct {
	ActivationToken      string  `json:"activation_token" binding:"required"`
	Password             string  `json:"password" binding:"required"`
	PasswordConfirmation *string `json:"password_confirmation"`
}

type resetPasswordRequest struct {
	ResetToken           string  `json:"reset_token" binding:"required"`
	Password             string  `json:"password" binding:"required"`
	PasswordConfirmation *string `json:"password_confirmation"`
}

type recoverRequest struct {
	Email string `json:"email" binding:"required"`
}

type defaultAddressRequest struct {
	Type string `json:"type"`
}

type searchRequest struct {
	Query   string `json:"query"`
	Filters struct {
		AcceptsMarketing *bool       `json:"accepts_marketing"`
		MinOrders        *int        `json:"min_orders"`
		MinTotalSpent    *string     `json:"min_total_spent"`
		Tags             *httpx.Tags `json:"tags"`
		State            *string     `json:"state"`
		Email            *string     `json:"email"`
		Phone            *string     `json:"phone"`
		CreatedAfter     *string     `json:"created_after"`
		CreatedBefore    *string     `json:"created_before"`
		UpdatedAfter     *string     `json:"updated_after"`
	} `json:"filters"`
	Sort struct {
		Field string `json:"field"`
		Order string `json:"order"`
	} `json:"sort"`
	Page    *int `json:"page"`
	PerPage *int `json:"per_page"`
}

type segmentRequest struct {
	Name  string         `json:"name" binding:"required"`
	Query map[string]any `json:"query" binding:"required"`
}

// customerResponse is the customer resource: api.Customer, whose addresses, orders
// and metafields appear on request (include) and in write responses. Its timestamps
// are declared again so that they stay the last members, in UTC.
type customerResponse struct {
	api.Customer
	Addresses  *[]api.Address          `json:"addresses,omitempty"`
	Orders     *[]orderSummaryResponse `json:"orders,omitempty"`
	Metafields *map[string]any         `json:"metafields,omitempty"`
	CreatedAt  time.Time               `json:"created_at"`
	UpdatedAt  time.Time               `json:"updated_at"`
}

// include names the optional members of a customer response.
type include struct {
	addresses, orders, metafields bool
}

var includeAll = include{addresses: true, metafields: true}

func toCustomerResponse(c api.Customer, inc include, orders []ports.OrderSummary) customerResponse {
	out := customerResponse{Customer: c, CreatedAt: c.CreatedAt.UTC(), UpdatedAt: c.UpdatedAt.UTC()}
	out.TaxExemptions, out.Tags = nonNil(c.TaxExemptions), nonNil(c.Tags)
	if inc.addresses {
		list := append(make([]api.Address, 0, len(c.Addresses)), c.Addresses...)
		out.Addresses = &list
	}
	if inc.metafields {
		m := c.Metafields
		if m == nil {
			m = map[string]any{}
		}
		out.Metafields = &m
	}
	if inc.orders {
		list := make([]orderSummaryResponse, 0, len(orders))
		for _, o := range orders {
			list = append(list, toOrderSummary(o))
		}
		out.Orders = &list
	}
	return out
}

// customerSummary is a customer in lists.
type customerSummary struct {
	ID                string       `json:"id"`
	Email             string       `json:"email"`
	Phone             string       `json:"phone"`
	FirstName         string       `json:"first_name"`
	LastName          string       `json:"last_name"`
	State             string       `json:"state"`
	AcceptsMarketing  bool         `json:"accepts_marketing"`
	VerifiedEmail     bool         `json:"verified_email"`
	Tags              []string     `json:"tags"`
	Currency          string       `json:"currency"`
	Language          string       `json:"language"`
	OrdersCount       int          `json:"orders_count"`
	TotalSpent        string       `json:"total_spent"`
	AverageOrderValue string       `json:"average_order_value"`
	LastOrderID       *string      `json:"last_order_id"`
	LastOrderName     *string      `json:"last_order_name"`
	DefaultAddress    *api.Address `json:"default_address"`
	CreatedAt         time.Time    `json:"created_at"`
	UpdatedAt         time.Time    `json:"updated_at"`
}

func toSummary(c api.Customer) customerSummary {
	return customerSummary{
		ID: c.ID, Email: c.Email, Phone: c.Phone, FirstName: c.FirstName, LastName: c.LastName, State: c.State,
		AcceptsMarketing: c.AcceptsMarketing, VerifiedEmail: c.VerifiedEmail, Tags: nonNil(c.Tags), Currency: c.Currency,
		Language: c.Language, OrdersCount: c.OrdersCount, TotalSpent: c.TotalSpent, AverageOrderValue: c.AverageOrderValue,
		LastOrderID: c.LastOrderID, LastOrderName: c.LastOrderName, DefaultAddress: c.DefaultAddress,
		CreatedAt: c.CreatedAt.UTC(), UpdatedAt: c.UpdatedAt.UTC(),
	}
}

type orderSummaryResponse struct {
	ID                string    `json:"id"`
	OrderNumber       string    `json:"order_number"`
	Email             string    `json:"email"`
	TotalPrice        string    `json:"total_price"`
	Currency          string    `json:"currency"`
	Status            string    `json:"status"`
	FinancialStatus   string    `json:"financial_status"`
	FulfillmentStatus string    `json:"fulfillment_status"`
	CreatedAt         time.Time `json:"created_at"`
	UpdatedAt         time.Time `json:"updated_at"`
}

func toOrderSummary(o ports.OrderSummary) orderSummaryResponse {
	return orderSummaryResponse{
		ID: o.ID, OrderNumber: o.OrderNumber, Email: o.Email, TotalPrice: domain.FormatMoney(o.TotalPrice, o.Currency),
		Currency: o.Currency, Status: o.Status, FinancialStatus: o.FinancialStatus, FulfillmentStatus: o.FulfillmentStatus,
		CreatedAt: o.CreatedAt.UTC(), UpdatedAt: o.UpdatedAt.UTC(),
	}
}

type segmentResponse struct {
	ID        string         `json:"id"`
	Name      string         `json:"name"`
	Query     map[string]any `json:"query"`
	CreatedAt time.Time      `json:"created_at"`
	UpdatedAt time.Time      `json:"updated_at"`
}

func toSegmentResponse(s app.Segment) segmentResponse {
	return segmentResponse{ID: s.ID, Name: s.Name, Query: s.Query, CreatedAt: s.CreatedAt.UTC(), UpdatedAt: s.UpdatedAt.UTC()}
}

type exportResponse struct {
	ExportedAt    time.Time           `json:"exported_at"`
	Customer      customerResponse    `json:"customer"`
	Addresses     []api.Address       `json:"addresses"`
	Consents      consentsResponse    `json:"consents"`
	Account       accountResponse     `json:"account"`
	OrderStats    []orderFactResponse `json:"order_stats"`
	Orders        []ports.Record      `json:"orders"`
	Carts         []ports.Record      `json:"carts"`
	Subscriptions []ports.Record      `json:"subscriptions"`
	Notifications []ports.Record      `json:"notifications"`
	PrivacyAudit  []auditResponse     `json:"privacy_audit"`
}

type consentsResponse struct {
	AcceptsMarketing bool       `json:"accepts_marketing"`
	MarketingOptInAt *time.Time `json:"marketing_opt_in_at"`
}

type accountResponse struct {
	State         string          `json:"state"`
	HasPassword   bool            `json:"has_password"`
	VerifiedEmail bool            `json:"verified_email"`
	AnonymizedAt  *time.Time      `json:"anonymized_at"`
	PendingTokens []tokenResponse `json:"pending_tokens"`
}

type tokenResponse struct {
	Purpose   string    `json:"purpose"`
	CreatedAt time.Time `json:"created_at"`
	ExpiresAt time.Time `json:"expires_at"`
}

type orderFactResponse struct {
	OrderID         string    `json:"order_id"`
	OrderNumber     string    `json:"order_number"`
	TotalPrice      string    `json:"total_price"`
	Currency        string    `json:"currency"`
	Status          string    `json:"status"`
	FinancialStatus string    `json:"financial_status"`
	CreatedAt       time.Time `json:"created_at"`
	UpdatedAt       time.Time `json:"updated_at"`
}

type auditResponse struct {
	Action    string    `json:"action"`
	Actor     string    `json:"actor"`
	ActorKind string    `json:"actor_kind"`
	CreatedAt time.Time `json:"created_at"`
}

func toExportResponse(e app.Export) exportResponse {
	out := exportResponse{
		ExportedAt: e.ExportedAt.UTC(),
		Customer:   toCustomerResponse(e.Customer, includeAll, nil),
		Addresses:  append(make([]api.Address, 0, len(e.Customer.Addresses)), e.Customer.Addresses...),
		Consents:   consentsResponse{AcceptsMarketing: e.Consents.AcceptsMarketing, MarketingOptInAt: e.Consents.MarketingOptInAt},
		Account: accountResponse{State: e.Account.State, HasPassword: e.Account.HasPassword, VerifiedEmail: e.Account.VerifiedEmail,
			AnonymizedAt: e.Account.AnonymizedAt, PendingTokens: []tokenResponse{}},
		OrderStats:    []orderFactResponse{},
		Orders:        nonNilRecords(e.Orders),
		Carts:         nonNilRecords(e.Carts),
		Subscriptions: nonNilRecords(e.Subscriptions),
		Notifications: nonNilRecords(e.Notifications),
		PrivacyAudit:  []auditResponse{},
	}
	for _, t := range e.Account.PendingTokens {
		out.Account.PendingTokens = append(out.Account.PendingTokens, tokenResponse{Purpose: string(t.Purpose), CreatedAt: t.CreatedAt.UTC(), ExpiresAt: t.ExpiresAt.UTC()})
	}
	for _, f := range e.OrderFacts {
		out.OrderStats = append(out.OrderStats, orderFactResponse{
			OrderID: f.OrderID, OrderNumber: f.OrderNumber, TotalPrice: domain.FormatMoney(f.TotalPrice, f.Currency), Currency: f.Currency,
			Status: f.Status, FinancialStatus: f.FinancialStatus, CreatedAt: f.CreatedAt.UTC(), UpdatedAt: f.UpdatedAt.UTC(),
		})
	}
	for _, a := range e.PrivacyAudit {
		out.PrivacyAudit = append(out.PrivacyAudit, auditResponse{Action: string(a.Action), Actor: a.Actor, ActorKind: a.ActorKind, CreatedAt: a.CreatedAt.UTC()})
	}
	return out
}

func nonNilRecords(r []ports.Record) []ports.Record {
	if r == nil {
		return []ports.Record{}
	}
	return r
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

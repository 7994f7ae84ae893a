package app

import (
	"github.com/gocommerce/commerce/modules/customers/api"
	"github.com/gocommerce/commerce/modules/customers/domain"
	"github.com/gocommerce/commerce/platform/clock"
	"github.com/gocommerce/commerce/platform/postal"
)

// toAPI maps a customer (with its addresses, nil when not loaded, and its default
// shipping address) to the resource.
func toAPI(c *domain.Customer, addrs []*domain.Address, def *domain.Address) api.Customer {
	cur := c.Stats.Currency
	if cur == "" {
		cur = c.Currency
	}
	out := api.Customer{
		ID:                string(c.ID),
		Email:             c.Email,
		Phone:             c.Phone,
		FirstName:         c.FirstName,
		LastName:          c.LastName,
		AcceptsMarketing:  c.AcceptsMarketing,
		MarketingOptInAt:  clock.UTCPtr(c.MarketingOptInAt),
		TaxExempt:         c.TaxExempt,
		TaxExemptions:     nonNil(c.TaxExemptions),
		Currency:          c.Currency,
		Language:          c.Language,
		Note:              c.Note,
		Tags:              nonNil(c.Tags),
		VerifiedEmail:     c.VerifiedEmail,
		State:             string(c.State),
		OrdersCount:       c.Stats.OrdersCount,
		TotalSpent:        domain.FormatMoney(c.Stats.TotalSpent, cur),
		AverageOrderValue: domain.FormatMoney(c.Stats.AverageOrderValue(), cur),
		Metafields:        c.Metafields,
		CreatedAt:         c.CreatedAt.UTC(),
		UpdatedAt:         c.UpdatedAt.UTC(),
	}
	if out.Metafields == nil {
		out.Metafields = map[string]any{}
	}
	if c.Stats.LastOrderID != "" {
		id, name := c.Stats.LastOrderID, c.Stats.LastOrderName
		out.LastOrderID, out.LastOrderName = &id, &name
	}
	if def != nil {
		d := toAPIAddress(def)
		out.DefaultAddress = &d
	}
	if addrs != nil {
		out.Addresses = make([]api.Address, 0, len(addrs))
		for _, a := range addrs {
			out.Addresses = append(out.Addresses, toAPIAddress(a))
		}
	}
	return out
}

func toAPIAddress(a *domain.Address) api.Address {
	return api.Address{
		ID:         string(a.ID),
		CustomerID: string(a.CustomerID),
		Address: postal.Address{
			FirstName: a.FirstName, LastName: a.LastName, Company: a.Company, Phone: a.Phone, Address1: a.Address1,
			Address2: a.Address2, City: a.City, State: a.Province, Country: a.Country, Zip: a.Zip,
		},
		IsDefaultShipping: a.IsDefaultShipping,
		IsDefaultBilling:  a.IsDefaultBilling,
		CreatedAt:         a.CreatedAt.UTC(),
		UpdatedAt:         a.UpdatedAt.UTC(),
	}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

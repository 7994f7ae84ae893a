package app

import (
	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/shipping/api"
	"github.com/gocommerce/commerce/modules/shipping/domain"
	"github.com/gocommerce/commerce/platform/money"
)

// ToResource is the shipment as the API shows it (and the events carry it).
func ToResource(sh *domain.Shipment) api.Shipment {
	out := api.Shipment{
		ID: sh.ID, Carrier: sh.Carrier, ServiceCode: sh.ServiceCode, ServiceName: sh.ServiceName,
		TrackingNumber: sh.TrackingNumber, TrackingURL: sh.TrackingURL, LabelURL: sh.LabelURL, Status: string(sh.Status),
		Price: money.Format(sh.Price, sh.Currency), Currency: sh.Currency, Weight: measure(sh.Weight), WeightUnit: string(sh.WeightUnit),
		Dimensions: dimensions(sh.Dimensions), ShipFrom: address(sh.ShipFrom), ShipTo: address(sh.ShipTo),
		Packages: make([]api.Package, len(sh.Packages)), Options: api.Options(sh.Options), Reference: sh.Reference,
		NotifyCustomer: sh.NotifyCustomer, CreatedAt: sh.CreatedAt.UTC(), UpdatedAt: sh.UpdatedAt.UTC(),
		ShippedAt: utc(sh.ShippedAt), DeliveredAt: utc(sh.DeliveredAt), EstimatedDelivery: utc(sh.EstimatedDelivery),
	}
	if sh.OrderID != "" {
		id := sh.OrderID
		out.OrderID = &id
	}
	for i, p := range sh.Packages {
		items := make([]api.PackageItem, len(p.Items))
		for j, it := range p.Items {
			items[j] = api.PackageItem{LineItemID: it.LineItemID, Quantity: it.Quantity}
		}
		out.Packages[i] = api.Package{ID: p.ID, TrackingNumber: p.TrackingNumber, Weight: measure(p.Weight),
			WeightUnit: string(p.WeightUnit), Dimensions: dimensions(p.Dimensions), Items: items}
	}
	if c := sh.CustomsInfo; c != nil {
		ci := &api.CustomsInfo{ContentsType: c.ContentsType, CustomsCertify: c.CustomsCertify, CustomsSigner: c.CustomsSigner,
			EELPFC: c.EELPFC, NonDeliveryOption: c.NonDeliveryOption, RestrictionType: c.RestrictionType,
			CustomsItems: make([]api.CustomsItem, len(c.Items))}
		for i, it := range c.Items {
			ci.CustomsItems[i] = api.CustomsItem{Description: it.Description, Quantity: it.Quantity,
				Value: money.Format(it.Value, it.Currency), Currency: it.Currency, HSTariffNumber: it.HSTariffNumber, OriginCountry: it.OriginCountry}
		}
		out.CustomsInfo = ci
	}
	if in := sh.Insurance; in != nil {
		out.Insurance = &api.Insurance{Amount: money.Format(in.Amount, in.Currency), Currency: in.Currency, Provider: in.Provider}
	}
	return out
}

// measure writes a weight or dimension without trailing zeros ("2.5", "3").
func measure(d decimal.Decimal) string { return d.String() }

func dimensions(d *domain.Dimensions) *api.Dimensions {
	if d == nil {
		return nil
	}
	return &api.Dimensions{Length: measure(d.Length), Width: measure(d.Width), Height: measure(d.Height), Unit: string(d.Unit)}
}

func address(a domain.Address) api.Address {
	return api.Address{Name: a.Name, Company: a.Company, Phone: a.Phone, Email: a.Email, Address1: a.Address1,
		Address2: a.Address2, City: a.City, State: a.State, Country: a.Country, Zip: a.Zip, Residential: a.Residential}
}

package ratetable

import "github.com/gocommerce/commerce/modules/shipping/domain"

// price is a service's price in a zone: base + per_kg × the billable weight bracket
// (USD), and the business days in transit.
type price struct {
	base, perKg string
	days        int
}

// zones are a service's prices by zone (a zone it does not serve is missing).
type zones = map[domain.Zone]price

// table is a carrier's services with the limits they share unless they say otherwise.
type table struct {
	maxKg    string
	maxCm    [3]string
	divisor  int64
	services []service
}

// service is one row of a carrier's table.
type service struct {
	code, name, description string
	zones                   zones
	origins                 []string // countries the service ships from; nil: any
	guaranteed              bool
	customsFree             bool // only between countries without a customs border (within the EU)
	maxKg                   string
	maxCm                   [3]string // longest side first
	divisor                 int64     // cm³ per kg for the dimensional weight
}

const (
	local, domestic, regional, international = domain.ZoneLocal, domain.ZoneDomestic, domain.ZoneRegional, domain.ZoneInternational
)

// tables are the built-in rate tables, one per carrier (docs/decisions/0151). The
// prices are list-price-like figures for a store without carrier credentials.
var tables = map[string]table{
	domain.UPS: {maxKg: "70", maxCm: [3]string{"274", "150", "150"}, divisor: 5000, services: []service{
		{code: "03", name: "UPS Ground", description: "Day-definite ground delivery within one country",
			zones: zones{local: {"8.50", "0.95", 1}, domestic: {"10.20", "1.35", 4}}},
		{code: "02", name: "UPS 2nd Day Air", description: "Delivery by the end of the second business day",
			zones: zones{local: {"16.80", "2.10", 2}, domestic: {"19.40", "2.85", 2}}, guaranteed: true},
		{code: "01", name: "UPS Next Day Air", description: "Next business day delivery by 10:30 a.m.",
			zones: zones{local: {"31.50", "3.60", 1}, domestic: {"38.90", "4.80", 1}}, guaranteed: true},
		{code: "11", name: "UPS Standard", description: "Scheduled ground delivery between neighbouring countries",
			zones: zones{regional: {"18.60", "2.40", 5}}},
		{code: "08", name: "UPS Worldwide Expedited", description: "Day-definite international delivery",
			zones: zones{regional: {"42.00", "5.90", 4}, international: {"58.00", "8.40", 5}}},
		{code: "65", name: "UPS Worldwide Saver", description: "End-of-day international delivery",
			zones: zones{regional: {"55.00", "7.20", 2}, international: {"74.00", "10.50", 3}}, guaranteed: true},
	}},
	domain.FedEx: {maxKg: "68", maxCm: [3]string{"274", "150", "150"}, divisor: 5000, services: []service{
		{code: "FEDEX_GROUND", name: "FedEx Ground", description: "Cost-effective ground delivery",
			zones: zones{local: {"8.30", "0.90", 1}, domestic: {"9.90", "1.30", 4}}},
		{code: "FEDEX_2_DAY", name: "FedEx 2Day", description: "Delivery in two business days",
			zones: zones{local: {"17.10", "2.05", 2}, domestic: {"19.90", "2.80", 2}}, guaranteed: true},
		{code: "PRIORITY_OVERNIGHT", name: "FedEx Priority Overnight", description: "Next business day by 10:30 a.m.",
			zones: zones{local: {"33.20", "3.70", 1}, domestic: {"40.50", "4.95", 1}}, guaranteed: true},
		{code: "INTERNATIONAL_ECONOMY", name: "FedEx International Economy", description: "International delivery in 4 to 6 business days",
			zones: zones{regional: {"38.50", "5.40", 4}, international: {"52.00", "7.90", 6}}},
		{code: "INTERNATIONAL_PRIORITY", name: "FedEx International Priority", description: "International delivery in 1 to 3 business days",
			zones: zones{regional: {"57.00", "7.60", 2}, international: {"77.50", "11.00", 3}}, guaranteed: true},
	}},
	domain.USPS: {maxKg: "31.75", maxCm: [3]string{"108", "76", "76"}, divisor: 6000, services: []service{
		{code: "USPS_GROUND_ADVANTAGE", name: "USPS Ground Advantage", description: "Affordable delivery in 2 to 5 business days",
			zones: zones{local: {"5.40", "1.10", 2}, domestic: {"7.90", "1.60", 5}}, origins: []string{"US"}},
		{code: "PRIORITY_MAIL", name: "USPS Priority Mail", description: "Delivery in 1 to 3 business days",
			zones: zones{local: {"9.35", "1.70", 1}, domestic: {"12.60", "2.30", 3}}, origins: []string{"US"}},
		{code: "PRIORITY_MAIL_EXPRESS", name: "USPS Priority Mail Express", description: "Overnight to 2-day guaranteed delivery",
			zones: zones{local: {"28.75", "3.10", 1}, domestic: {"33.40", "4.20", 2}}, guaranteed: true, origins: []string{"US"}},
		{code: "FIRST_CLASS_PACKAGE_INTERNATIONAL", name: "USPS First-Class Package International", description: "Economical international parcels up to 2 kg",
			zones: zones{regional: {"16.50", "9.80", 10}, international: {"19.75", "12.40", 15}}, origins: []string{"US"}, maxKg: "1.81", maxCm: [3]string{"60", "45", "45"}},
		{code: "PRIORITY_MAIL_INTERNATIONAL", name: "USPS Priority Mail International", description: "International delivery in 6 to 10 business days",
			zones: zones{regional: {"34.50", "4.90", 6}, international: {"46.00", "6.80", 10}}, origins: []string{"US"}},
	}},
	domain.DHL: {maxKg: "70", maxCm: [3]string{"120", "80", "80"}, divisor: 5000, services: []service{
		{code: "N", name: "DHL Express Domestic", description: "Next possible business day within one country",
			zones: zones{local: {"14.90", "1.80", 1}, domestic: {"17.50", "2.20", 1}}, guaranteed: true},
		{code: "U", name: "DHL Express Worldwide (EU)", description: "End-of-day delivery within Europe",
			zones: zones{regional: {"29.50", "4.10", 2}}, customsFree: true},
		{code: "P", name: "DHL Express Worldwide", description: "End-of-day international delivery",
			zones: zones{regional: {"39.00", "5.60", 2}, international: {"62.00", "9.10", 3}}, guaranteed: true},
		{code: "K", name: "DHL Express 9:00", description: "Next possible business day by 9:00",
			zones: zones{regional: {"79.00", "9.80", 1}, international: {"118.00", "14.20", 2}}, guaranteed: true},
	}},
}

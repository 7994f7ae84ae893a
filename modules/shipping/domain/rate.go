package domain

import (
	"time"

	"github.com/shopspring/decimal"
)

// Carrier codes: the four carriers Part 2 supports.
const (
	UPS   = "ups"
	FedEx = "fedex"
	USPS  = "usps"
	DHL   = "dhl"
)

// Carriers lists the carrier codes in a fixed order.
var Carriers = []string{UPS, FedEx, USPS, DHL}

// ValidCarrier reports a supported carrier code.
func ValidCarrier(c string) bool {
	for _, k := range Carriers {
		if k == c {
			return true
		}
	}
	return false
}

// RateRequest asks one carrier for its rates: a route and a parcel (kg, cm), an
// optional service code, the currency wanted and the day the parcel is handed over.
type RateRequest struct {
	FromCountry, FromZip string
	ToCountry, ToZip     string
	Parcel               Parcel
	ServiceCode          string
	Currency             string
	ShipDate             time.Time
}

// Dimensions are a package's sides in a unit.
type Dimensions struct {
	Length, Width, Height decimal.Decimal
	Unit                  DimensionUnit
}

// Rate is one service's price for a parcel. Limits are in kg and cm; the API shows
// them in the caller's units.
type Rate struct {
	ID                     string
	Carrier                string
	ServiceCode            string
	ServiceName            string
	Description            string
	EstimatedDays          int
	Price                  decimal.Decimal
	Currency               string
	WeightLimitKg          decimal.Decimal
	DimensionsLimitCm      [3]decimal.Decimal // longest side first; zero when none
	IsNegotiatedRate       bool
	DeliveryDateGuaranteed bool
	DeliveryDate           *time.Time
}

// AddBusinessDays returns the day n business days (Monday to Friday) after t.
func AddBusinessDays(t time.Time, n int) time.Time {
	d := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	for n > 0 {
		d = d.AddDate(0, 0, 1)
		if d.Weekday() != time.Saturday && d.Weekday() != time.Sunday {
			n--
		}
	}
	return d
}

// TrackingURL is the carrier's public tracking page of a number.
func TrackingURL(carrier, number string) string {
	switch carrier {
	case UPS:
		return "https://www.ups.com/track?tracknum=" + number
	case FedEx:
		return "https://www.fedex.com/fedextrack/?trknbr=" + number
	case USPS:
		return "https://tools.usps.com/go/TrackConfirmAction?tLabels=" + number
	case DHL:
		return "https://www.dhl.com/global-en/home/tracking/tracking-express.html?submit=1&tracking-id=" + number
	}
	return ""
}

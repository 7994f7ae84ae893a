// Package ratetable is the built-in carrier: each carrier's rate table (zones by
// country, weight brackets, dimensional weight, days in transit) priced without a
// network, and labels generated locally (a PDF with a tracking number in the
// carrier's format). A store without carrier credentials ships with it.
package ratetable

import (
	"bytes"
	"context"
	"crypto/rand"
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/shipping/domain"
	"github.com/gocommerce/commerce/modules/shipping/ports"
)

// Carrier is one carrier's built-in table.
type Carrier struct {
	code     string
	services []service
}

var _ ports.Carrier = (*Carrier)(nil)

// New returns the table of a carrier code (nil for an unknown code).
func New(code string) *Carrier {
	t, ok := tables[code]
	if !ok {
		return nil
	}
	services := make([]service, len(t.services))
	for i, s := range t.services {
		if s.maxKg == "" {
			s.maxKg, s.maxCm = t.maxKg, t.maxCm
		}
		if s.divisor == 0 {
			s.divisor = t.divisor
		}
		services[i] = s
	}
	return &Carrier{code: code, services: services}
}

// Code is the carrier code.
func (c *Carrier) Code() string { return c.code }

// Live is false: no carrier API is called.
func (c *Carrier) Live() bool { return false }

// TrackingURL is the carrier's public tracking page.
func (c *Carrier) TrackingURL(n string) string { return domain.TrackingURL(c.code, n) }

// Bracket rounds a billable weight up to its bracket: half kilograms up to 2 kg,
// whole kilograms up to 30 kg, then steps of 5 kg.
func Bracket(kg decimal.Decimal) decimal.Decimal {
	two, thirty := decimal.NewFromInt(2), decimal.NewFromInt(30)
	half, five := decimal.RequireFromString("0.5"), decimal.NewFromInt(5)
	switch {
	case kg.LessThanOrEqual(two):
		return kg.Div(half).Ceil().Mul(half)
	case kg.LessThanOrEqual(thirty):
		return kg.Ceil()
	default:
		return kg.Div(five).Ceil().Mul(five)
	}
}

func sides(s [3]string) [3]decimal.Decimal {
	return [3]decimal.Decimal{decimal.RequireFromString(s[0]), decimal.RequireFromString(s[1]), decimal.RequireFromString(s[2])}
}

// fits reports whether the parcel is within the service's weight and size limits.
func (s service) fits(p domain.Parcel) bool {
	if p.WeightKg.GreaterThan(decimal.RequireFromString(s.maxKg)) {
		return false
	}
	if !p.HasDimensions {
		return true
	}
	limit, got := sides(s.maxCm), p.Sides()
	for i := range got {
		if got[i].GreaterThan(limit[i]) {
			return false
		}
	}
	return true
}

// quote prices the service for the request, or reports that it does not serve it.
func (c *Carrier) quote(s service, req domain.RateRequest) (domain.Rate, bool) {
	if s.origins != nil && !slices.Contains(s.origins, req.FromCountry) {
		return domain.Rate{}, false
	}
	if s.customsFree && domain.NeedsCustoms(req.FromCountry, req.ToCountry) {
		return domain.Rate{}, false
	}
	zone := domain.ZoneOf(req.FromCountry, req.FromZip, req.ToCountry, req.ToZip)
	pr, ok := s.zones[zone]
	if !ok || !s.fits(req.Parcel) {
		return domain.Rate{}, false
	}
	billable := Bracket(req.Parcel.BillableKg(s.divisor))
	amount := decimal.RequireFromString(pr.base).Add(decimal.RequireFromString(pr.perKg).Mul(billable)).Round(2)
	day := domain.AddBusinessDays(req.ShipDate, pr.days)
	return domain.Rate{
		Carrier: c.code, ServiceCode: s.code, ServiceName: s.name, Description: s.description,
		EstimatedDays: pr.days, Price: amount, Currency: domain.TableCurrency,
		WeightLimitKg: decimal.RequireFromString(s.maxKg), DimensionsLimitCm: sides(s.maxCm),
		DeliveryDateGuaranteed: s.guaranteed, DeliveryDate: &day,
	}, true
}

// Rates prices every service of the table that serves the route and takes the parcel.
func (c *Carrier) Rates(_ context.Context, req domain.RateRequest) ([]domain.Rate, error) {
	var out []domain.Rate
	for _, s := range c.services {
		if req.ServiceCode != "" && s.code != req.ServiceCode {
			continue
		}
		if r, ok := c.quote(s, req); ok {
			out = append(out, r)
		}
	}
	return out, nil
}

// CreateLabel prices the shipment's packages with the service and generates the label.
func (c *Carrier) CreateLabel(_ context.Context, req ports.LabelRequest) (ports.Label, error) {
	sh := req.Shipment
	i := slices.IndexFunc(c.services, func(s service) bool { return s.code == sh.ServiceCode })
	if i < 0 {
		return ports.Label{}, domain.ErrInvalidServiceCode
	}
	label := ports.Label{ServiceName: c.services[i].name, Currency: domain.TableCurrency, ContentType: "application/pdf"}
	var days int
	for _, p := range sh.Packages {
		r, ok := c.quote(c.services[i], domain.RateRequest{
			FromCountry: sh.ShipFrom.Country, FromZip: sh.ShipFrom.Zip, ToCountry: sh.ShipTo.Country, ToZip: sh.ShipTo.Zip,
			Parcel: p.Parcel(), ShipDate: req.ShipDate,
		})
		if !ok {
			return ports.Label{}, domain.ErrInvalidServiceCode.WithMessage("%s %s does not serve this route or package", c.code, sh.ServiceCode)
		}
		label.Price = label.Price.Add(r.Price)
		days = r.EstimatedDays
		n, err := trackingNumber(c.code, sh.ServiceCode)
		if err != nil {
			return ports.Label{}, err
		}
		label.PackageTrackingNumbers = append(label.PackageTrackingNumbers, n)
	}
	label.TrackingNumber = label.PackageTrackingNumbers[0]
	eta := domain.AddBusinessDays(req.ShipDate, days)
	label.EstimatedDelivery = &eta
	label.Image = labelPDF(c.code, label.ServiceName, label.TrackingNumber, sh)
	return label, nil
}

// Track has no carrier to ask: the table's shipments move by webhook updates only.
func (c *Carrier) Track(context.Context, string) ([]domain.TrackingEvent, error) { return nil, nil }

func digits(n int) (string, error) {
	var b strings.Builder
	for range n {
		d, err := rand.Int(rand.Reader, big.NewInt(10))
		if err != nil {
			return "", err
		}
		b.WriteByte(byte('0' + d.Int64()))
	}
	return b.String(), nil
}

// trackingNumber makes a number in the carrier's format: UPS 1Z + 16 characters,
// FedEx 12 digits, USPS 22 digits starting 9400, DHL Express 10 digits.
func trackingNumber(carrier, serviceCode string) (string, error) {
	n := map[string]int{domain.UPS: 14, domain.FedEx: 12, domain.USPS: 18, domain.DHL: 10}[carrier]
	d, err := digits(n)
	if err != nil {
		return "", err
	}
	switch carrier {
	case domain.UPS:
		svc := (serviceCode + "00")[:2]
		return "1Z" + d[:6] + strings.ToUpper(svc) + d[6:], nil
	case domain.USPS:
		return "9400" + d, nil
	}
	return d, nil
}

// labelPDF writes a one-page PDF label: carrier, service, tracking number, addresses.
func labelPDF(carrier, serviceName, tracking string, sh *domain.Shipment) []byte {
	esc := strings.NewReplacer(`\`, `\\`, "(", `\(`, ")", `\)`)
	lines := []string{
		strings.ToUpper(carrier) + " - " + serviceName, "Tracking: " + tracking, "",
		"FROM: " + sh.ShipFrom.Name, sh.ShipFrom.Address1, sh.ShipFrom.City + " " + sh.ShipFrom.Zip + " " + sh.ShipFrom.Country, "",
		"TO: " + sh.ShipTo.Name, sh.ShipTo.Address1, sh.ShipTo.City + " " + sh.ShipTo.Zip + " " + sh.ShipTo.Country,
	}
	var content bytes.Buffer
	content.WriteString("BT /F1 12 Tf 36 380 Td 14 TL\n")
	for _, l := range lines {
		fmt.Fprintf(&content, "(%s) '\n", esc.Replace(asciiOnly(l)))
	}
	content.WriteString("ET")
	objects := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 288 432] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", content.Len(), content.String()),
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
	}
	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n")
	offsets := make([]int, len(objects))
	for i, o := range objects {
		offsets[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objects)+1)
	for _, off := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objects)+1, xref)
	return b.Bytes()
}

func asciiOnly(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 32 || r > 126 {
			return '?'
		}
		return r
	}, s)
}

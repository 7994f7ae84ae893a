package domain

import (
	"fmt"
	"net/mail"
	"regexp"
	"strings"

	"github.com/gocommerce/commerce/platform/money"
)

// Problems collects field messages by field path ("ship_to.zip", "packages[0].weight").
type Problems map[string]string

func (p Problems) add(field, msg string) {
	if msg != "" {
		if _, ok := p[field]; !ok {
			p[field] = msg
		}
	}
}

// MaxText bounds free texts; MaxPackages and MaxItems bound the lists of a shipment.
const (
	MaxText     = 255
	MaxPackages = 50
	MaxItems    = 200
)

// PackageInput is a package as sent (measures "" when absent).
type PackageInput struct {
	Weight, WeightUnit                   string
	Length, Width, Height, DimensionUnit string
	Items                                []ItemInput
}

// ItemInput is a package item as sent.
type ItemInput struct {
	LineItemID string
	Quantity   int
}

// CustomsItemInput is a customs line as sent.
type CustomsItemInput struct {
	Description, Value, Currency, HSTariffNumber, OriginCountry string
	Quantity                                                    int
}

// CustomsInput is a customs declaration as sent.
type CustomsInput struct {
	ContentsType, CustomsSigner, EELPFC, NonDeliveryOption, RestrictionType string
	CustomsCertify                                                          bool
	Items                                                                   []CustomsItemInput
}

// InsuranceInput is the insurance as sent.
type InsuranceInput struct {
	Amount, Currency, Provider string
}

// ShipmentInput is POST /shipping/shipments as sent.
type ShipmentInput struct {
	Carrier, ServiceCode string
	ShipFrom, ShipTo     *Address
	Packages             []PackageInput
	OrderID              string
	CustomsInfo          *CustomsInput
	Insurance            *InsuranceInput
	Options              Options
	Reference            string
	NotifyCustomer       bool
}

// Contents types, non-delivery options and restriction types of a customs declaration.
var (
	ContentsTypes      = []string{"merchandise", "documents", "gift", "returned_goods", "sample", "other"}
	NonDeliveryOptions = []string{"return", "abandon"}
	RestrictionTypes   = []string{"none", "other", "quarantine", "sanitary_phytosanitary_inspection"}
)

var hsTariff = regexp.MustCompile(`^\d{6,10}$`)

// euCustomsUnion are the EU member states: no customs declaration between them.
var euCustomsUnion = map[string]bool{}

func init() {
	for _, c := range strings.Fields("AT BE BG CY CZ DE DK EE ES FI FR GR HR HU IE IT LT LU LV MT NL PL PT RO SE SI SK") {
		euCustomsUnion[c] = true
	}
}

// NeedsCustoms reports a route that crosses a customs border.
func NeedsCustoms(from, to string) bool {
	return from != to && (!euCustomsUnion[from] || !euCustomsUnion[to])
}

func oneOf(v string, list []string) string {
	for _, l := range list {
		if l == v {
			return ""
		}
	}
	return "must be one of: " + strings.Join(list, ", ")
}

func text(p Problems, field, v string, required bool) string {
	v = strings.TrimSpace(v)
	switch {
	case v == "" && required:
		p.add(field, "is required")
	case len(v) > MaxText:
		p.add(field, fmt.Sprintf("must be at most %d characters", MaxText))
	}
	return v
}

// ValidateAddress checks an address: name, address1, city, country and zip required.
func ValidateAddress(p Problems, field string, in *Address) Address {
	if in == nil {
		p.add(field, "is required")
		return Address{}
	}
	a := Address{
		Name: text(p, field+".name", in.Name, true), Company: text(p, field+".company", in.Company, false),
		Phone: text(p, field+".phone", in.Phone, false), Email: text(p, field+".email", in.Email, false),
		Address1: text(p, field+".address1", in.Address1, true), Address2: text(p, field+".address2", in.Address2, false),
		City: text(p, field+".city", in.City, true), State: text(p, field+".state", in.State, false),
		Residential: in.Residential,
	}
	if a.Email != "" {
		if _, err := mail.ParseAddress(a.Email); err != nil {
			p.add(field+".email", "must be an email address")
		}
	}
	var msg string
	a.Country, msg = NormalizeCountry(in.Country)
	p.add(field+".country", msg)
	if msg == "" {
		a.Zip, msg = NormalizeZip(a.Country, in.Zip)
		p.add(field+".zip", msg)
	}
	return a
}

// ParseWeightUnit reads a weight unit, default kg.
func ParseWeightUnit(s string) (WeightUnit, string) {
	return parseUnit(s, Kilogram, "must be one of: kg, lb, oz, g")
}

// ParseDimensionUnit reads a dimension unit, default cm.
func ParseDimensionUnit(s string) (DimensionUnit, string) {
	return parseUnit(s, Centimetre, "must be one of: cm, in")
}

// parseUnit reads a unit's name in any case, def when s is empty; an unknown unit is
// answered with problem (the accepted names).
func parseUnit[U interface {
	~string
	Valid() bool
}](s string, def U, problem string) (U, string) {
	if s == "" {
		return def, ""
	}
	u := U(strings.ToLower(s))
	if !u.Valid() {
		return u, problem
	}
	return u, ""
}

// ParcelInput is a weight and optional dimensions as sent, with the names their
// problems are reported under (prefix "" for the rates query, "packages[i]." in a body).
type ParcelInput struct {
	Prefix                               string
	Weight, WeightUnit                   string
	Length, Width, Height, DimensionUnit string
}

// ValidateParcel checks a weight (required, positive) and its unit, and the
// dimensions (all three or none, positive) and theirs; the package keeps the caller's
// units and the limits apply after conversion.
func ValidateParcel(p Problems, in ParcelInput) Package {
	var pkg Package
	var msg string
	pkg.WeightUnit, msg = ParseWeightUnit(in.WeightUnit)
	p.add(in.Prefix+"weight_unit", msg)
	if in.Weight == "" {
		p.add(in.Prefix+"weight", "is required")
	} else {
		pkg.Weight, msg = ParseMeasure(in.Weight)
		p.add(in.Prefix+"weight", msg)
		if msg == "" && pkg.WeightUnit.Valid() && pkg.WeightUnit.ToKg(pkg.Weight).GreaterThan(MaxWeightKg) {
			p.add(in.Prefix+"weight", "must be at most 10000 kg")
		}
	}
	unit, msg := ParseDimensionUnit(in.DimensionUnit)
	p.add(in.Prefix+"dimension_unit", msg)
	sides := map[string]string{"length": in.Length, "width": in.Width, "height": in.Height}
	given := 0
	for _, v := range sides {
		if v != "" {
			given++
		}
	}
	if given == 0 {
		return pkg
	}
	d := &Dimensions{Unit: unit}
	for _, name := range []string{"length", "width", "height"} {
		v := sides[name]
		if v == "" {
			p.add(in.Prefix+name, "is required when any dimension is given")
			continue
		}
		x, msg := ParseMeasure(v)
		p.add(in.Prefix+name, msg)
		if msg == "" && unit.Valid() && unit.ToCm(x).GreaterThan(MaxDimensionCm) {
			p.add(in.Prefix+name, "must be at most 10000 cm")
		}
		switch name {
		case "length":
			d.Length = x
		case "width":
			d.Width = x
		default:
			d.Height = x
		}
	}
	pkg.Dimensions = d
	return pkg
}

// ValidateShipment checks the whole input and returns the shipment draft (status
// pending, no id yet) or the problems.
func ValidateShipment(in ShipmentInput) (*Shipment, Problems) {
	p := Problems{}
	s := &Shipment{Status: StatusPending, Options: in.Options, NotifyCustomer: in.NotifyCustomer}
	s.Carrier = strings.ToLower(strings.TrimSpace(in.Carrier))
	switch {
	case s.Carrier == "":
		p.add("carrier", "is required")
	case !ValidCarrier(s.Carrier):
		p.add("carrier", "must be one of: "+strings.Join(Carriers, ", "))
	}
	s.ServiceCode = text(p, "service_code", in.ServiceCode, true)
	s.ShipFrom = ValidateAddress(p, "ship_from", in.ShipFrom)
	s.ShipTo = ValidateAddress(p, "ship_to", in.ShipTo)
	switch {
	case len(in.Packages) == 0:
		p.add("packages", "must have at least one package")
	case len(in.Packages) > MaxPackages:
		p.add("packages", fmt.Sprintf("must have at most %d packages", MaxPackages))
	}
	for i, pi := range in.Packages {
		prefix := fmt.Sprintf("packages[%d].", i)
		pkg := ValidateParcel(p, ParcelInput{Prefix: prefix, Weight: pi.Weight, WeightUnit: pi.WeightUnit,
			Length: pi.Length, Width: pi.Width, Height: pi.Height, DimensionUnit: pi.DimensionUnit})
		if len(pi.Items) > MaxItems {
			p.add(prefix+"items", fmt.Sprintf("must have at most %d items", MaxItems))
		}
		for j, it := range pi.Items {
			f := fmt.Sprintf("%sitems[%d].", prefix, j)
			id := text(p, f+"line_item_id", it.LineItemID, true)
			if it.Quantity <= 0 {
				p.add(f+"quantity", "must be greater than 0")
			}
			pkg.Items = append(pkg.Items, Item{LineItemID: id, Quantity: it.Quantity})
		}
		s.Packages = append(s.Packages, pkg)
	}
	s.OrderID = strings.TrimSpace(in.OrderID)
	s.Reference = text(p, "reference", in.Reference, false)
	if in.Insurance != nil {
		s.Insurance = validateInsurance(p, in.Insurance)
	}
	international := s.ShipFrom.Country != "" && s.ShipTo.Country != "" && NeedsCustoms(s.ShipFrom.Country, s.ShipTo.Country)
	switch {
	case in.CustomsInfo != nil:
		s.CustomsInfo = validateCustoms(p, in.CustomsInfo)
	case international:
		p.add("customs_info", "is required for an international shipment")
	}
	if len(p) > 0 {
		return nil, p
	}
	s.Weight, s.WeightUnit = TotalWeight(s.Packages)
	if len(s.Packages) == 1 {
		s.Dimensions = s.Packages[0].Dimensions
	}
	return s, nil
}

func validateInsurance(p Problems, in *InsuranceInput) *Insurance {
	ins := &Insurance{Provider: text(p, "insurance.provider", in.Provider, false)}
	cur := currency(p, "insurance.currency", in.Currency)
	ins.Currency = cur
	if in.Amount == "" {
		p.add("insurance.amount", "is required")
		return ins
	}
	amt, err := money.Parse(in.Amount, cur)
	if err != nil {
		p.add("insurance.amount", err.Error())
	}
	ins.Amount = amt
	if ins.Provider == "" {
		ins.Provider = "carrier"
	}
	return ins
}

func validateCustoms(p Problems, in *CustomsInput) *CustomsInfo {
	c := &CustomsInfo{
		ContentsType: in.ContentsType, CustomsCertify: in.CustomsCertify,
		CustomsSigner:     text(p, "customs_info.customs_signer", in.CustomsSigner, false),
		EELPFC:            text(p, "customs_info.eel_pfc", in.EELPFC, false),
		NonDeliveryOption: in.NonDeliveryOption, RestrictionType: in.RestrictionType,
	}
	if c.ContentsType == "" {
		c.ContentsType = "merchandise"
	}
	p.add("customs_info.contents_type", oneOf(c.ContentsType, ContentsTypes))
	if c.NonDeliveryOption == "" {
		c.NonDeliveryOption = "return"
	}
	p.add("customs_info.non_delivery_option", oneOf(c.NonDeliveryOption, NonDeliveryOptions))
	if c.RestrictionType == "" {
		c.RestrictionType = "none"
	}
	p.add("customs_info.restriction_type", oneOf(c.RestrictionType, RestrictionTypes))
	if c.CustomsCertify && c.CustomsSigner == "" {
		p.add("customs_info.customs_signer", "is required when customs_certify is true")
	}
	if len(in.Items) == 0 {
		p.add("customs_info.customs_items", "must have at least one item")
	}
	for i, it := range in.Items {
		f := fmt.Sprintf("customs_info.customs_items[%d].", i)
		ci := CustomsItem{Description: text(p, f+"description", it.Description, true), Quantity: it.Quantity,
			HSTariffNumber: strings.ReplaceAll(it.HSTariffNumber, ".", "")}
		if it.Quantity <= 0 {
			p.add(f+"quantity", "must be greater than 0")
		}
		cur := currency(p, f+"currency", it.Currency)
		ci.Currency = cur
		if it.Value == "" {
			p.add(f+"value", "is required")
		} else if v, err := money.Parse(it.Value, cur); err != nil {
			p.add(f+"value", err.Error())
		} else {
			ci.Value = v
		}
		if ci.HSTariffNumber != "" && !hsTariff.MatchString(ci.HSTariffNumber) {
			p.add(f+"hs_tariff_number", "must be 6 to 10 digits")
		}
		if it.OriginCountry != "" {
			var msg string
			ci.OriginCountry, msg = NormalizeCountry(it.OriginCountry)
			p.add(f+"origin_country", msg)
		}
		c.Items = append(c.Items, ci)
	}
	return c
}

// currency reads an optional currency code (default USD).
func currency(p Problems, field, v string) string {
	if v == "" {
		return "USD"
	}
	c, ok := money.Normalize(v)
	if !ok {
		p.add(field, "must be an ISO 4217 currency code")
	}
	return c
}

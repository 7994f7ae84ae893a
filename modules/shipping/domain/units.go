// Package domain holds shipping's plain rules: units and their exact conversion,
// parcels, countries and zones, addresses, rates, shipments and the status machine.
// No framework imports; money and weights are decimals, never floats.
package domain

import (
	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/platform/money"
)

// WeightUnit is a unit of weight the API accepts.
type WeightUnit string

// Weight units (Part 2 "Shipping": kg, lb, oz, g).
const (
	Kilogram WeightUnit = "kg"
	Pound    WeightUnit = "lb"
	Ounce    WeightUnit = "oz"
	Gram     WeightUnit = "g"
)

// DimensionUnit is a unit of length the API accepts.
type DimensionUnit string

// Dimension units (cm, in).
const (
	Centimetre DimensionUnit = "cm"
	Inch       DimensionUnit = "in"
)

// The exact factors (international yard and pound agreement, 1959): 1 lb = 0.45359237
// kg, 1 oz = 1/16 lb = 0.028349523125 kg, 1 in = 2.54 cm. Converting into kg or cm is
// a multiplication by a terminating decimal, so it is exact.
var (
	kgPer = map[WeightUnit]decimal.Decimal{
		Kilogram: decimal.NewFromInt(1),
		Pound:    decimal.RequireFromString("0.45359237"),
		Ounce:    decimal.RequireFromString("0.028349523125"),
		Gram:     decimal.RequireFromString("0.001"),
	}
	cmPer = map[DimensionUnit]decimal.Decimal{
		Centimetre: decimal.NewFromInt(1),
		Inch:       decimal.RequireFromString("2.54"),
	}
)

// WeightUnits and DimensionUnits list the accepted units, in the spec's order.
var (
	WeightUnits    = []WeightUnit{Kilogram, Pound, Ounce, Gram}
	DimensionUnits = []DimensionUnit{Centimetre, Inch}
)

// Valid reports a known weight unit.
func (u WeightUnit) Valid() bool { _, ok := kgPer[u]; return ok }

// Valid reports a known dimension unit.
func (u DimensionUnit) Valid() bool { _, ok := cmPer[u]; return ok }

// ToKg converts v in u to kilograms, exactly.
func (u WeightUnit) ToKg(v decimal.Decimal) decimal.Decimal { return v.Mul(kgPer[u]) }

// FromKg converts kilograms to u: exact for kg and g; for lb and oz rounded to
// ConvertedDecimals places (a pound is not a terminating number of kilograms).
func (u WeightUnit) FromKg(kg decimal.Decimal) decimal.Decimal {
	return kg.DivRound(kgPer[u], ConvertedDecimals).Round(ConvertedDecimals)
}

// ToCm converts v in u to centimetres, exactly.
func (u DimensionUnit) ToCm(v decimal.Decimal) decimal.Decimal { return v.Mul(cmPer[u]) }

// FromCm converts centimetres to u, rounded to ConvertedDecimals places.
func (u DimensionUnit) FromCm(cm decimal.Decimal) decimal.Decimal {
	return cm.DivRound(cmPer[u], ConvertedDecimals).Round(ConvertedDecimals)
}

// ConvertedDecimals is the precision of a value converted out of kg or cm.
const ConvertedDecimals int32 = 4

// MeasureDecimals is how many decimals a weight or dimension given by a client may
// have; MaxWeightKg and MaxDimensionCm bound them (after conversion).
const MeasureDecimals int32 = 4

var (
	MaxWeightKg    = decimal.NewFromInt(10000)
	MaxDimensionCm = decimal.NewFromInt(10000)
)

// ParseMeasure reads a positive weight or dimension written as a decimal ("2", "2.5";
// no sign, no exponent, at most MeasureDecimals decimals). The message names the
// problem in a field message's words.
func ParseMeasure(s string) (decimal.Decimal, string) {
	d, err := money.ParseDecimal(s, MeasureDecimals)
	if err != nil {
		return d, err.Error()
	}
	if !d.IsPositive() {
		return d, "must be greater than 0"
	}
	return d, ""
}

// Parcel is a package's weight in kilograms and, when known, its dimensions in
// centimetres (all three or none).
type Parcel struct {
	WeightKg                    decimal.Decimal
	LengthCm, WidthCm, HeightCm decimal.Decimal
	HasDimensions               bool
}

// Volume is L × W × H in cm³ (zero without dimensions).
func (p Parcel) Volume() decimal.Decimal {
	if !p.HasDimensions {
		return decimal.Zero
	}
	return p.LengthCm.Mul(p.WidthCm).Mul(p.HeightCm)
}

// DimensionalWeightKg is the volume divided by the carrier's divisor (cm³ per kg).
func (p Parcel) DimensionalWeightKg(divisor int64) decimal.Decimal {
	if !p.HasDimensions || divisor <= 0 {
		return decimal.Zero
	}
	return p.Volume().Div(decimal.NewFromInt(divisor))
}

// BillableKg is the larger of the actual and the dimensional weight.
func (p Parcel) BillableKg(divisor int64) decimal.Decimal {
	return decimal.Max(p.WeightKg, p.DimensionalWeightKg(divisor))
}

// Sides returns the dimensions sorted longest first.
func (p Parcel) Sides() [3]decimal.Decimal {
	s := [3]decimal.Decimal{p.LengthCm, p.WidthCm, p.HeightCm}
	for i := 0; i < 3; i++ {
		for j := i + 1; j < 3; j++ {
			if s[j].GreaterThan(s[i]) {
				s[i], s[j] = s[j], s[i]
			}
		}
	}
	return s
}

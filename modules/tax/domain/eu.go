package domain

import (
	"regexp"
	"strings"

	"github.com/gocommerce/commerce/platform/apperr"
)

// euMember is an EU member state: its name and the format of its VAT numbers (the part
// after the prefix).
type euMember struct {
	name   string
	prefix string // the VAT prefix: the country code, except EL for Greece
	format *regexp.Regexp
}

var euMembers = map[string]euMember{
	"AT": {"Austria", "AT", regexp.MustCompile(`^U\d{8}$`)},
	"BE": {"Belgium", "BE", regexp.MustCompile(`^[01]\d{9}$`)},
	"BG": {"Bulgaria", "BG", regexp.MustCompile(`^\d{9,10}$`)},
	"HR": {"Croatia", "HR", regexp.MustCompile(`^\d{11}$`)},
	"CY": {"Cyprus", "CY", regexp.MustCompile(`^\d{8}[A-Z]$`)},
	"CZ": {"Czechia", "CZ", regexp.MustCompile(`^\d{8,10}$`)},
	"DK": {"Denmark", "DK", regexp.MustCompile(`^\d{8}$`)},
	"EE": {"Estonia", "EE", regexp.MustCompile(`^\d{9}$`)},
	"FI": {"Finland", "FI", regexp.MustCompile(`^\d{8}$`)},
	"FR": {"France", "FR", regexp.MustCompile(`^[0-9A-HJ-NP-Z]{2}\d{9}$`)},
	"DE": {"Germany", "DE", regexp.MustCompile(`^\d{9}$`)},
	"GR": {"Greece", "EL", regexp.MustCompile(`^\d{9}$`)},
	"HU": {"Hungary", "HU", regexp.MustCompile(`^\d{8}$`)},
	"IE": {"Ireland", "IE", regexp.MustCompile(`^\d[0-9A-Z+*]\d{5}[A-Z]{1,2}$`)},
	"IT": {"Italy", "IT", regexp.MustCompile(`^\d{11}$`)},
	"LV": {"Latvia", "LV", regexp.MustCompile(`^\d{11}$`)},
	"LT": {"Lithuania", "LT", regexp.MustCompile(`^(\d{9}|\d{12})$`)},
	"LU": {"Luxembourg", "LU", regexp.MustCompile(`^\d{8}$`)},
	"MT": {"Malta", "MT", regexp.MustCompile(`^\d{8}$`)},
	"NL": {"Netherlands", "NL", regexp.MustCompile(`^\d{9}B\d{2}$`)},
	"PL": {"Poland", "PL", regexp.MustCompile(`^\d{10}$`)},
	"PT": {"Portugal", "PT", regexp.MustCompile(`^\d{9}$`)},
	"RO": {"Romania", "RO", regexp.MustCompile(`^\d{2,10}$`)},
	"SK": {"Slovakia", "SK", regexp.MustCompile(`^\d{10}$`)},
	"SI": {"Slovenia", "SI", regexp.MustCompile(`^\d{8}$`)},
	"ES": {"Spain", "ES", regexp.MustCompile(`^[0-9A-Z]\d{7}[0-9A-Z]$`)},
	"SE": {"Sweden", "SE", regexp.MustCompile(`^\d{10}01$`)},
}

// IsEU reports whether a country code (ISO 3166-1 alpha-2) is an EU member state.
func IsEU(country string) bool {
	_, ok := euMembers[country]
	return ok
}

// CountryName names an EU member state ("" for another code).
func CountryName(country string) string { return euMembers[country].name }

// VATID is a well-formed EU VAT identification number.
type VATID struct {
	// Country is the member state's ISO code (GR for Greece's EL numbers).
	Country string
	// Prefix is the VAT prefix VIES expects (EL for Greece).
	Prefix string
	// Number is the part after the prefix.
	Number string
}

// String writes the number with its prefix ("DE123456789").
func (v VATID) String() string { return v.Prefix + v.Number }

// maxVATIDInput bounds what is read as a VAT id (spaces and dots included).
const maxVATIDInput = 64

// ParseVATID checks a VAT id's format for its member state, ignoring spaces, dots and
// dashes and case. A malformed id is ErrMalformedVATID with a message naming the
// problem.
func ParseVATID(raw string) (VATID, error) {
	if len(raw) > maxVATIDInput {
		// Not a VAT id at all: the ordinary field problem, not the VAT format body.
		return VATID{}, apperr.Validation(map[string]string{"vat_id": "must be at most 64 characters"})
	}
	s := strings.ToUpper(strings.NewReplacer(" ", "", ".", "", "-", "", "\t", "").Replace(raw))
	if len(s) < 3 {
		return VATID{}, ErrMalformedVATID.WithMessage("Invalid VAT ID format: %q is too short", raw)
	}
	prefix, number := s[:2], s[2:]
	country := prefix
	if prefix == "EL" {
		country = "GR"
	}
	m, ok := euMembers[country]
	if !ok || m.prefix != prefix {
		return VATID{}, ErrMalformedVATID.WithMessage("Invalid VAT ID format: %q does not start with an EU member state prefix", raw)
	}
	if !m.format.MatchString(number) {
		return VATID{}, ErrMalformedVATID.WithMessage("Invalid VAT ID format: %q is not a valid %s VAT number", raw, m.name)
	}
	return VATID{Country: country, Prefix: prefix, Number: number}, nil
}

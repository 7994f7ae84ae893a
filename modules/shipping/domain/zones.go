package domain

import (
	"regexp"
	"strings"
)

// Region groups countries for the built-in rate tables. Every officially assigned
// ISO 3166-1 alpha-2 code belongs to exactly one region, so the table is also the list
// of valid countries.
type Region string

// Regions of the built-in tables.
const (
	NorthAmerica Region = "north_america"
	LatinAmerica Region = "latin_america"
	Europe       Region = "europe"
	MiddleEast   Region = "middle_east"
	Africa       Region = "africa"
	Asia         Region = "asia"
	Oceania      Region = "oceania"
)

var regionCountries = map[Region]string{
	NorthAmerica: "US CA MX PR VI UM GU AS MP BM PM GL",
	LatinAmerica: "AG AI AR AW BB BL BO BQ BR BS BZ CL CO CR CU CW DM DO EC FK GD GF GP GS GT GY HN HT JM KN KY LC MF " +
		"MQ MS NI PA PE PY SR SV SX TC TT UY VC VE VG",
	Europe: "AD AL AT AX BA BE BG BV BY CH CY CZ DE DK EE ES FI FO FR GB GG GI GR HR HU IE IM IS IT JE LI LT LU LV MC " +
		"MD ME MK MT NL NO PL PT RO RS RU SE SI SJ SK SM UA VA XK",
	MiddleEast: "AE AM AZ BH GE IL IQ IR JO KW LB OM PS QA SA SY TR YE",
	Africa: "AO BF BI BJ BW CD CF CG CI CM CV DJ DZ EG EH ER ET GA GH GM GN GQ GW KE KM LR LS LY MA MG ML MR MU MW " +
		"MZ NA NE NG RE RW SC SD SH SL SN SO SS ST SZ TD TG TN TZ UG YT ZA ZM ZW",
	Asia: "AF AQ BD BN BT CC CN CX HK HM ID IN IO JP KG KH KP KR KZ LA LK MM MN MO MV MY NP PH PK SG TF TH TJ TL TM " +
		"TW UZ VN",
	Oceania: "AU CK FJ FM KI MH NC NF NR NU NZ PF PG PN PW SB TK TO TV VU WF WS",
}

var countryRegion = func() map[string]Region {
	out := map[string]Region{}
	for r, list := range regionCountries {
		for _, c := range strings.Fields(list) {
			out[c] = r
		}
	}
	delete(out, "XK") // user-assigned, not an official code
	return out
}()

// ValidCountry reports an assigned ISO 3166-1 alpha-2 code (upper case).
func ValidCountry(c string) bool { _, ok := countryRegion[c]; return ok }

// RegionOf returns the country's region.
func RegionOf(country string) Region { return countryRegion[country] }

// Zone is the distance class of a route in the built-in tables.
type Zone string

// Zones: the same country and postal area, the same country, the same region,
// anywhere else.
const (
	ZoneLocal         Zone = "local"
	ZoneDomestic      Zone = "domestic"
	ZoneRegional      Zone = "regional"
	ZoneInternational Zone = "international"
)

// ZoneOf classifies a route: local when both postal codes share their first two
// characters in one country, domestic within one country, regional within one region.
func ZoneOf(fromCountry, fromZip, toCountry, toZip string) Zone {
	switch {
	case fromCountry == toCountry && len(fromZip) >= 2 && len(toZip) >= 2 && strings.EqualFold(fromZip[:2], toZip[:2]):
		return ZoneLocal
	case fromCountry == toCountry:
		return ZoneDomestic
	case RegionOf(fromCountry) == RegionOf(toCountry):
		return ZoneRegional
	default:
		return ZoneInternational
	}
}

// International reports a route that crosses a border (customs needed).
func International(fromCountry, toCountry string) bool { return fromCountry != toCountry }

// Postal code formats of the countries whose format is fixed and well known; any other
// country takes 2 to 10 letters, digits, spaces and hyphens.
var zipFormats = map[string]*regexp.Regexp{
	"US": regexp.MustCompile(`^\d{5}(-\d{4})?$`),
	"CA": regexp.MustCompile(`^[A-Z]\d[A-Z] ?\d[A-Z]\d$`),
	"GB": regexp.MustCompile(`^[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}$`),
	"DE": regexp.MustCompile(`^\d{5}$`),
	"FR": regexp.MustCompile(`^\d{5}$`),
	"IT": regexp.MustCompile(`^\d{5}$`),
	"ES": regexp.MustCompile(`^\d{5}$`),
	"NL": regexp.MustCompile(`^\d{4} ?[A-Z]{2}$`),
	"AU": regexp.MustCompile(`^\d{4}$`),
	"JP": regexp.MustCompile(`^\d{3}-?\d{4}$`),
	"CN": regexp.MustCompile(`^\d{6}$`),
	"IN": regexp.MustCompile(`^\d{6}$`),
	"BR": regexp.MustCompile(`^\d{5}-?\d{3}$`),
	"MX": regexp.MustCompile(`^\d{5}$`),
}

var genericZip = regexp.MustCompile(`^[A-Z0-9][A-Z0-9 -]{0,8}[A-Z0-9]$`)

// NormalizeZip upper-cases and trims a postal code and checks it against the
// country's format; the message is "" when it is good.
func NormalizeZip(country, zip string) (string, string) {
	z := strings.ToUpper(strings.TrimSpace(zip))
	if z == "" {
		return z, "is required"
	}
	if f, ok := zipFormats[country]; ok {
		if !f.MatchString(z) {
			return z, "is not a valid postal code for " + country
		}
		return z, ""
	}
	if !genericZip.MatchString(z) {
		return z, "must be 2 to 10 letters, digits, spaces or hyphens"
	}
	return z, ""
}

// NormalizeCountry upper-cases a country code and checks it.
func NormalizeCountry(c string) (string, string) {
	c = strings.ToUpper(strings.TrimSpace(c))
	if c == "" {
		return c, "is required"
	}
	if !ValidCountry(c) {
		return c, "must be an ISO 3166-1 alpha-2 country code"
	}
	return c, ""
}

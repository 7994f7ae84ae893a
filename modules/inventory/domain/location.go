package domain

import (
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gocommerce/commerce/platform/apperr"
)

// DefaultLocationID is the id of the location every installation has (created by the
// module's first migration with the same id on every engine).
const DefaultLocationID = "00000000-0000-4000-8000-000000000001"

// Location is a place that holds stock (a warehouse, a shop).
type Location struct {
	ID        string
	Name      string
	Code      string // unique when set
	Address1  string
	Address2  string
	City      string
	Province  string
	Country   string // ISO 3166-1 alpha-2, upper case, or ""
	Zip       string
	Phone     string
	IsActive  bool
	IsDefault bool
	CreatedAt time.Time
	UpdatedAt time.Time
}

// NewLocationInput is what a new location is made from.
type NewLocationInput struct {
	Name, Code, Address1, Address2, City, Province, Country, Zip, Phone string
	IsActive                                                            *bool // nil: active
}

// Field limits of a location.
const (
	maxLocationText = 255
	maxLocationCode = 64
)

// NewLocation validates the input and builds a location (never the default one).
func NewLocation(id string, in NewLocationInput, now time.Time) (*Location, error) {
	l := &Location{
		ID:        id,
		Name:      strings.TrimSpace(in.Name),
		Code:      strings.TrimSpace(in.Code),
		Address1:  strings.TrimSpace(in.Address1),
		Address2:  strings.TrimSpace(in.Address2),
		City:      strings.TrimSpace(in.City),
		Province:  strings.TrimSpace(in.Province),
		Country:   strings.ToUpper(strings.TrimSpace(in.Country)),
		Zip:       strings.TrimSpace(in.Zip),
		Phone:     strings.TrimSpace(in.Phone),
		IsActive:  in.IsActive == nil || *in.IsActive,
		CreatedAt: now,
		UpdatedAt: now,
	}
	fields := map[string]string{}
	if l.Name == "" {
		fields["name"] = "is required"
	}
	for name, v := range map[string]string{
		"name": l.Name, "address1": l.Address1, "address2": l.Address2, "city": l.City,
		"province": l.Province, "zip": l.Zip, "phone": l.Phone,
	} {
		if utf8.RuneCountInString(v) > maxLocationText {
			fields[name] = "must be at most 255 characters"
		}
	}
	if utf8.RuneCountInString(l.Code) > maxLocationCode {
		fields["code"] = "must be at most 64 characters"
	}
	if l.Country != "" && !isAlpha2(l.Country) {
		fields["country"] = "must be an ISO 3166-1 alpha-2 code"
	}
	if len(fields) > 0 {
		return nil, apperr.Validation(fields)
	}
	return l, nil
}

func isAlpha2(s string) bool {
	if len(s) != 2 {
		return false
	}
	for _, r := range s {
		if r < 'A' || r > 'Z' {
			return false
		}
	}
	return true
}

package domain

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"
)

// AddressID identifies a saved address (a UUID).
type AddressID string

// AddressKind names a default: shipping or billing.
type AddressKind string

// Default kinds.
const (
	DefaultShipping AddressKind = "shipping"
	DefaultBilling  AddressKind = "billing"
)

// Address is a customer's saved address (Part 2's address shape plus id, the default
// flags and timestamps). Country is an ISO 3166-1 alpha-2 code; Province is the
// shape's `state`.
type Address struct {
	ID                AddressID
	CustomerID        CustomerID
	FirstName         string
	LastName          string
	Company           string
	Phone             string
	Address1          string
	Address2          string
	City              string
	Province          string
	Country           string
	Zip               string
	IsDefaultShipping bool
	IsDefaultBilling  bool
	CreatedAt         time.Time
	UpdatedAt         time.Time
}

// AddressPatch changes some fields of an address; nil members stay as they are.
type AddressPatch struct {
	FirstName *string
	LastName  *string
	Company   *string
	Phone     *string
	Address1  *string
	Address2  *string
	City      *string
	Province  *string
	Country   *string
	Zip       *string
}

// Address field limits.
const (
	MaxAddressLineLength = 255
	MaxZipLength         = 20
)

// NewAddress validates the fields and builds an address (without default flags).
func NewAddress(id AddressID, customer CustomerID, p AddressPatch, now time.Time) (*Address, error) {
	a := &Address{ID: id, CustomerID: customer, CreatedAt: now, UpdatedAt: now}
	if err := a.Apply(p, now); err != nil {
		return nil, err
	}
	return a, nil
}

// Apply validates and applies a patch: address1, city and country are required; country
// must be an ISO 3166-1 alpha-2 code; every text is at most 255 characters (zip 20);
// phone as a customer's. Failure is INVALID_ADDRESS naming every bad field, and nothing
// changes.
func (a *Address) Apply(p AddressPatch, now time.Time) error {
	next := *a
	fields := map[string]string{}
	set := func(field string, v *string, max int, dst *string) {
		if v == nil {
			return
		}
		s := strings.TrimSpace(*v)
		if utf8.RuneCountInString(s) > max {
			fields[field] = fmt.Sprintf("must be at most %d characters", max)
		}
		*dst = s
	}
	set("first_name", p.FirstName, MaxAddressLineLength, &next.FirstName)
	set("last_name", p.LastName, MaxAddressLineLength, &next.LastName)
	set("company", p.Company, MaxAddressLineLength, &next.Company)
	set("address1", p.Address1, MaxAddressLineLength, &next.Address1)
	set("address2", p.Address2, MaxAddressLineLength, &next.Address2)
	set("city", p.City, MaxAddressLineLength, &next.City)
	set("state", p.Province, MaxAddressLineLength, &next.Province)
	set("zip", p.Zip, MaxZipLength, &next.Zip)
	if p.Phone != nil {
		ph, ok := NormalizePhone(*p.Phone)
		if !ok {
			fields["phone"] = "must be a phone number with 5 to 15 digits"
		}
		next.Phone = ph
	}
	if p.Country != nil {
		next.Country = strings.ToUpper(strings.TrimSpace(*p.Country))
	}
	if next.Address1 == "" {
		fields["address1"] = "is required"
	}
	if next.City == "" {
		fields["city"] = "is required"
	}
	switch {
	case next.Country == "":
		fields["country"] = "is required"
	case !ValidCountry(next.Country):
		fields["country"] = "must be an ISO 3166-1 alpha-2 country code"
	}
	if len(fields) > 0 {
		e := ErrInvalidAddress
		for k, v := range fields {
			e = e.WithField(k, v)
		}
		return e
	}
	next.UpdatedAt = now
	*a = next
	return nil
}

// IsDefault reports whether the address is the default of the kind.
func (a *Address) IsDefault(k AddressKind) bool {
	if k == DefaultBilling {
		return a.IsDefaultBilling
	}
	return a.IsDefaultShipping
}

// SetDefault sets or clears the default flag of the kind.
func (a *Address) SetDefault(k AddressKind, on bool, now time.Time) {
	if k == DefaultBilling {
		a.IsDefaultBilling = on
	} else {
		a.IsDefaultShipping = on
	}
	a.UpdatedAt = now
}

// Package customersapi implements the coupons module's ports.Customers on top of the
// customers module's api (customers and segments).
package customersapi

import (
	"context"
	"errors"
	"strings"

	customers "github.com/gocommerce/commerce/modules/customers/api"

	"github.com/gocommerce/commerce/modules/coupons/ports"
)

// Adapter answers eligibility questions from the customers module.
type Adapter struct {
	customers customers.Customers
	segments  customers.Segments
}

var _ ports.Customers = (*Adapter)(nil)

// NewAdapter builds the adapter.
func NewAdapter(c customers.Customers, s customers.Segments) *Adapter {
	return &Adapter{customers: c, segments: s}
}

// IsNewCustomer reports a customer without orders: by id, else by email (guests); an
// unknown customer or email is new.
func (a *Adapter) IsNewCustomer(ctx context.Context, customerID, email string) (bool, error) {
	var (
		c   customers.Customer
		err error
	)
	switch {
	case customerID != "":
		c, err = a.customers.GetCustomer(ctx, customerID)
	case strings.TrimSpace(email) != "":
		c, err = a.customers.FindCustomerByEmail(ctx, email)
	default:
		return true, nil
	}
	if errors.Is(err, customers.ErrCustomerNotFound) {
		return true, nil
	}
	if err != nil {
		return false, err
	}
	return c.OrdersCount == 0, nil
}

// InSegment reports segment membership (false for an unknown segment).
func (a *Adapter) InSegment(ctx context.Context, segmentID, customerID string) (bool, error) {
	in, err := a.segments.InSegment(ctx, segmentID, customerID)
	if errors.Is(err, customers.ErrSegmentNotFound) || errors.Is(err, customers.ErrCustomerNotFound) {
		return false, nil
	}
	return in, err
}

package customersapi_test

import (
	"context"
	"errors"
	"testing"

	customers "github.com/gocommerce/commerce/modules/customers/api"

	"github.com/gocommerce/commerce/modules/carts/adapters/customersapi"
	"github.com/gocommerce/commerce/modules/carts/ports"
	"github.com/gocommerce/commerce/platform/apperr"
)

type fakeAddresses struct{ err error }

func (f fakeAddresses) CustomerAddress(_ context.Context, customerID, addressID string) (customers.Address, error) {
	a := customers.Address{ID: addressID, CustomerID: customerID}
	a.Country, a.State, a.Zip, a.City = "DE", "BE", "10115", "Berlin"
	return a, f.err
}

func TestAdapter(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	want := ports.Address{Country: "DE", Region: "BE", PostalCode: "10115", City: "Berlin"}
	if a, err := customersapi.NewAdapter(fakeAddresses{}).CustomerAddress(ctx, "c", "a"); a == nil || *a != want || err != nil {
		t.Errorf("found: %v %v", a, err)
	}
	// The customers module answers its own domain error; it matches the api's by code.
	notFound := apperr.New(apperr.NotFound, "ADDRESS_NOT_FOUND", "Address not found")
	if a, err := customersapi.NewAdapter(fakeAddresses{err: notFound}).CustomerAddress(ctx, "c", "a"); a != nil || err != nil {
		t.Errorf("not found: %v %v", a, err)
	}
	boom := errors.New("database down")
	if a, err := customersapi.NewAdapter(fakeAddresses{err: boom}).CustomerAddress(ctx, "c", "a"); a != nil || !errors.Is(err, boom) {
		t.Errorf("failure: %v %v", a, err)
	}
}

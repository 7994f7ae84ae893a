package customersapi_test

import (
	"context"
	"errors"
	"testing"

	customers "github.com/gocommerce/commerce/modules/customers/api"

	"github.com/gocommerce/commerce/modules/carts/adapters/customersapi"
	"github.com/gocommerce/commerce/platform/apperr"
)

type fakeAddresses struct{ err error }

func (f fakeAddresses) CustomerAddress(_ context.Context, customerID, addressID string) (customers.Address, error) {
	return customers.Address{ID: addressID, CustomerID: customerID}, f.err
}

func TestAdapter(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	if ok, err := customersapi.NewAdapter(fakeAddresses{}).CustomerHasAddress(ctx, "c", "a"); !ok || err != nil {
		t.Errorf("found: %v %v", ok, err)
	}
	// The customers module answers its own domain error; it matches the api's by code.
	notFound := apperr.New(apperr.NotFound, "ADDRESS_NOT_FOUND", "Address not found")
	if ok, err := customersapi.NewAdapter(fakeAddresses{err: notFound}).CustomerHasAddress(ctx, "c", "a"); ok || err != nil {
		t.Errorf("not found: %v %v", ok, err)
	}
	boom := errors.New("database down")
	if ok, err := customersapi.NewAdapter(fakeAddresses{err: boom}).CustomerHasAddress(ctx, "c", "a"); ok || !errors.Is(err, boom) {
		t.Errorf("failure: %v %v", ok, err)
	}
}

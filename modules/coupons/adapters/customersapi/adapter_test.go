package customersapi_test

import (
	"context"
	"testing"

	customers "github.com/gocommerce/commerce/modules/customers/api"

	"github.com/gocommerce/commerce/modules/coupons/adapters/customersapi"
)

type fakeCustomers struct {
	customers.Customers
	byID    map[string]customers.Customer
	byEmail map[string]customers.Customer
}

func (f fakeCustomers) GetCustomer(_ context.Context, id string) (customers.Customer, error) {
	if c, ok := f.byID[id]; ok {
		return c, nil
	}
	return customers.Customer{}, customers.ErrCustomerNotFound
}

func (f fakeCustomers) FindCustomerByEmail(_ context.Context, email string) (customers.Customer, error) {
	if c, ok := f.byEmail[email]; ok {
		return c, nil
	}
	return customers.Customer{}, customers.ErrCustomerNotFound
}

type fakeSegments map[string]bool

func (f fakeSegments) InSegment(_ context.Context, seg, id string) (bool, error) {
	if seg == "gone" {
		return false, customers.ErrSegmentNotFound
	}
	return f[seg+"/"+id], nil
}

func TestAdapter(t *testing.T) {
	t.Parallel()
	a := customersapi.NewAdapter(fakeCustomers{
		byID:    map[string]customers.Customer{"new": {OrdersCount: 0}, "old": {OrdersCount: 3}},
		byEmail: map[string]customers.Customer{"old@x.io": {OrdersCount: 1}},
	}, fakeSegments{"vip/old": true})
	ctx := context.Background()
	cases := []struct {
		id, email string
		want      bool
	}{
		{"new", "", true}, {"old", "", false}, {"unknown", "", true}, {"", "old@x.io", false}, {"", "new@x.io", true}, {"", "", true},
	}
	for _, tc := range cases {
		if got, err := a.IsNewCustomer(ctx, tc.id, tc.email); err != nil || got != tc.want {
			t.Errorf("%q %q: %v %v", tc.id, tc.email, got, err)
		}
	}
	if in, err := a.InSegment(ctx, "vip", "old"); err != nil || !in {
		t.Errorf("member: %v %v", in, err)
	}
	if in, err := a.InSegment(ctx, "gone", "old"); err != nil || in {
		t.Errorf("unknown segment: %v %v", in, err)
	}
}

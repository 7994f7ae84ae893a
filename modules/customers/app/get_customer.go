package app

import (
	"context"
	"strings"

	"github.com/gocommerce/commerce/modules/customers/api"
	"github.com/gocommerce/commerce/modules/customers/domain"
	"github.com/gocommerce/commerce/modules/customers/ports"
)

// GetCustomer returns a customer by id; a malformed id is not found.
func (s *Service) GetCustomer(ctx context.Context, id string) (api.Customer, error) {
	cid, err := customerID(id)
	if err != nil {
		return api.Customer{}, err
	}
	c, err := s.repo.Get(ctx, cid)
	if err != nil {
		return api.Customer{}, err
	}
	return s.view(ctx, c)
}

// FindCustomerByEmail returns a customer by email, case-insensitively.
func (s *Service) FindCustomerByEmail(ctx context.Context, email string) (api.Customer, error) {
	e, err := domain.NormalizeEmail(email)
	if err != nil {
		return api.Customer{}, domain.ErrCustomerNotFound
	}
	c, err := s.repo.FindByEmail(ctx, e)
	if err != nil {
		return api.Customer{}, err
	}
	return s.view(ctx, c)
}

// CustomerContact returns a customer's id, email, phone and names, by id or, when id
// is "", by email (case-insensitive): one narrow read, no addresses.
func (s *Service) CustomerContact(ctx context.Context, id, email string) (api.Contact, error) {
	var cid domain.CustomerID
	if id != "" {
		var err error
		if cid, err = customerID(id); err != nil {
			return api.Contact{}, err
		}
	} else {
		e, err := domain.NormalizeEmail(email)
		if err != nil {
			return api.Contact{}, domain.ErrCustomerNotFound
		}
		email = e
	}
	return s.repo.Contact(ctx, cid, email)
}

// Details is a customer with its recent orders when asked for.
type Details struct {
	Customer api.Customer
	Orders   []ports.OrderSummary
}

// IncludeOrdersLimit is how many recent orders include=orders shows.
const IncludeOrdersLimit = 20

// Get answers GET /customers/{id_or_email}: a key containing "@" is an email. A
// customer may read only its own record (another's is CUSTOMER_NOT_FOUND). With
// withOrders the 20 most recent orders come along.
func (s *Service) Get(ctx context.Context, a Actor, key string, withOrders bool) (Details, error) {
	var (
		c   *domain.Customer
		err error
	)
	if strings.Contains(key, "@") {
		e, nerr := domain.NormalizeEmail(key)
		if nerr != nil {
			return Details{}, domain.ErrCustomerNotFound
		}
		c, err = s.repo.FindByEmail(ctx, e)
	} else {
		var cid domain.CustomerID
		if cid, err = customerID(key); err == nil {
			c, err = s.repo.Get(ctx, cid)
		}
	}
	if err != nil {
		return Details{}, err
	}
	if err := a.own(string(c.ID)); err != nil {
		return Details{}, err
	}
	v, err := s.view(ctx, c)
	if err != nil {
		return Details{}, err
	}
	d := Details{Customer: v}
	if withOrders {
		d.Orders, _, err = s.orders.ListOrders(ctx, string(c.ID), ports.OrderFilter{}, 0, IncludeOrdersLimit)
		if err != nil {
			return Details{}, err
		}
		if d.Orders == nil {
			d.Orders = []ports.OrderSummary{}
		}
	}
	return d, nil
}

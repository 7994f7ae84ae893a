package app

import (
	"context"

	"github.com/gocommerce/commerce/modules/customers/api"
	"github.com/gocommerce/commerce/modules/customers/domain"
	"github.com/gocommerce/commerce/modules/customers/ports"
)

// ListQuery is GET /customers and the body of POST /customers/search.
type ListQuery struct {
	Filter ports.CustomerFilter
	Sort   ports.SortField // default created_at
	Desc   bool
	Page   Page
}

// List answers a page of customer summaries (API keys and staff only).
func (s *Service) List(ctx context.Context, a Actor, q ListQuery) ([]api.Customer, int64, error) {
	if err := a.staffRead(); err != nil {
		return nil, 0, err
	}
	return s.list(ctx, q)
}

// SearchQuery is POST /customers/search: a query string ("field:value" tokens and free
// words) on top of the filters.
type SearchQuery struct {
	Query string
	ListQuery
}

// Search answers customers matching the query and the filters (API keys and staff only).
func (s *Service) Search(ctx context.Context, a Actor, q SearchQuery) ([]api.Customer, int64, error) {
	if err := a.staffRead(); err != nil {
		return nil, 0, err
	}
	terms, err := domain.ParseSearch(q.Query)
	if err != nil {
		return nil, 0, err
	}
	f := &q.Filter
	f.EmailContains, f.PhoneContains, f.FirstName, f.LastName = terms.Email, terms.Phone, terms.FirstName, terms.LastName
	f.States = append(f.States, terms.States...)
	f.Tags = append(f.Tags, terms.Tags...)
	if terms.AcceptsMarketing != nil {
		f.AcceptsMarketing = terms.AcceptsMarketing
	}
	f.Terms = append(f.Terms, terms.Terms...)
	return s.list(ctx, q.ListQuery)
}

func (s *Service) list(ctx context.Context, q ListQuery) ([]api.Customer, int64, error) {
	if q.Sort == "" {
		q.Sort = ports.SortCreatedAt
	}
	if q.Filter.Now.IsZero() {
		q.Filter.Now = s.clock.Now()
	}
	cs, total, err := s.repo.List(ctx, ports.CustomerQuery{Filter: q.Filter, Sort: q.Sort, Desc: q.Desc, Offset: q.Page.Offset, Limit: q.Page.Limit})
	if err != nil {
		return nil, 0, err
	}
	idsOf := make([]domain.CustomerID, len(cs))
	for i, c := range cs {
		idsOf[i] = c.ID
	}
	defs, err := s.addrs.DefaultShipping(ctx, idsOf)
	if err != nil {
		return nil, 0, err
	}
	out := make([]api.Customer, len(cs))
	for i, c := range cs {
		out[i] = toAPI(c, nil, defs[c.ID])
	}
	return out, total, nil
}

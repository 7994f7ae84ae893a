// Package exportapi implements the customers module's ports.Exporter on top of another
// module's query of a customer's resources (carts, subscriptions and notifications,
// each through its module's query side, which depends on no other module, so the wire
// graph stays acyclic: docs/decisions/0108). The resources become export records as
// that module's API shapes them; ordersapi exports orders the same way.
package exportapi

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/gocommerce/commerce/modules/customers/ports"
)

// Source is ports.Exporter over one kind of another module's resources: list is that
// module's query, what and id name a resource in an error.
type Source[T any] struct {
	list func(ctx context.Context, customerID string) ([]T, error)
	what string
	id   func(T) string
}

var _ ports.Exporter = Source[struct{}]{}

// NewSource builds a Source.
func NewSource[T any](list func(ctx context.Context, customerID string) ([]T, error), what string, id func(T) string) Source[T] {
	return Source[T]{list: list, what: what, id: id}
}

// Export answers the customer's resources as records (records); the query's error is
// passed on.
func (s Source[T]) Export(ctx context.Context, customerID string) ([]ports.Record, error) {
	list, err := s.list(ctx, customerID)
	if err != nil {
		return nil, err
	}
	return records(list, s.what, s.id)
}

// records answers each resource as the JSON object it encodes to (its API shape); what
// and id name a resource in an error.
func records[T any](list []T, what string, id func(T) string) ([]ports.Record, error) {
	out := make([]ports.Record, 0, len(list))
	for _, v := range list {
		raw, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("customers: export %s %s: %w", what, id(v), err)
		}
		var rec ports.Record
		if err := json.Unmarshal(raw, &rec); err != nil {
			return nil, fmt.Errorf("customers: export %s %s: %w", what, id(v), err)
		}
		out = append(out, rec)
	}
	return out, nil
}

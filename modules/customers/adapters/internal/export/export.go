// Package export turns other modules' API resources into the customers module's export
// records (the adapters of the data export use it).
package export

import (
	"encoding/json"
	"fmt"

	"github.com/gocommerce/commerce/modules/customers/ports"
)

// Records answers each resource as the JSON object it encodes to (its API shape); what
// and id name a resource in an error.
func Records[T any](list []T, what string, id func(T) string) ([]ports.Record, error) {
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

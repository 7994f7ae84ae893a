package carrierhttp

import (
	"bytes"
	"encoding/json"
)

// OneOrMany decodes a member that is an object when there is one and an array when
// there are several (UPS answers this way).
type OneOrMany[T any] []T

// UnmarshalJSON accepts an object, an array or null.
func (o *OneOrMany[T]) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '[' {
		var many []T
		if err := json.Unmarshal(b, &many); err != nil {
			return err
		}
		*o = many
		return nil
	}
	if bytes.Equal(b, []byte("null")) {
		*o = nil
		return nil
	}
	var one T
	if err := json.Unmarshal(b, &one); err != nil {
		return err
	}
	*o = []T{one}
	return nil
}

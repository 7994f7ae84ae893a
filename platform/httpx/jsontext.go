package httpx

import (
	"bytes"
	"encoding/json"
)

// JSONText reads a JSON value a client may send either as a string or bare (a number
// written as "12" or 12): a string's contents with quoted true, else the value's own
// text (a number's literal, null, or whatever else was sent) with quoted false. The
// error is a malformed string's. A field type's UnmarshalJSON decides what the bare
// text means.
func JSONText(b []byte) (text string, quoted bool, err error) {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return "", true, err
		}
		return s, true, nil
	}
	return string(b), false, nil
}

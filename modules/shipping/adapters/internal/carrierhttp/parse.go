package carrierhttp

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/shipping/domain"
)

// Amount reads a carrier's money value ("12.34" or a JSON number's text).
func Amount(s string) (decimal.Decimal, bool) {
	d, err := decimal.NewFromString(strings.TrimSpace(s))
	return d, err == nil && !d.IsNegative()
}

// Up rounds a weight or dimension up to places decimals (carriers bill the next unit).
func Up(d decimal.Decimal, places int32) string {
	return d.RoundUp(places).String()
}

// ParseTime reads the time formats carriers use (RFC 3339 with or without a zone, a
// date with a time, a bare date), as UTC.
func ParseTime(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "20060102 150405", "2006-01-02", "20060102"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}

// Join joins the non-empty parts with ", " (a scan location).
func Join(parts ...string) string {
	out := parts[:0:0]
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, ", ")
}

// Event builds a tracking event (status, the carrier's code, description, location, time).
func Event(status domain.Status, code, description, location string, at time.Time) domain.TrackingEvent {
	return domain.TrackingEvent{Status: status, Code: code, Description: description, Location: location, OccurredAt: at}
}

// Statuses maps a carrier's event codes to tracking statuses.
type Statuses map[string]domain.Status

// Of is code's status; a code the map does not know is in transit.
func (s Statuses) Of(code string) domain.Status {
	if st, known := s[code]; known {
		return st
	}
	return domain.StatusInTransit
}

// LabelContentType maps a carrier's label format name to a content type.
func LabelContentType(format string) string {
	switch strings.ToUpper(format) {
	case "PNG":
		return "image/png"
	case "GIF":
		return "image/gif"
	case "ZPL", "ZPLII":
		return "application/zpl"
	}
	return "application/pdf"
}

// Decode unmarshals an error body, reporting success.
func Decode(body []byte, v any) bool { return json.Unmarshal(body, v) == nil }

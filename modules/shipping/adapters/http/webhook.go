package http

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/gocommerce/commerce/modules/shipping/app"
	"github.com/gocommerce/commerce/modules/shipping/domain"
	"github.com/gocommerce/commerce/platform/apperr"
)

// parseWebhook reads the house format: {tracking_number, events: [{status, code,
// description, location, occurred_at}]} or one event's members at the top level.
func parseWebhook(carrier string, body []byte) (app.TrackingUpdate, error) {
	var req webhookRequest
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(&req); err != nil {
		return app.TrackingUpdate{}, apperr.Validation(map[string]string{"body": "must be a JSON object with tracking_number and events"})
	}
	problems := map[string]string{}
	req.TrackingNumber = strings.TrimSpace(req.TrackingNumber)
	if req.TrackingNumber == "" {
		problems["tracking_number"] = "is required"
	}
	events := req.Events
	if len(events) == 0 && req.Status != "" {
		events = []trackingEventRequest{req.trackingEventRequest}
	}
	if len(events) == 0 {
		problems["events"] = "must have at least one event"
	}
	out := app.TrackingUpdate{Carrier: carrier, TrackingNumber: req.TrackingNumber}
	for i, e := range events {
		st := domain.Status(e.Status)
		if !st.Valid() || st == domain.StatusPending {
			problems[fmt.Sprintf("events[%d].status", i)] = "must be one of: label_created, in_transit, out_for_delivery, delivered, exception, cancelled"
		}
		if e.OccurredAt.IsZero() {
			problems[fmt.Sprintf("events[%d].occurred_at", i)] = "is required (RFC 3339)"
		}
		out.Events = append(out.Events, domain.TrackingEvent{Status: st, Code: e.Code, Description: truncate(e.Description),
			Location: truncate(e.Location), OccurredAt: e.OccurredAt.UTC(), Source: "webhook"})
	}
	if len(problems) > 0 {
		return app.TrackingUpdate{}, apperr.Validation(problems)
	}
	return out, nil
}

func truncate(s string) string {
	if len(s) > domain.MaxText {
		return s[:domain.MaxText]
	}
	return s
}

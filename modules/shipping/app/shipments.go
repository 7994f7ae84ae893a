package app

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/gocommerce/commerce/modules/shipping/api"
	"github.com/gocommerce/commerce/modules/shipping/domain"
	"github.com/gocommerce/commerce/modules/shipping/ports"
	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/auth"
	"github.com/gocommerce/commerce/platform/ids"
)

// CreateShipment validates the shipment, links it to its order (when order_id is
// given), buys the label from the carrier (outside any transaction), stores the label
// file, then records the shipment (label_created), its first tracking event and
// shipment.created in one transaction.
func (s *Service) CreateShipment(ctx context.Context, in domain.ShipmentInput) (api.Shipment, error) {
	sh, problems := domain.ValidateShipment(in)
	if problems != nil {
		return api.Shipment{}, apperr.Validation(problems)
	}
	carrier, ok := s.carriers.get(sh.Carrier)
	if !ok {
		return api.Shipment{}, domain.ErrInvalidCarrier.WithField("carrier", "is not configured")
	}
	if sh.OrderID != "" {
		if !ids.Valid(sh.OrderID) {
			return api.Shipment{}, apperr.Validation(map[string]string{"order_id": "must be a UUID"})
		}
		o, err := s.orders.Order(ctx, sh.OrderID)
		if err != nil {
			return api.Shipment{}, err
		}
		sh.OrderID = o.ID
	}
	now := s.clock.Now().UTC()
	sh.ID = s.newID()
	lctx, cancel := context.WithTimeout(ctx, s.settings.LabelTimeout)
	label, err := carrier.CreateLabel(lctx, ports.LabelRequest{Shipment: sh, Currency: "USD", ShipDate: now})
	cancel()
	if err != nil {
		if errors.Is(err, domain.ErrInvalidServiceCode) {
			e, _ := apperr.As(err)
			return api.Shipment{}, e.WithField("service_code", e.Message)
		}
		if _, ok := apperr.As(err); !ok || errors.Is(err, context.DeadlineExceeded) {
			return api.Shipment{}, domain.ErrCarrierUnavailable.WithMessage("%s did not create the label", sh.Carrier).WithCause(err)
		}
		return api.Shipment{}, err
	}
	sh.TrackingNumber, sh.ServiceName = label.TrackingNumber, label.ServiceName
	sh.TrackingURL = carrier.TrackingURL(label.TrackingNumber)
	sh.Price, sh.Currency = label.Price, label.Currency
	if sh.Currency == "" {
		sh.Currency = domain.TableCurrency // the carrier billed without naming it: USD
	}
	sh.EstimatedDelivery = label.EstimatedDelivery
	for i := range sh.Packages {
		sh.Packages[i].ID = s.newID()
		sh.Packages[i].TrackingNumber = label.TrackingNumber
		if i < len(label.PackageTrackingNumbers) && label.PackageTrackingNumbers[i] != "" {
			sh.Packages[i].TrackingNumber = label.PackageTrackingNumbers[i]
		}
	}
	if len(label.Image) > 0 {
		url, err := s.labels.Put(ctx, "shipping-label-"+sh.ID+labelExtension(label.ContentType), label.ContentType, label.Image)
		if err != nil {
			return api.Shipment{}, apperr.Wrap(err, "Could not store the label")
		}
		sh.LabelURL = url
	}
	sh.Status = domain.StatusLabelCreated
	sh.CreatedAt, sh.UpdatedAt = now, now
	if carrier.Live() {
		at := now.Add(s.settings.TrackingInterval)
		sh.NextTrackAt = &at
	}
	err = s.tx.InTx(ctx, func(ctx context.Context) error {
		if err := s.repo.Create(ctx, sh); err != nil {
			return err
		}
		if _, err := s.repo.AddEvents(ctx, []domain.TrackingEvent{{
			ID: s.newID(), ShipmentID: sh.ID, Status: domain.StatusLabelCreated, Code: "label_created",
			Description: "Shipping label created", OccurredAt: now, Source: "label",
		}}); err != nil {
			return err
		}
		return s.publish(ctx, api.EventShipmentCreated, sh, domain.StatusPending)
	})
	if err != nil {
		return api.Shipment{}, err
	}
	return ToResource(sh), nil
}

func labelExtension(contentType string) string {
	switch contentType {
	case "image/png":
		return ".png"
	case "image/gif":
		return ".gif"
	case "application/zpl", "application/x-zpl":
		return ".zpl"
	}
	return ".pdf"
}

// Includes of GET /shipping/shipments/{id}.
const (
	IncludeTrackingHistory = "tracking_history"
	IncludeOrder           = "order"
)

// GetShipmentQuery reads a shipment for a principal with optional includes.
type GetShipmentQuery struct {
	ID                     string
	Principal              *auth.Principal
	TrackingHistory, Order bool
}

// ParseIncludes reads the include parameter (a comma list).
func ParseIncludes(v string) (history, order bool, err error) {
	for _, part := range strings.Split(v, ",") {
		switch strings.TrimSpace(part) {
		case "":
		case IncludeTrackingHistory:
			history = true
		case IncludeOrder:
			order = true
		default:
			return false, false, apperr.Validation(map[string]string{"include": "must be a comma-separated list of: tracking_history, order"})
		}
	}
	return history, order, nil
}

// GetShipment returns a shipment. A customer sees only shipments of their own orders
// (another's, or one without an order, is not found).
func (s *Service) GetShipment(ctx context.Context, q GetShipmentQuery) (api.Shipment, error) {
	if !ids.Valid(q.ID) {
		return api.Shipment{}, domain.ErrShipmentNotFound
	}
	sh, err := s.repo.Get(ctx, q.ID)
	if err != nil {
		return api.Shipment{}, err
	}
	customer := q.Principal != nil && q.Principal.Kind == auth.Customer
	var order *ports.Order
	if sh.OrderID != "" && (customer || q.Order) {
		o, err := s.orders.Order(ctx, sh.OrderID)
		switch {
		case err == nil:
			order = &o
		case !isNotFound(err):
			return api.Shipment{}, err
		}
	}
	if customer && (order == nil || order.CustomerID != q.Principal.ID) {
		return api.Shipment{}, domain.ErrShipmentNotFound
	}
	out := ToResource(sh)
	if q.TrackingHistory {
		events, err := s.repo.Events(ctx, sh.ID)
		if err != nil {
			return api.Shipment{}, err
		}
		h := make([]api.TrackingEvent, len(events))
		for i, e := range events {
			h[i] = api.TrackingEvent{Status: string(e.Status), Code: e.Code, Description: e.Description, Location: e.Location,
				OccurredAt: e.OccurredAt.UTC(), Source: e.Source}
		}
		out.TrackingHistory = &h
	}
	if q.Order {
		out.Order = json.RawMessage("null")
		if order != nil {
			out.Order = order.Resource
		}
	}
	return out, nil
}

func isNotFound(err error) bool {
	e, ok := apperr.As(err)
	return ok && e.Kind == apperr.NotFound
}

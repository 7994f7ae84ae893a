package app

import (
	"context"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/inventory/api"
	"github.com/gocommerce/commerce/modules/inventory/domain"
	"github.com/gocommerce/commerce/modules/inventory/ports"
)

// Receive adds received stock to available at an active location (consuming incoming
// stock up to the quantity) and records an "in" movement with the cost per unit.
func (s *Service) Receive(ctx context.Context, cmd api.ReceiveCommand) (api.Receipt, error) {
	if cmd.Quantity <= 0 {
		return api.Receipt{}, domain.ErrInvalidQuantity
	}
	var cost *decimal.Decimal
	if cmd.CostPerUnit != "" {
		c, err := domain.ParseCost(cmd.CostPerUnit)
		if err != nil {
			return api.Receipt{}, err
		}
		cost = &c
	}
	if err := checkTexts(map[string]string{}, map[string]string{"notes": cmd.Notes, "reference": cmd.Reference}); err != nil {
		return api.Receipt{}, err
	}
	var out api.Receipt
	err := s.variantChange(ctx, cmd.ProductID, cmd.VariantID, func(ctx context.Context, v ports.Variant, now time.Time) error {
		loc, before, after, err := s.applyAt(ctx, v, locationOrDefault(cmd.LocationID), levelChange{
			op: func(q domain.Quantities) (domain.Quantities, error) { return q.Receive(cmd.Quantity) },
		}, now)
		if err != nil {
			return err
		}
		m := &domain.Movement{
			ProductID: v.ProductID, ProductName: v.ProductName, VariantID: v.VariantID, LocationID: loc.ID,
			Type: domain.MovementIn, QuantityBefore: before.Available, QuantityAfter: after.Available,
			Reason: domain.ReasonReceived, Reference: cmd.Reference, Notes: cmd.Notes,
			CostPerUnit: cost, Currency: v.Currency, CreatedBy: actorOr(cmd.Actor), CreatedAt: now,
		}
		if err := s.record(ctx, m); err != nil {
			return err
		}
		out = api.Receipt{
			MovementID: m.ID, ProductID: m.ProductID, VariantID: m.VariantID, LocationID: m.LocationID,
			MovementType: string(m.Type), Quantity: m.Quantity, QuantityBefore: m.QuantityBefore, QuantityAfter: m.QuantityAfter,
			CostPerUnit: formatCost(m.CostPerUnit, m.Currency), Reference: m.Reference, Notes: m.Notes,
			ReceivedBy: m.CreatedBy, CreatedAt: m.CreatedAt,
		}
		return s.publish(ctx, api.EventReceived, v.ProductID, out)
	})
	if err != nil {
		return api.Receipt{}, domain.StockLimitField(err, "quantity")
	}
	return out, nil
}

func formatCost(d *decimal.Decimal, currency string) *string {
	if d == nil {
		return nil
	}
	s := domain.FormatMoney(*d, currency)
	return &s
}

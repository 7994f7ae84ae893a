package app

import (
	"context"
	"strings"
	"time"

	"github.com/gocommerce/commerce/modules/inventory/api"
	"github.com/gocommerce/commerce/modules/inventory/domain"
	"github.com/gocommerce/commerce/modules/inventory/ports"
)

// Transfer moves available stock of a variant from one location to another (active)
// one, recording a pair of "transfer" movements that share the transfer id. The source
// is decreased with a conditional update (available >= quantity), whatever the
// variant's policy: stock that is not there cannot be moved.
func (s *Service) Transfer(ctx context.Context, cmd api.TransferCommand) (api.Transfer, error) {
	if cmd.Quantity <= 0 {
		return api.Transfer{}, domain.ErrInvalidQuantity
	}
	from, to := locationOrDefault(cmd.FromLocationID), strings.TrimSpace(cmd.ToLocationID)
	reason := strings.TrimSpace(cmd.Reason)
	if reason == "" {
		reason = domain.ReasonTransfer
	}
	fields := map[string]string{}
	switch to {
	case "":
		fields["to_location_id"] = "is required"
	case from:
		fields["to_location_id"] = "must differ from from_location_id"
	}
	if err := checkTexts(fields, map[string]string{"reason": reason, "notes": cmd.Notes, "reference": cmd.Reference}); err != nil {
		return api.Transfer{}, err
	}
	var out api.Transfer
	err := s.variantChange(ctx, cmd.ProductID, cmd.VariantID, func(ctx context.Context, v ports.Variant, now time.Time) error {
		src, err := s.location(ctx, from, false)
		if err != nil {
			return err
		}
		dst, err := s.location(ctx, to, true)
		if err != nil {
			return err
		}
		transferID := s.newID()
		actor := actorOr(cmd.Actor)
		legs := []struct {
			loc *domain.Location
			op  func(domain.Quantities) (domain.Quantities, error)
		}{
			{src, func(q domain.Quantities) (domain.Quantities, error) { return q.TransferOut(cmd.Quantity) }},
			{dst, func(q domain.Quantities) (domain.Quantities, error) { return q.Adjust(cmd.Quantity, v.Policy) }},
		}
		for _, leg := range legs {
			before, after, err := s.apply(ctx, levelChange{
				key:    ports.LevelKey{ProductID: v.ProductID, VariantID: v.VariantID, LocationID: leg.loc.ID},
				op:     leg.op,
				guard:  ports.Guard{NonNegativeAvailable: true},
				refuse: domain.ErrInventoryNegative,
			}, now)
			if err != nil {
				return err
			}
			if err := s.record(ctx, &domain.Movement{
				ProductID: v.ProductID, ProductName: v.ProductName, VariantID: v.VariantID, LocationID: leg.loc.ID,
				Type: domain.MovementTransfer, QuantityBefore: before.Available, QuantityAfter: after.Available,
				Reason: reason, Reference: cmd.Reference, Notes: cmd.Notes, TransferID: transferID,
				Currency: v.Currency, CreatedBy: actor, CreatedAt: now,
			}); err != nil {
				return err
			}
		}
		out = api.Transfer{
			TransferID: transferID, ProductID: v.ProductID, VariantID: v.VariantID,
			FromLocationID: src.ID, ToLocationID: dst.ID, Quantity: cmd.Quantity, Status: "completed",
			Reason: reason, Reference: cmd.Reference, Notes: cmd.Notes, TransferredBy: actor,
			CreatedAt: now, CompletedAt: now,
		}
		return s.publish(ctx, api.EventTransferred, v.ProductID, out)
	})
	if err != nil {
		return api.Transfer{}, domain.StockLimitField(err, "quantity")
	}
	return out, nil
}

package app

import (
	"context"
	"errors"
	"strings"

	"github.com/gocommerce/commerce/modules/carts/api"
	"github.com/gocommerce/commerce/modules/carts/domain"
	"github.com/gocommerce/commerce/modules/carts/ports"
)

// AddItemCommand adds a product variant to a cart.
type AddItemCommand struct {
	ProductID        string
	VariantID        string // "" for a product with only its default variant
	Quantity         int
	CustomAttributes map[string]string
}

// AddItem adds an item (or merges it into an identical one) and publishes
// cart.item_added; it returns the cart and the new or merged item.
func (s *Service) AddItem(ctx context.Context, id string, who Caller, cmd AddItemCommand) (*domain.Cart, *domain.Item, error) {
	if err := domain.CheckQuantity(cmd.Quantity); err != nil {
		return nil, nil, err
	}
	if err := domain.CheckAttributes(cmd.CustomAttributes); err != nil {
		return nil, nil, err
	}
	var item *domain.Item
	// The product is read before the cart, so that a conflicting change of the cart
	// does not read it again (and no row lock is held during another module's read);
	// its error is answered after the cart's own checks (docs/decisions/0088).
	p, perr := s.catalog.Product(ctx, strings.TrimSpace(cmd.ProductID), strings.TrimSpace(cmd.VariantID))
	out, err := s.apply(ctx, id, who, func(_ context.Context, c *domain.Cart) error {
		if perr != nil {
			return perr
		}
		var err error
		item, err = c.AddItem(newItemID(), p, cmd.Quantity, cmd.CustomAttributes, s.now())
		return err
	}, func(c *domain.Cart) []ports.Event {
		return []ports.Event{{Type: api.EventCartItemAdded, AggregateID: string(c.ID), Data: itemEvent(c, item)}}
	})
	if err != nil {
		return nil, nil, err
	}
	return out, item, nil
}

// UpdateItem changes an item's quantity and/or custom attributes and publishes
// cart.item_updated (and cart.item_removed for an identical item merged into it).
// A larger quantity is checked against the product's availability again.
func (s *Service) UpdateItem(ctx context.Context, id, itemID string, who Caller, ch domain.ItemChange) (*domain.Cart, *domain.Item, error) {
	if ch.Quantity != nil {
		if err := domain.CheckQuantity(*ch.Quantity); err != nil {
			return nil, nil, err
		}
	}
	if ch.CustomAttributes != nil {
		if err := domain.CheckAttributes(*ch.CustomAttributes); err != nil {
			return nil, nil, err
		}
	}
	var (
		out              *domain.Cart
		updated, removed *domain.Item
	)
	err := s.tx.InTx(ctx, func(ctx context.Context) error {
		c, err := s.change(ctx, id, who, func(ctx context.Context, c *domain.Cart) error {
			before, err := c.Item(domain.ItemID(strings.ToLower(itemID)))
			if err != nil {
				return err
			}
			previous := before.Quantity
			updated, removed, err = c.UpdateItem(before.ID, ch, s.now())
			if err != nil {
				return err
			}
			if updated.Quantity > previous {
				return s.checkAvailable(ctx, updated)
			}
			return nil
		})
		if err != nil {
			return err
		}
		out = c
		if removed != nil {
			if err := s.events.Publish(ctx, api.EventCartItemRemoved, string(c.ID), itemEvent(c, removed)); err != nil {
				return err
			}
		}
		return s.events.Publish(ctx, api.EventCartItemUpdated, string(c.ID), itemEvent(c, updated))
	})
	if err != nil {
		return nil, nil, err
	}
	return out, updated, nil
}

// checkAvailable asks the catalog whether the item's quantity can be sold; a product
// gone from the catalog is not available.
func (s *Service) checkAvailable(ctx context.Context, it *domain.Item) error {
	p, err := s.catalog.Product(ctx, it.ProductID, it.VariantID)
	if errors.Is(err, domain.ErrProductNotFound) || errors.Is(err, domain.ErrVariantNotFound) {
		return domain.ErrProductNotAvailable.WithMessage("Product is no longer available")
	}
	if err != nil {
		return err
	}
	return p.Available(it.Quantity)
}

// RemoveItem removes an item and publishes cart.item_removed.
func (s *Service) RemoveItem(ctx context.Context, id, itemID string, who Caller) error {
	return s.tx.InTx(ctx, func(ctx context.Context) error {
		var removed *domain.Item
		c, err := s.change(ctx, id, who, func(_ context.Context, c *domain.Cart) error {
			var err error
			removed, err = c.RemoveItem(domain.ItemID(strings.ToLower(itemID)))
			return err
		})
		if err != nil {
			return err
		}
		return s.events.Publish(ctx, api.EventCartItemRemoved, string(c.ID), itemEvent(c, removed))
	})
}

// ClearItems removes every item, publishing one cart.item_removed per item.
func (s *Service) ClearItems(ctx context.Context, id string, who Caller) error {
	return s.tx.InTx(ctx, func(ctx context.Context) error {
		var removed []*domain.Item
		c, err := s.change(ctx, id, who, func(_ context.Context, c *domain.Cart) error {
			removed = c.Clear()
			return nil
		})
		if err != nil {
			return err
		}
		for _, it := range removed {
			if err := s.events.Publish(ctx, api.EventCartItemRemoved, string(c.ID), itemEvent(c, it)); err != nil {
				return err
			}
		}
		return nil
	})
}

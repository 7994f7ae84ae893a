package app

import (
	"context"

	"github.com/gocommerce/commerce/modules/orders/api"
	"github.com/gocommerce/commerce/modules/orders/domain"
)

// AddNoteCommand adds a staff note.
type AddNoteCommand struct {
	Body           string
	Author         string // default: the caller (email or client id)
	NotifyCustomer bool
}

// AddNote adds a note to an order: order.note_created.
func (s *Service) AddNote(ctx context.Context, a Actor, key string, cmd AddNoteCommand) (api.Note, error) {
	if err := a.write(); err != nil {
		return api.Note{}, err
	}
	var out api.Note
	err := s.tx.InTx(ctx, func(ctx context.Context) error {
		o, err := s.load(ctx, key)
		if err != nil {
			return err
		}
		n, err := domain.NewNote(s.newID(), o.ID, cmd.Body, cmd.Author, a.Label, cmd.NotifyCustomer, s.clock.Now())
		if err != nil {
			return err
		}
		if err := s.notes.Create(ctx, n); err != nil {
			return err
		}
		out = ToNote(n)
		return s.publish(ctx, api.EventOrderNoteCreated, o.ID, api.NoteEvent{Note: out, OrderRef: ref(o)})
	})
	return out, err
}

// DeleteNote removes a note of an order (NOTE_NOT_FOUND).
func (s *Service) DeleteNote(ctx context.Context, a Actor, key, noteID string) error {
	if err := a.write(); err != nil {
		return err
	}
	return s.tx.InTx(ctx, func(ctx context.Context) error {
		o, err := s.load(ctx, key)
		if err != nil {
			return err
		}
		return s.notes.Delete(ctx, o.ID, noteID)
	})
}

// load reads an order by id or number (without a lock).
func (s *Service) load(ctx context.Context, key string) (*domain.Order, error) {
	return loadOrder(ctx, s.orders, key)
}

package postgres

import (
	"context"

	"gorm.io/gorm"

	"github.com/gocommerce/commerce/modules/orders/domain"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/ids"
)

// Create inserts a note.
func (r *NoteRepository) Create(ctx context.Context, n *domain.Note) error {
	row := noteRow{ID: n.ID, OrderID: n.OrderID, Body: n.Body, Author: n.Author, NotifyCustomer: n.NotifyCustomer, CreatedAt: n.CreatedAt.UTC()}
	return db.Insert(r.db.Conn(ctx), &row, nil, "orders: note")
}

// List returns a page of the order's notes, oldest first.
func (r *NoteRepository) List(ctx context.Context, orderID string, offset, limit int) ([]*domain.Note, int64, error) {
	q := r.db.Conn(ctx).Model(&noteRow{}).Where("order_id = ?", orderID).Session(&gorm.Session{})
	rows, total, err := db.Page[noteRow](q, "created_at, id", offset, limit, "orders: notes", "orders: notes")
	return db.Map(rows, noteRow.toDomain), total, err
}

// ListAll returns every note of the order, oldest first.
func (r *NoteRepository) ListAll(ctx context.Context, orderID string) ([]*domain.Note, error) {
	return db.FindAs(r.db.Conn(ctx).Where("order_id = ?", orderID).Order("created_at, id"), noteRow.toDomain, "orders: notes")
}

// Delete removes a note of the order.
func (r *NoteRepository) Delete(ctx context.Context, orderID, noteID string) error {
	if !ids.Valid(noteID) {
		return domain.ErrNoteNotFound
	}
	return db.One(r.db.Conn(ctx).Where("id = ? AND order_id = ?", noteID, orderID).Delete(&noteRow{}), domain.ErrNoteNotFound, "orders: note")
}

func (r noteRow) toDomain() *domain.Note {
	return &domain.Note{ID: r.ID, OrderID: r.OrderID, Body: r.Body, Author: r.Author, NotifyCustomer: r.NotifyCustomer, CreatedAt: r.CreatedAt.UTC()}
}

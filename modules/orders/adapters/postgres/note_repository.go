package postgres

import (
	"context"
	"fmt"

	"gorm.io/gorm"

	"github.com/gocommerce/commerce/modules/orders/domain"
	"github.com/gocommerce/commerce/modules/orders/ports"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/ids"
)

// NoteRepository implements ports.NoteRepository on orders_notes.
type NoteRepository struct {
	db *db.DB
}

var _ ports.NoteRepository = (*NoteRepository)(nil)

// NewNoteRepository builds the repository.
func NewNoteRepository(d *db.DB) *NoteRepository { return &NoteRepository{db: d} }

// Create inserts a note.
func (r *NoteRepository) Create(ctx context.Context, n *domain.Note) error {
	row := noteRow{ID: n.ID, OrderID: n.OrderID, Body: n.Body, Author: n.Author, NotifyCustomer: n.NotifyCustomer, CreatedAt: n.CreatedAt.UTC()}
	if err := r.db.Conn(ctx).Create(&row).Error; err != nil {
		return fmt.Errorf("orders: note: %w", err)
	}
	return nil
}

// List returns a page of the order's notes, oldest first.
func (r *NoteRepository) List(ctx context.Context, orderID string, offset, limit int) ([]*domain.Note, int64, error) {
	q := r.db.Conn(ctx).Model(&noteRow{}).Where("order_id = ?", orderID)
	var total int64
	if err := q.Session(&gorm.Session{}).Count(&total).Error; err != nil {
		return nil, 0, fmt.Errorf("orders: notes: %w", err)
	}
	var rows []noteRow
	if err := q.Order("created_at, id").Offset(offset).Limit(limit).Find(&rows).Error; err != nil {
		return nil, 0, fmt.Errorf("orders: notes: %w", err)
	}
	return toNotes(rows), total, nil
}

// ListAll returns every note of the order, oldest first.
func (r *NoteRepository) ListAll(ctx context.Context, orderID string) ([]*domain.Note, error) {
	var rows []noteRow
	if err := r.db.Conn(ctx).Where("order_id = ?", orderID).Order("created_at, id").Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("orders: notes: %w", err)
	}
	return toNotes(rows), nil
}

// Delete removes a note of the order.
func (r *NoteRepository) Delete(ctx context.Context, orderID, noteID string) error {
	if !ids.Valid(noteID) {
		return domain.ErrNoteNotFound
	}
	res := r.db.Conn(ctx).Where("id = ? AND order_id = ?", noteID, orderID).Delete(&noteRow{})
	if res.Error != nil {
		return fmt.Errorf("orders: note: %w", res.Error)
	}
	if res.RowsAffected == 0 {
		return domain.ErrNoteNotFound
	}
	return nil
}

func toNotes(rows []noteRow) []*domain.Note {
	out := make([]*domain.Note, len(rows))
	for i, r := range rows {
		out[i] = &domain.Note{ID: r.ID, OrderID: r.OrderID, Body: r.Body, Author: r.Author, NotifyCustomer: r.NotifyCustomer, CreatedAt: r.CreatedAt.UTC()}
	}
	return out
}

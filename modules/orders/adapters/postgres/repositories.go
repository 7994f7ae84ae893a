package postgres

import (
	"github.com/gocommerce/commerce/modules/orders/ports"
	"github.com/gocommerce/commerce/platform/db"
)

// The repositories, each holding the database handle it takes connections from
// (db.Conn); each one's methods are in its own file.
type (
	// NoteRepository implements ports.NoteRepository on orders_notes.
	NoteRepository struct{ db *db.DB }
	// OrderRepository implements ports.OrderRepository on the orders tables; an
	// order's child rows are written with plain SQL.
	OrderRepository struct {
		db           *db.DB
		orders       *db.Table[orderRow]
		lines        *db.Table[lineItemRow]
		fulfillments *db.Table[fulfillmentRow]
		refunds      *db.Table[refundRow]
		transactions *db.Table[transactionRow]
	}
)

var (
	_ ports.NoteRepository  = (*NoteRepository)(nil)
	_ ports.OrderRepository = (*OrderRepository)(nil)
)

// NewNoteRepository builds the repository.
func NewNoteRepository(d *db.DB) *NoteRepository { return &NoteRepository{db: d} }

// NewOrderRepository builds the repository.
func NewOrderRepository(d *db.DB) *OrderRepository {
	return &OrderRepository{
		db: d, orders: db.NewTable[orderRow](d), lines: db.NewTable[lineItemRow](d), fulfillments: db.NewTable[fulfillmentRow](d),
		refunds: db.NewTable[refundRow](d), transactions: db.NewTable[transactionRow](d),
	}
}

package postgres

import (
	"context"

	"github.com/gocommerce/commerce/modules/customers/domain"
	"github.com/gocommerce/commerce/modules/customers/ports"
	"github.com/gocommerce/commerce/platform/db"
)

// Record appends an entry.
func (r *AuditRepository) Record(ctx context.Context, e ports.AuditEntry) error {
	row := auditRow{ID: e.ID, CustomerID: string(e.CustomerID), Action: string(e.Action), Actor: e.Actor, ActorKind: e.ActorKind, CreatedAt: e.CreatedAt.UTC()}
	return db.Insert(r.db.Conn(ctx), &row, nil, "privacy audit: insert")
}

// ForCustomer lists the customer's entries, oldest first.
func (r *AuditRepository) ForCustomer(ctx context.Context, customer domain.CustomerID) ([]ports.AuditEntry, error) {
	return db.FindAs(r.db.Conn(ctx).Where("customer_id = ?", string(customer)).Order("created_at, id"), auditRow.toPort, "privacy audit: list")
}

package postgres

import (
	"github.com/gocommerce/commerce/modules/customers/ports"
	"github.com/gocommerce/commerce/platform/db"
)

// The repositories, each holding the database handle it takes connections from
// (db.Conn); each one's methods are in its own file.
type (
	// AddressRepository implements ports.AddressRepository on customer_addresses.
	AddressRepository struct{ db *db.DB }
	// AuditRepository implements ports.AuditRepository on customers_privacy_audit.
	AuditRepository struct{ db *db.DB }
	// CustomerRepository implements ports.CustomerRepository on the customers and
	// customer_tags tables.
	CustomerRepository struct {
		db *db.DB
		// Contact's statements, bound for the dialect once.
		contactByID, contactByEmail string
	}
	// OrderStatsRepository implements ports.OrderStatsRepository on customers_order_stats.
	OrderStatsRepository struct{ db *db.DB }
	// SegmentRepository implements ports.SegmentRepository on customers_segments.
	SegmentRepository struct{ db *db.DB }
	// TokenRepository implements ports.TokenRepository on customers_account_tokens.
	TokenRepository struct{ db *db.DB }
)

var (
	_ ports.AddressRepository    = (*AddressRepository)(nil)
	_ ports.AuditRepository      = (*AuditRepository)(nil)
	_ ports.CustomerRepository   = (*CustomerRepository)(nil)
	_ ports.OrderStatsRepository = (*OrderStatsRepository)(nil)
	_ ports.SegmentRepository    = (*SegmentRepository)(nil)
	_ ports.TokenRepository      = (*TokenRepository)(nil)
)

// NewAddressRepository builds the repository.
func NewAddressRepository(d *db.DB) *AddressRepository { return &AddressRepository{db: d} }

// NewAuditRepository builds the repository.
func NewAuditRepository(d *db.DB) *AuditRepository { return &AuditRepository{db: d} }

// NewCustomerRepository builds the repository.
func NewCustomerRepository(d *db.DB) *CustomerRepository {
	const contact = "SELECT id, email, phone, first_name, last_name FROM customers WHERE "
	return &CustomerRepository{db: d, contactByID: d.Rebind(contact + "id = ?"), contactByEmail: d.Rebind(contact + "email = ? LIMIT 1")}
}

// NewOrderStatsRepository builds the repository.
func NewOrderStatsRepository(d *db.DB) *OrderStatsRepository { return &OrderStatsRepository{db: d} }

// NewSegmentRepository builds the repository.
func NewSegmentRepository(d *db.DB) *SegmentRepository { return &SegmentRepository{db: d} }

// NewTokenRepository builds the repository.
func NewTokenRepository(d *db.DB) *TokenRepository { return &TokenRepository{db: d} }

package postgres

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/customers/domain"
	"github.com/gocommerce/commerce/modules/customers/ports"
	"github.com/gocommerce/commerce/platform/db"
)

type customerRow struct {
	ID               string     `gorm:"column:id;primaryKey"`
	Email            string     `gorm:"column:email"`
	Phone            string     `gorm:"column:phone"`
	FirstName        string     `gorm:"column:first_name"`
	LastName         string     `gorm:"column:last_name"`
	AcceptsMarketing bool       `gorm:"column:accepts_marketing"`
	MarketingOptInAt *time.Time `gorm:"column:marketing_opt_in_at"`
	TaxExempt        bool       `gorm:"column:tax_exempt"`
	TaxExemptions    string     `gorm:"column:tax_exemptions"`
	Currency         string     `gorm:"column:currency"`
	Language         string     `gorm:"column:language"`
	Note             string     `gorm:"column:note"`
	Tags             string     `gorm:"column:tags"`
	VerifiedEmail    bool       `gorm:"column:verified_email"`
	Metafields       string     `gorm:"column:metafields"`
	State            string     `gorm:"column:state"`
	HasPassword      bool       `gorm:"column:has_password"`
	OrdersCount      int        `gorm:"column:orders_count"`
	PaidOrdersCount  int        `gorm:"column:paid_orders_count"`
	TotalSpent       string     `gorm:"column:total_spent"`
	TotalSpentUnits  int64      `gorm:"column:total_spent_units"`
	StatsCurrency    string     `gorm:"column:stats_currency"`
	LastOrderID      *string    `gorm:"column:last_order_id"`
	LastOrderName    string     `gorm:"column:last_order_name"`
	LastOrderAt      *time.Time `gorm:"column:last_order_at"`
	AnonymizedAt     *time.Time `gorm:"column:anonymized_at"`
	CreatedAt        time.Time  `gorm:"column:created_at;autoCreateTime:false"`
	UpdatedAt        time.Time  `gorm:"column:updated_at;autoUpdateTime:false"`
}

func (customerRow) TableName() string { return "customers" }

func fromDomain(c *domain.Customer) (customerRow, error) {
	ex, err := json.Marshal(nonNil(c.TaxExemptions))
	if err != nil {
		return customerRow{}, err
	}
	tags, err := json.Marshal(nonNil(c.Tags))
	if err != nil {
		return customerRow{}, err
	}
	mf := c.Metafields
	if mf == nil {
		mf = map[string]any{}
	}
	meta, err := json.Marshal(mf)
	if err != nil {
		return customerRow{}, fmt.Errorf("customer %s: metafields: %w", c.ID, err)
	}
	row := customerRow{
		ID:               string(c.ID),
		Email:            c.Email,
		Phone:            c.Phone,
		FirstName:        c.FirstName,
		LastName:         c.LastName,
		AcceptsMarketing: c.AcceptsMarketing,
		MarketingOptInAt: db.UTCPtr(c.MarketingOptInAt),
		TaxExempt:        c.TaxExempt,
		TaxExemptions:    string(ex),
		Currency:         c.Currency,
		Language:         c.Language,
		Note:             c.Note,
		Tags:             string(tags),
		VerifiedEmail:    c.VerifiedEmail,
		Metafields:       string(meta),
		State:            string(c.State),
		HasPassword:      c.HasPassword,
		AnonymizedAt:     db.UTCPtr(c.AnonymizedAt),
		CreatedAt:        c.CreatedAt.UTC(),
		UpdatedAt:        c.UpdatedAt.UTC(),
	}
	setStats(&row, c.Stats)
	return row, nil
}

func setStats(row *customerRow, s domain.OrderStats) {
	row.OrdersCount = s.OrdersCount
	row.PaidOrdersCount = s.PaidOrders
	row.TotalSpent = s.TotalSpent.String()
	row.TotalSpentUnits = domain.MoneyUnits(s.TotalSpent)
	row.StatsCurrency = s.Currency
	row.LastOrderName = s.LastOrderName
	row.LastOrderAt = db.UTCPtr(s.LastOrderAt)
	row.LastOrderID = nil
	if s.LastOrderID != "" {
		id := s.LastOrderID
		row.LastOrderID = &id
	}
}

func (r customerRow) toDomain() (*domain.Customer, error) {
	c := &domain.Customer{
		ID:               domain.CustomerID(r.ID),
		Email:            r.Email,
		Phone:            r.Phone,
		FirstName:        r.FirstName,
		LastName:         r.LastName,
		AcceptsMarketing: r.AcceptsMarketing,
		MarketingOptInAt: db.UTCPtr(r.MarketingOptInAt),
		TaxExempt:        r.TaxExempt,
		Currency:         r.Currency,
		Language:         r.Language,
		Note:             r.Note,
		VerifiedEmail:    r.VerifiedEmail,
		State:            domain.State(r.State),
		HasPassword:      r.HasPassword,
		AnonymizedAt:     db.UTCPtr(r.AnonymizedAt),
		CreatedAt:        r.CreatedAt.UTC(),
		UpdatedAt:        r.UpdatedAt.UTC(),
	}
	if err := json.Unmarshal([]byte(r.TaxExemptions), &c.TaxExemptions); err != nil {
		return nil, fmt.Errorf("customer %s: tax_exemptions: %w", r.ID, err)
	}
	if err := json.Unmarshal([]byte(r.Tags), &c.Tags); err != nil {
		return nil, fmt.Errorf("customer %s: tags: %w", r.ID, err)
	}
	dec := json.NewDecoder(strings.NewReader(r.Metafields))
	dec.UseNumber()
	if err := dec.Decode(&c.Metafields); err != nil {
		return nil, fmt.Errorf("customer %s: metafields: %w", r.ID, err)
	}
	spent, err := decimal.NewFromString(r.TotalSpent)
	if err != nil {
		return nil, fmt.Errorf("customer %s: total_spent: %w", r.ID, err)
	}
	c.Stats = domain.OrderStats{
		OrdersCount: r.OrdersCount, PaidOrders: r.PaidOrdersCount, TotalSpent: spent, Currency: r.StatsCurrency,
		LastOrderName: r.LastOrderName, LastOrderAt: db.UTCPtr(r.LastOrderAt),
	}
	if r.LastOrderID != nil {
		c.Stats.LastOrderID = *r.LastOrderID
	}
	return c, nil
}

type tagRow struct {
	CustomerID string `gorm:"column:customer_id;primaryKey"`
	Tag        string `gorm:"column:tag;primaryKey"`
}

func (tagRow) TableName() string { return "customer_tags" }

type addressRow struct {
	ID                string    `gorm:"column:id;primaryKey"`
	CustomerID        string    `gorm:"column:customer_id"`
	FirstName         string    `gorm:"column:first_name"`
	LastName          string    `gorm:"column:last_name"`
	Company           string    `gorm:"column:company"`
	Phone             string    `gorm:"column:phone"`
	Address1          string    `gorm:"column:address1"`
	Address2          string    `gorm:"column:address2"`
	City              string    `gorm:"column:city"`
	Province          string    `gorm:"column:province"`
	Country           string    `gorm:"column:country"`
	Zip               string    `gorm:"column:zip"`
	IsDefaultShipping bool      `gorm:"column:is_default_shipping"`
	IsDefaultBilling  bool      `gorm:"column:is_default_billing"`
	CreatedAt         time.Time `gorm:"column:created_at;autoCreateTime:false"`
	UpdatedAt         time.Time `gorm:"column:updated_at;autoUpdateTime:false"`
}

func (addressRow) TableName() string { return "customer_addresses" }

func fromAddress(a *domain.Address) addressRow {
	return addressRow{
		ID: string(a.ID), CustomerID: string(a.CustomerID), FirstName: a.FirstName, LastName: a.LastName,
		Company: a.Company, Phone: a.Phone, Address1: a.Address1, Address2: a.Address2, City: a.City,
		Province: a.Province, Country: a.Country, Zip: a.Zip, IsDefaultShipping: a.IsDefaultShipping,
		IsDefaultBilling: a.IsDefaultBilling, CreatedAt: a.CreatedAt.UTC(), UpdatedAt: a.UpdatedAt.UTC(),
	}
}

func (r addressRow) toDomain() *domain.Address {
	return &domain.Address{
		ID: domain.AddressID(r.ID), CustomerID: domain.CustomerID(r.CustomerID), FirstName: r.FirstName,
		LastName: r.LastName, Company: r.Company, Phone: r.Phone, Address1: r.Address1, Address2: r.Address2,
		City: r.City, Province: r.Province, Country: r.Country, Zip: r.Zip, IsDefaultShipping: r.IsDefaultShipping,
		IsDefaultBilling: r.IsDefaultBilling, CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC(),
	}
}

type tokenRow struct {
	ID         string    `gorm:"column:id;primaryKey"`
	CustomerID string    `gorm:"column:customer_id"`
	Purpose    string    `gorm:"column:purpose"`
	TokenHash  string    `gorm:"column:token_hash"`
	ExpiresAt  time.Time `gorm:"column:expires_at"`
	CreatedAt  time.Time `gorm:"column:created_at;autoCreateTime:false"`
}

func (tokenRow) TableName() string { return "customers_account_tokens" }

func (r tokenRow) toDomain() domain.AccountToken {
	return domain.AccountToken{
		ID: r.ID, CustomerID: domain.CustomerID(r.CustomerID), Purpose: domain.TokenPurpose(r.Purpose),
		Hash: r.TokenHash, ExpiresAt: r.ExpiresAt.UTC(), CreatedAt: r.CreatedAt.UTC(),
	}
}

type orderStatRow struct {
	OrderID         string    `gorm:"column:order_id;primaryKey"`
	CustomerID      string    `gorm:"column:customer_id"`
	OrderNumber     string    `gorm:"column:order_number"`
	TotalPrice      string    `gorm:"column:total_price"`
	Currency        string    `gorm:"column:currency"`
	Status          string    `gorm:"column:status"`
	FinancialStatus string    `gorm:"column:financial_status"`
	OrderCreatedAt  time.Time `gorm:"column:order_created_at"`
	OrderUpdatedAt  time.Time `gorm:"column:order_updated_at"`
	RecordedAt      time.Time `gorm:"column:recorded_at"`
}

func (orderStatRow) TableName() string { return "customers_order_stats" }

func (r orderStatRow) toDomain() (domain.OrderFact, error) {
	total, err := decimal.NewFromString(r.TotalPrice)
	if err != nil {
		return domain.OrderFact{}, fmt.Errorf("order stats %s: total_price: %w", r.OrderID, err)
	}
	return domain.OrderFact{
		OrderID: r.OrderID, CustomerID: domain.CustomerID(r.CustomerID), OrderNumber: r.OrderNumber,
		TotalPrice: total, Currency: r.Currency, Status: r.Status, FinancialStatus: r.FinancialStatus,
		CreatedAt: r.OrderCreatedAt.UTC(), UpdatedAt: r.OrderUpdatedAt.UTC(),
	}, nil
}

type segmentRow struct {
	ID        string    `gorm:"column:id;primaryKey"`
	Name      string    `gorm:"column:name"`
	NameKey   string    `gorm:"column:name_key"`
	Query     string    `gorm:"column:query"`
	CreatedAt time.Time `gorm:"column:created_at;autoCreateTime:false"`
	UpdatedAt time.Time `gorm:"column:updated_at;autoUpdateTime:false"`
}

func (segmentRow) TableName() string { return "customers_segments" }

type auditRow struct {
	ID         string    `gorm:"column:id;primaryKey"`
	CustomerID string    `gorm:"column:customer_id"`
	Action     string    `gorm:"column:action"`
	Actor      string    `gorm:"column:actor"`
	ActorKind  string    `gorm:"column:actor_kind"`
	CreatedAt  time.Time `gorm:"column:created_at;autoCreateTime:false"`
}

func (auditRow) TableName() string { return "customers_privacy_audit" }

func (r auditRow) toPort() ports.AuditEntry {
	return ports.AuditEntry{
		ID: r.ID, CustomerID: domain.CustomerID(r.CustomerID), Action: ports.PrivacyAction(r.Action),
		Actor: r.Actor, ActorKind: r.ActorKind, CreatedAt: r.CreatedAt.UTC(),
	}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

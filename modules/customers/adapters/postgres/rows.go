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
	ID               string `gorm:"primaryKey"`
	Email            string
	Phone            string
	FirstName        string
	LastName         string
	AcceptsMarketing bool
	MarketingOptInAt *time.Time
	TaxExempt        bool
	TaxExemptions    string
	Currency         string
	Language         string
	Note             string
	Tags             string
	VerifiedEmail    bool
	Metafields       string
	State            string
	HasPassword      bool
	OrdersCount      int
	PaidOrdersCount  int
	TotalSpent       string
	TotalSpentUnits  int64
	StatsCurrency    string
	LastOrderID      *string
	LastOrderName    string
	LastOrderAt      *time.Time
	AnonymizedAt     *time.Time
	CreatedAt        time.Time `gorm:"autoCreateTime:false"`
	UpdatedAt        time.Time `gorm:"autoUpdateTime:false"`
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
	CustomerID string `gorm:"primaryKey"`
	Tag        string `gorm:"primaryKey"`
}

func (tagRow) TableName() string { return "customer_tags" }

type addressRow struct {
	ID                string `gorm:"primaryKey"`
	CustomerID        string
	FirstName         string
	LastName          string
	Company           string
	Phone             string
	Address1          string `gorm:"column:address1"`
	Address2          string `gorm:"column:address2"`
	City              string
	Province          string
	Country           string
	Zip               string
	IsDefaultShipping bool
	IsDefaultBilling  bool
	CreatedAt         time.Time `gorm:"autoCreateTime:false"`
	UpdatedAt         time.Time `gorm:"autoUpdateTime:false"`
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
	ID         string `gorm:"primaryKey"`
	CustomerID string
	Purpose    string
	TokenHash  string
	ExpiresAt  time.Time
	CreatedAt  time.Time `gorm:"autoCreateTime:false"`
}

func (tokenRow) TableName() string { return "customers_account_tokens" }

func (r tokenRow) toDomain() domain.AccountToken {
	return domain.AccountToken{
		ID: r.ID, CustomerID: domain.CustomerID(r.CustomerID), Purpose: domain.TokenPurpose(r.Purpose),
		Hash: r.TokenHash, ExpiresAt: r.ExpiresAt.UTC(), CreatedAt: r.CreatedAt.UTC(),
	}
}

type orderStatRow struct {
	OrderID         string `gorm:"primaryKey"`
	CustomerID      string
	OrderNumber     string
	TotalPrice      string
	Currency        string
	Status          string
	FinancialStatus string
	OrderCreatedAt  time.Time
	OrderUpdatedAt  time.Time
	RecordedAt      time.Time
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
	ID        string `gorm:"primaryKey"`
	Name      string
	NameKey   string
	Query     string
	CreatedAt time.Time `gorm:"autoCreateTime:false"`
	UpdatedAt time.Time `gorm:"autoUpdateTime:false"`
}

func (segmentRow) TableName() string { return "customers_segments" }

type auditRow struct {
	ID         string `gorm:"primaryKey"`
	CustomerID string
	Action     string
	Actor      string
	ActorKind  string
	CreatedAt  time.Time `gorm:"autoCreateTime:false"`
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

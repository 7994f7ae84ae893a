package postgres

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/orders/domain"
	"github.com/gocommerce/commerce/platform/db"
)

type orderRow struct {
	ID                 string `gorm:"primaryKey"`
	OrderNumber        int64  `gorm:"default:(-)"` // 0: the sequence's next (PostgreSQL), returned
	CustomerID         *string
	Email              string
	Phone              string
	Status             string
	FinancialStatus    string
	FulfillmentStatus  string
	Currency           string
	SubtotalPrice      decimal.Decimal
	TotalTax           decimal.Decimal
	TotalShipping      decimal.Decimal
	TotalDiscounts     decimal.Decimal
	TotalPrice         decimal.Decimal
	TotalPriceUnits    int64
	TotalWeight        decimal.Decimal
	TotalItems         int
	ShippingLines      string
	TaxLines           string
	DiscountCodes      string
	ShippingAddress    *string
	BillingAddress     *string
	Note               string
	NoteAttributes     string
	Tags               string
	Metafields         string
	CartToken          string
	CheckoutToken      string
	ReferringSite      string
	LandingSite        string
	SourceName         string
	ClientDetails      *string
	InventoryBehaviour string
	SendReceipt        bool
	CancelReason       string
	CreatedAt          time.Time `gorm:"autoCreateTime:false"`
	UpdatedAt          time.Time `gorm:"autoUpdateTime:false"`
	ProcessedAt        time.Time
	ClosedAt           *time.Time
	CancelledAt        *time.Time
	Version            int
}

func (orderRow) TableName() string { return "orders" }

type lineItemRow struct {
	ID                string `gorm:"primaryKey"`
	OrderID           string
	Position          int
	ProductID         string
	VariantID         string
	Title             string
	VariantTitle      string
	SKU               string
	Quantity          int
	Price             decimal.Decimal
	RequiresShipping  bool
	Taxable           bool
	IsGiftCard        bool
	Grams             decimal.Decimal
	InventoryTracked  bool
	ClaimedQuantity   int
	RestockedQuantity int
	FulfilledQuantity int
	RefundedQuantity  int
	CreatedAt         time.Time `gorm:"autoCreateTime:false"`
}

func (lineItemRow) TableName() string { return "orders_line_items" }

type fulfillmentRow struct {
	ID              string `gorm:"primaryKey"`
	OrderID         string
	Status          string
	LocationID      *string
	TrackingNumber  string
	TrackingCompany string
	TrackingURL     string
	NotifyCustomer  bool
	LineItems       string
	CreatedAt       time.Time `gorm:"autoCreateTime:false"`
	UpdatedAt       time.Time `gorm:"autoUpdateTime:false"`
	CancelledAt     *time.Time
}

func (fulfillmentRow) TableName() string { return "orders_fulfillments" }

type refundRow struct {
	ID             string `gorm:"primaryKey"`
	OrderID        string
	Status         string
	Note           string
	NotifyCustomer bool
	LineItems      string
	Shipping       decimal.Decimal
	Amount         decimal.Decimal
	CreatedAt      time.Time `gorm:"autoCreateTime:false"`
	ProcessedAt    *time.Time
}

func (refundRow) TableName() string { return "orders_refunds" }

type transactionRow struct {
	ID              string `gorm:"primaryKey"`
	OrderID         string
	Position        int
	Kind            string
	Status          string
	Amount          decimal.Decimal
	Currency        string
	Gateway         string
	PaymentID       *string
	ParentID        *string
	RefundID        *string
	GatewayRefundID *string
	ErrorCode       string
	Message         string
	CreatedAt       time.Time `gorm:"autoCreateTime:false"`
	ProcessedAt     *time.Time
}

func (transactionRow) TableName() string { return "orders_transactions" }

type noteRow struct {
	ID             string `gorm:"primaryKey"`
	OrderID        string
	Body           string
	Author         string
	NotifyCustomer bool
	CreatedAt      time.Time `gorm:"autoCreateTime:false"`
}

func (noteRow) TableName() string { return "orders_notes" }

// JSON shapes of the text columns (stable storage names, independent of the API).
type (
	jsonShipping struct {
		ID, Title, Code, Source string
		Price                   decimal.Decimal
	}
	jsonTax struct {
		ID, Title   string
		Rate, Price decimal.Decimal
	}
	jsonDiscount struct {
		Code, Type string
		Amount     decimal.Decimal
	}
	jsonFulfillmentLine struct {
		LineItemID string
		Quantity   int
	}
	jsonRefundLine struct {
		LineItemID    string
		Quantity      int
		Restock       bool
		Subtotal, Tax decimal.Decimal
	}
)

func toJSON(v any) string {
	raw, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("orders: encode %T: %v", v, err)) // only plain data is encoded
	}
	return string(raw)
}

func fromJSON(s string, v any) error {
	if s == "" {
		return nil
	}
	return json.Unmarshal([]byte(s), v)
}

func optJSON(v any, present bool) *string {
	if !present {
		return nil
	}
	s := toJSON(v)
	return &s
}

func utc(t time.Time) time.Time { return t.UTC() }

func mapOrEmpty(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

func fromOrder(o *domain.Order) orderRow {
	ship := make([]jsonShipping, len(o.ShippingLines))
	for i, s := range o.ShippingLines {
		ship[i] = jsonShipping{ID: s.ID, Title: s.Title, Code: s.Code, Source: s.Source, Price: s.Price}
	}
	tax := make([]jsonTax, len(o.TaxLines))
	for i, t := range o.TaxLines {
		tax[i] = jsonTax{ID: t.ID, Title: t.Title, Rate: t.Rate, Price: t.Price}
	}
	disc := make([]jsonDiscount, len(o.DiscountCodes))
	for i, d := range o.DiscountCodes {
		disc[i] = jsonDiscount{Code: d.Code, Type: d.Type, Amount: d.Amount}
	}
	tags := o.Tags
	if tags == nil {
		tags = []string{}
	}
	return orderRow{
		ID: o.ID, OrderNumber: o.Number, CustomerID: db.NullString(o.CustomerID), Email: o.Email, Phone: o.Phone,
		Status: string(o.Status), FinancialStatus: string(o.Financial), FulfillmentStatus: string(o.Fulfillment), Currency: o.Currency,
		SubtotalPrice: o.Subtotal, TotalTax: o.TotalTax, TotalShipping: o.TotalShipping, TotalDiscounts: o.TotalDiscounts,
		TotalPrice: o.TotalPrice, TotalPriceUnits: domain.Units(o.TotalPrice), TotalWeight: o.TotalWeightKg, TotalItems: o.TotalItems,
		ShippingLines: toJSON(ship), TaxLines: toJSON(tax), DiscountCodes: toJSON(disc),
		ShippingAddress: optJSON(o.ShippingAddress, o.ShippingAddress != nil), BillingAddress: optJSON(o.BillingAddress, o.BillingAddress != nil),
		Note: o.Note, NoteAttributes: toJSON(mapOrEmpty(o.NoteAttributes)), Tags: toJSON(tags), Metafields: toJSON(mapOrEmpty(o.Metafields)),
		CartToken: o.CartToken, CheckoutToken: o.CheckoutToken, ReferringSite: o.ReferringSite, LandingSite: o.LandingSite,
		SourceName: o.SourceName, ClientDetails: optJSON(o.ClientDetails, o.ClientDetails != nil),
		InventoryBehaviour: string(o.InventoryBehaviour), SendReceipt: o.SendReceipt, CancelReason: string(o.CancelReason),
		CreatedAt: utc(o.CreatedAt), UpdatedAt: utc(o.UpdatedAt), ProcessedAt: utc(o.ProcessedAt),
		ClosedAt: db.UTCPtr(o.ClosedAt), CancelledAt: db.UTCPtr(o.CancelledAt), Version: o.Version,
	}
}

func (r orderRow) toDomain() (*domain.Order, error) {
	o := &domain.Order{
		ID: r.ID, Number: r.OrderNumber, CustomerID: db.Deref(r.CustomerID), Email: r.Email, Phone: r.Phone,
		Status: domain.Status(r.Status), Financial: domain.FinancialStatus(r.FinancialStatus), Fulfillment: domain.FulfillmentStatus(r.FulfillmentStatus),
		Currency: r.Currency, Subtotal: r.SubtotalPrice, TotalTax: r.TotalTax, TotalShipping: r.TotalShipping, TotalDiscounts: r.TotalDiscounts,
		TotalPrice: r.TotalPrice, TotalWeightKg: r.TotalWeight, TotalItems: r.TotalItems, Note: r.Note,
		CartToken: r.CartToken, CheckoutToken: r.CheckoutToken, ReferringSite: r.ReferringSite, LandingSite: r.LandingSite, SourceName: r.SourceName,
		InventoryBehaviour: domain.InventoryBehaviour(r.InventoryBehaviour), SendReceipt: r.SendReceipt, CancelReason: domain.CancelReason(r.CancelReason),
		CreatedAt: utc(r.CreatedAt), UpdatedAt: utc(r.UpdatedAt), ProcessedAt: utc(r.ProcessedAt), ClosedAt: db.UTCPtr(r.ClosedAt), CancelledAt: db.UTCPtr(r.CancelledAt),
		Version: r.Version,
	}
	var (
		ship []jsonShipping
		tax  []jsonTax
		disc []jsonDiscount
	)
	for _, dec := range []struct {
		s string
		v any
	}{{r.ShippingLines, &ship}, {r.TaxLines, &tax}, {r.DiscountCodes, &disc}, {r.NoteAttributes, &o.NoteAttributes}, {r.Tags, &o.Tags}, {r.Metafields, &o.Metafields}} {
		if err := fromJSON(dec.s, dec.v); err != nil {
			return nil, fmt.Errorf("orders: order %s: %w", r.ID, err)
		}
	}
	for _, s := range ship {
		o.ShippingLines = append(o.ShippingLines, domain.ShippingLine{ID: s.ID, Title: s.Title, Code: s.Code, Source: s.Source, Price: s.Price})
	}
	for _, t := range tax {
		o.TaxLines = append(o.TaxLines, domain.TaxLine{ID: t.ID, Title: t.Title, Rate: t.Rate, Price: t.Price})
	}
	for _, d := range disc {
		o.DiscountCodes = append(o.DiscountCodes, domain.DiscountCode{Code: d.Code, Type: d.Type, Amount: d.Amount})
	}
	if r.ShippingAddress != nil {
		o.ShippingAddress = &domain.Address{}
		if err := fromJSON(*r.ShippingAddress, o.ShippingAddress); err != nil {
			return nil, fmt.Errorf("orders: order %s: %w", r.ID, err)
		}
	}
	if r.BillingAddress != nil {
		o.BillingAddress = &domain.Address{}
		if err := fromJSON(*r.BillingAddress, o.BillingAddress); err != nil {
			return nil, fmt.Errorf("orders: order %s: %w", r.ID, err)
		}
	}
	if r.ClientDetails != nil {
		o.ClientDetails = &domain.ClientDetails{}
		if err := fromJSON(*r.ClientDetails, o.ClientDetails); err != nil {
			return nil, fmt.Errorf("orders: order %s: %w", r.ID, err)
		}
	}
	if o.Tags == nil {
		o.Tags = []string{}
	}
	return o, nil
}

func fromLineItem(orderID string, li *domain.LineItem) lineItemRow {
	return lineItemRow{
		ID: li.ID, OrderID: orderID, Position: li.Position, ProductID: li.ProductID, VariantID: li.VariantID, Title: li.Title,
		VariantTitle: li.VariantTitle, SKU: li.SKU, Quantity: li.Quantity, Price: li.Price, RequiresShipping: li.RequiresShipping,
		Taxable: li.Taxable, IsGiftCard: li.IsGiftCard, Grams: li.Grams, InventoryTracked: li.InventoryTracked,
		ClaimedQuantity: li.ClaimedQuantity, RestockedQuantity: li.RestockedQuantity, FulfilledQuantity: li.FulfilledQuantity,
		RefundedQuantity: li.RefundedQuantity, CreatedAt: utc(li.CreatedAt),
	}
}

func (r lineItemRow) toDomain() *domain.LineItem {
	return &domain.LineItem{
		ID: r.ID, ProductID: r.ProductID, VariantID: r.VariantID, Title: r.Title, VariantTitle: r.VariantTitle, SKU: r.SKU,
		Quantity: r.Quantity, Price: r.Price, RequiresShipping: r.RequiresShipping, Taxable: r.Taxable, IsGiftCard: r.IsGiftCard,
		Grams: r.Grams, InventoryTracked: r.InventoryTracked, ClaimedQuantity: r.ClaimedQuantity, RestockedQuantity: r.RestockedQuantity,
		FulfilledQuantity: r.FulfilledQuantity, RefundedQuantity: r.RefundedQuantity, Position: r.Position, CreatedAt: utc(r.CreatedAt),
	}
}

func fromFulfillment(orderID string, f *domain.Fulfillment) fulfillmentRow {
	lines := make([]jsonFulfillmentLine, len(f.Lines))
	for i, l := range f.Lines {
		lines[i] = jsonFulfillmentLine(l)
	}
	return fulfillmentRow{
		ID: f.ID, OrderID: orderID, Status: f.Status, LocationID: db.NullString(f.LocationID), TrackingNumber: f.TrackingNumber,
		TrackingCompany: f.TrackingCompany, TrackingURL: f.TrackingURL, NotifyCustomer: f.NotifyCustomer, LineItems: toJSON(lines),
		CreatedAt: utc(f.CreatedAt), UpdatedAt: utc(f.UpdatedAt), CancelledAt: db.UTCPtr(f.CancelledAt),
	}
}

func (r fulfillmentRow) toDomain() (*domain.Fulfillment, error) {
	var lines []jsonFulfillmentLine
	if err := fromJSON(r.LineItems, &lines); err != nil {
		return nil, fmt.Errorf("orders: fulfillment %s: %w", r.ID, err)
	}
	f := &domain.Fulfillment{
		ID: r.ID, Status: r.Status, LocationID: db.Deref(r.LocationID), TrackingNumber: r.TrackingNumber, TrackingCompany: r.TrackingCompany,
		TrackingURL: r.TrackingURL, NotifyCustomer: r.NotifyCustomer, CreatedAt: utc(r.CreatedAt), UpdatedAt: utc(r.UpdatedAt), CancelledAt: db.UTCPtr(r.CancelledAt),
	}
	for _, l := range lines {
		f.Lines = append(f.Lines, domain.FulfillmentLine(l))
	}
	return f, nil
}

func fromRefund(orderID string, r *domain.Refund) refundRow {
	lines := make([]jsonRefundLine, len(r.Lines))
	for i, l := range r.Lines {
		lines[i] = jsonRefundLine(l)
	}
	return refundRow{
		ID: r.ID, OrderID: orderID, Status: r.Status, Note: r.Note, NotifyCustomer: r.NotifyCustomer, LineItems: toJSON(lines),
		Shipping: r.Shipping, Amount: r.Amount, CreatedAt: utc(r.CreatedAt), ProcessedAt: db.UTCPtr(r.ProcessedAt),
	}
}

func (r refundRow) toDomain() (*domain.Refund, error) {
	var lines []jsonRefundLine
	if err := fromJSON(r.LineItems, &lines); err != nil {
		return nil, fmt.Errorf("orders: refund %s: %w", r.ID, err)
	}
	out := &domain.Refund{
		ID: r.ID, Status: r.Status, Note: r.Note, NotifyCustomer: r.NotifyCustomer, Shipping: r.Shipping, Amount: r.Amount,
		CreatedAt: utc(r.CreatedAt), ProcessedAt: db.UTCPtr(r.ProcessedAt),
	}
	for _, l := range lines {
		out.Lines = append(out.Lines, domain.RefundLine(l))
	}
	return out, nil
}

func fromTransaction(orderID string, pos int, t *domain.Transaction) transactionRow {
	return transactionRow{
		ID: t.ID, OrderID: orderID, Position: pos, Kind: string(t.Kind), Status: string(t.Status), Amount: t.Amount, Currency: t.Currency,
		Gateway: t.Gateway, PaymentID: db.NullString(t.PaymentID), ParentID: db.NullString(t.ParentID), RefundID: db.NullString(t.RefundID),
		GatewayRefundID: db.NullString(t.GatewayRefundID), ErrorCode: t.ErrorCode, Message: t.Message, CreatedAt: utc(t.CreatedAt), ProcessedAt: db.UTCPtr(t.ProcessedAt),
	}
}

func (r transactionRow) toDomain() *domain.Transaction {
	return &domain.Transaction{
		ID: r.ID, Kind: domain.TransactionKind(r.Kind), Status: domain.TransactionStatus(r.Status), Amount: r.Amount, Currency: r.Currency,
		Gateway: r.Gateway, PaymentID: db.Deref(r.PaymentID), ParentID: db.Deref(r.ParentID), RefundID: db.Deref(r.RefundID),
		GatewayRefundID: db.Deref(r.GatewayRefundID), ErrorCode: r.ErrorCode, Message: r.Message, CreatedAt: utc(r.CreatedAt), ProcessedAt: db.UTCPtr(r.ProcessedAt),
	}
}

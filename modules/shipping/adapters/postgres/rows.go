package postgres

import (
	"encoding/json"
	"time"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/shipping/domain"
	"github.com/gocommerce/commerce/platform/db"
)

type shipmentRow struct {
	ID                string `gorm:"primaryKey"`
	OrderID           string
	Carrier           string
	ServiceCode       string
	ServiceName       string
	TrackingNumber    string
	TrackingURL       string
	LabelURL          string
	Status            string
	Price             decimal.Decimal
	Currency          string
	Weight            string
	WeightUnit        string
	Dimensions        string
	ShipFrom          string
	ShipTo            string
	Packages          string
	CustomsInfo       string
	Insurance         string
	Options           string
	Reference         string
	NotifyCustomer    bool
	CreatedAt         time.Time
	UpdatedAt         time.Time
	ShippedAt         *time.Time
	DeliveredAt       *time.Time
	EstimatedDelivery *time.Time
	NextTrackAt       *time.Time
	Version           int
}

func (shipmentRow) TableName() string { return "shipping_shipments" }

type trackingNumberRow struct {
	Carrier        string `gorm:"primaryKey"`
	TrackingNumber string `gorm:"primaryKey"`
	ShipmentID     string
}

func (trackingNumberRow) TableName() string { return "shipping_tracking_numbers" }

type eventRow struct {
	ID          string `gorm:"primaryKey"`
	ShipmentID  string
	Fingerprint string
	Status      string
	Code        string
	Description string
	Location    string
	Source      string
	OccurredAt  time.Time
	CreatedAt   time.Time
}

func (eventRow) TableName() string { return "shipping_tracking_events" }

// JSON shapes of the text columns: stable storage names, independent of the API.
type (
	jsonDimensions struct {
		Length, Width, Height decimal.Decimal
		Unit                  string
	}
	jsonPackage struct {
		ID, TrackingNumber string
		Weight             decimal.Decimal
		WeightUnit         string
		Dimensions         *jsonDimensions
		Items              []domain.Item
	}
	jsonCustoms struct {
		ContentsType, CustomsSigner, EELPFC, NonDeliveryOption, RestrictionType string
		CustomsCertify                                                          bool
		Items                                                                   []domain.CustomsItem
	}
)

func toJSON(v any) string {
	raw, err := json.Marshal(v)
	if err != nil {
		return "null"
	}
	return string(raw)
}

func dimsTo(d *domain.Dimensions) *jsonDimensions {
	if d == nil {
		return nil
	}
	return &jsonDimensions{Length: d.Length, Width: d.Width, Height: d.Height, Unit: string(d.Unit)}
}

func dimsFrom(d *jsonDimensions) *domain.Dimensions {
	if d == nil {
		return nil
	}
	return &domain.Dimensions{Length: d.Length, Width: d.Width, Height: d.Height, Unit: domain.DimensionUnit(d.Unit)}
}

func fromShipment(s *domain.Shipment) shipmentRow {
	pkgs := make([]jsonPackage, len(s.Packages))
	for i, p := range s.Packages {
		pkgs[i] = jsonPackage{ID: p.ID, TrackingNumber: p.TrackingNumber, Weight: p.Weight, WeightUnit: string(p.WeightUnit),
			Dimensions: dimsTo(p.Dimensions), Items: p.Items}
	}
	var customs *jsonCustoms
	if c := s.CustomsInfo; c != nil {
		customs = &jsonCustoms{ContentsType: c.ContentsType, CustomsSigner: c.CustomsSigner, EELPFC: c.EELPFC,
			NonDeliveryOption: c.NonDeliveryOption, RestrictionType: c.RestrictionType, CustomsCertify: c.CustomsCertify, Items: c.Items}
	}
	return shipmentRow{
		ID: s.ID, OrderID: s.OrderID, Carrier: s.Carrier, ServiceCode: s.ServiceCode, ServiceName: s.ServiceName,
		TrackingNumber: s.TrackingNumber, TrackingURL: s.TrackingURL, LabelURL: s.LabelURL, Status: string(s.Status),
		Price: s.Price, Currency: s.Currency, Weight: s.Weight.String(), WeightUnit: string(s.WeightUnit),
		Dimensions: toJSON(dimsTo(s.Dimensions)), ShipFrom: toJSON(s.ShipFrom), ShipTo: toJSON(s.ShipTo), Packages: toJSON(pkgs),
		CustomsInfo: toJSON(customs), Insurance: toJSON(s.Insurance), Options: toJSON(s.Options), Reference: s.Reference,
		NotifyCustomer: s.NotifyCustomer, CreatedAt: s.CreatedAt.UTC(), UpdatedAt: s.UpdatedAt.UTC(), ShippedAt: db.UTCPtr(s.ShippedAt),
		DeliveredAt: db.UTCPtr(s.DeliveredAt), EstimatedDelivery: db.UTCPtr(s.EstimatedDelivery), NextTrackAt: db.UTCPtr(s.NextTrackAt),
		Version: s.Version,
	}
}

func (r shipmentRow) toDomain() (*domain.Shipment, error) {
	s := &domain.Shipment{
		ID: r.ID, OrderID: r.OrderID, Carrier: r.Carrier, ServiceCode: r.ServiceCode, ServiceName: r.ServiceName,
		TrackingNumber: r.TrackingNumber, TrackingURL: r.TrackingURL, LabelURL: r.LabelURL, Status: domain.Status(r.Status),
		Price: r.Price, Currency: r.Currency, WeightUnit: domain.WeightUnit(r.WeightUnit), Reference: r.Reference,
		NotifyCustomer: r.NotifyCustomer, CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC(), ShippedAt: db.UTCPtr(r.ShippedAt),
		DeliveredAt: db.UTCPtr(r.DeliveredAt), EstimatedDelivery: db.UTCPtr(r.EstimatedDelivery), NextTrackAt: db.UTCPtr(r.NextTrackAt),
		Version: r.Version,
	}
	var err error
	if s.Weight, err = decimal.NewFromString(r.Weight); err != nil {
		return nil, err
	}
	var dims *jsonDimensions
	var pkgs []jsonPackage
	var customs *jsonCustoms
	cols := []struct {
		raw string
		dst any
	}{{r.Dimensions, &dims}, {r.ShipFrom, &s.ShipFrom}, {r.ShipTo, &s.ShipTo}, {r.Packages, &pkgs},
		{r.CustomsInfo, &customs}, {r.Insurance, &s.Insurance}, {r.Options, &s.Options}}
	for _, c := range cols {
		if err := json.Unmarshal([]byte(c.raw), c.dst); err != nil {
			return nil, err
		}
	}
	s.Dimensions = dimsFrom(dims)
	for _, p := range pkgs {
		s.Packages = append(s.Packages, domain.Package{ID: p.ID, TrackingNumber: p.TrackingNumber, Weight: p.Weight,
			WeightUnit: domain.WeightUnit(p.WeightUnit), Dimensions: dimsFrom(p.Dimensions), Items: p.Items})
	}
	if c := customs; c != nil {
		s.CustomsInfo = &domain.CustomsInfo{ContentsType: c.ContentsType, CustomsSigner: c.CustomsSigner, EELPFC: c.EELPFC,
			NonDeliveryOption: c.NonDeliveryOption, RestrictionType: c.RestrictionType, CustomsCertify: c.CustomsCertify, Items: c.Items}
	}
	return s, nil
}

package ports

import "time"

// OrderFacts is what the statistics read of an order event (the events adapter fills
// it from the orders module's resource).
type OrderFacts struct {
	ID, CustomerID, Currency                   string
	Status, FinancialStatus, FulfillmentStatus string
	Channel, Country                           string
	TotalPrice, TotalDiscounts, TotalRefunded  string
	CreatedAt, UpdatedAt                       time.Time
	ClosedAt                                   *time.Time
	// PaymentMethod is the gateway of the first successful sale, capture or
	// authorization, "" when the event carries no transactions.
	PaymentMethod string
	// FirstShipment is the earliest successful fulfillment's time, nil when the event
	// carries no fulfillments.
	FirstShipment *time.Time
	Lines         []LineFacts
}

// LineFacts is a line of an OrderFacts.
type LineFacts struct {
	ProductID, VariantID, Title, SKU, Price string
	Quantity, RefundedQuantity              int
}

// CustomerFacts is what the statistics read of a customer event.
type CustomerFacts struct {
	ID        string
	CreatedAt time.Time
}

// SubscriptionFacts is what the statistics read of a subscription event.
type SubscriptionFacts struct {
	ID, Currency, Status, Interval, Amount string
	IntervalCount                          int
	StartsAt, CreatedAt, UpdatedAt         time.Time
	CancelledAt, EndsAt                    *time.Time
}

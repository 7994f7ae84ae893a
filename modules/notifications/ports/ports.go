// Package ports declares what the notifications module needs, in its own words: the
// stores, the channels a message leaves by, and the customers it writes to.
package ports

import (
	"context"
	"errors"
	"time"

	"github.com/gocommerce/commerce/modules/notifications/domain"
)

// ErrChannelUnavailable marks a channel that is not configured (no SMS provider, no
// push project): the attempt fails with this message.
var ErrChannelUnavailable = errors.New("channel not configured")

// Channel delivers messages of one channel.
type Channel interface {
	// Name is the channel (email, sms, push, webhook, in_app).
	Name() string
	// Send delivers n and answers the provider's message id ("" when it gives none).
	Send(ctx context.Context, n *domain.Notification) (providerID string, err error)
}

// Filter narrows a list of notifications.
type Filter struct {
	Channel, Status, Priority, Recipient, CustomerID string
	CreatedAfter, CreatedBefore                      *time.Time
	Sort                                             string // created_at, updated_at, priority
	Desc                                             bool
}

// Stats are counts per channel and status.
type Stats map[string]map[string]int64

// ErrStale is returned by Save when the notification changed since it was read.
var ErrStale = errors.New("notifications: notification changed concurrently")

// NotificationRepository stores notifications and their attempts.
type NotificationRepository interface {
	// Create inserts notifications (in batches).
	Create(ctx context.Context, ns ...*domain.Notification) error
	// CreateOnce inserts n unless a notification with its DedupeKey exists; created
	// reports which.
	CreateOnce(ctx context.Context, n *domain.Notification) (created bool, err error)
	// Get returns domain.ErrNotificationNotFound for an unknown id.
	Get(ctx context.Context, id string) (*domain.Notification, error)
	// List returns a page and the total.
	List(ctx context.Context, f Filter, offset, limit int) ([]*domain.Notification, int64, error)
	// Update loads n's row, lets change apply the domain rule and saves it when the
	// row still has the status and attempt count it was read with and no attempt is in
	// flight at now, else ErrStale.
	Update(ctx context.Context, id string, now time.Time, change func(*domain.Notification) error) (*domain.Notification, error)
	// Claim marks a due notification as taken for one attempt (attempt_count + 1,
	// claimed until `until`) and returns it; ok false when it is not due or taken.
	Claim(ctx context.Context, id string, now, until time.Time) (n *domain.Notification, ok bool, err error)
	// Finish stores the result of a claimed attempt and releases the claim.
	Finish(ctx context.Context, n *domain.Notification, a domain.Attempt) error
	// Due returns up to limit ids due at now, the most urgent first.
	Due(ctx context.Context, now time.Time, batchID string, limit int) ([]string, error)
	// Attempts returns a notification's attempts, oldest first.
	Attempts(ctx context.Context, id string) ([]domain.Attempt, error)
	// Stats counts notifications created since, per channel and status.
	Stats(ctx context.Context, channel, customerID string, since time.Time) (Stats, error)
	// ByCustomer returns every notification of a customer, newest first.
	ByCustomer(ctx context.Context, customerID string) ([]*domain.Notification, error)
	// FindByProviderID finds a notification by its provider message id.
	FindByProviderID(ctx context.Context, providerID string) (*domain.Notification, error)
	// ForgetCustomer erases the personal data of a customer's notifications (recipient,
	// texts, metadata), cancels those not sent yet, and answers how many it changed.
	ForgetCustomer(ctx context.Context, customerID string, now time.Time) (int64, error)
	// RecordDeliveryEvent stores an inbound webhook event id; false when it was seen.
	RecordDeliveryEvent(ctx context.Context, id string, at time.Time) (bool, error)
}

// TemplateRepository stores templates.
type TemplateRepository interface {
	Create(ctx context.Context, t *domain.Template) error
	// Get returns domain.ErrTemplateNotFound for an unknown id.
	Get(ctx context.Context, id string) (*domain.Template, error)
	List(ctx context.Context, channel, category string) ([]*domain.Template, error)
	Update(ctx context.Context, t *domain.Template) error
	Delete(ctx context.Context, id string) error
}

// Customer is a customer as notifications sees it.
type Customer struct {
	ID               string
	Email            string
	Phone            string
	FirstName        string
	LastName         string
	AcceptsMarketing bool
}

// Link is an account link to email.
type Link struct {
	URL       string
	ExpiresAt time.Time
}

// Customers reads customers and their account links.
type Customers interface {
	// Customer returns a customer, or an error matching customers' CUSTOMER_NOT_FOUND.
	Customer(ctx context.Context, id string) (Customer, error)
	// CustomerByEmail finds a customer by email, or an error matching
	// CUSTOMER_NOT_FOUND.
	CustomerByEmail(ctx context.Context, email string) (Customer, error)
	ActivationLink(ctx context.Context, customerID string) (Link, error)
	PasswordResetLink(ctx context.Context, customerID string) (Link, error)
}

// CartActivity is a customer's cart with items as of its last change: a candidate of
// the abandoned-cart sweep.
type CartActivity struct {
	CartID       string
	CustomerID   string
	Currency     string
	Total        string
	ItemCount    int
	LastActiveAt time.Time
}

// IdleCarts reads the carts module's idle customer carts (decision 0233).
type IdleCarts interface {
	// IdleCustomerCarts returns up to limit active customer carts with items last
	// changed before before, oldest change first, after the cursor (the last cart of
	// the previous page; the zero value for the first).
	IdleCustomerCarts(ctx context.Context, before time.Time, after CartActivity, limit int) ([]CartActivity, error)
}

// CartRepository keeps the abandoned-cart reminders sent: per cart, the activity
// (last change) the last reminder was for.
type CartRepository interface {
	// RemindedFor returns, of the carts, those reminded, with the last change their
	// last reminder was for.
	RemindedFor(ctx context.Context, cartIDs []string) (map[string]time.Time, error)
	// Reminded records a reminder sent at for the cart as of its last change.
	Reminded(ctx context.Context, c CartActivity, at time.Time) error
	// ForgetCustomer forgets the reminders of a customer's carts.
	ForgetCustomer(ctx context.Context, customerID string) error
}

package identity_test

import (
	"context"
	"strings"
	"testing"
	"time"

	customersapi "github.com/gocommerce/commerce/modules/customers/api"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/event"
	"github.com/gocommerce/commerce/platform/events"
	"github.com/gocommerce/commerce/platform/ids"
	"github.com/gocommerce/commerce/platform/testdb"
)

// fakeCustomers implements customers/api.Customers for identity's tests (modules meet
// only at their api package, tests included). It behaves like the real module where
// identity depends on it: rows go through db.Conn(ctx), so they join identity's
// transaction; a duplicate email is EMAIL_TAKEN; customer.created is written to the real
// outbox in the same transaction.
type fakeCustomers struct {
	db     *db.DB
	events event.Publisher
}

type fakeCustomerRow struct {
	ID        string `gorm:"primaryKey"`
	Email     string `gorm:"uniqueIndex"`
	FirstName string
	LastName  string
	State     string
	CreatedAt time.Time
	UpdatedAt time.Time
}

func (fakeCustomerRow) TableName() string { return "test_customers" }

// testTables is the fake's table (fakeCustomerRow), in every test database.
var testTables = testdb.Tables("identity_test",
	"CREATE TABLE test_customers (id {{.Text}} PRIMARY KEY, email {{.Text}}, first_name {{.Text}}, last_name {{.Text}}, state {{.Text}}, created_at {{.Time}}, updated_at {{.Time}})",
	"CREATE UNIQUE INDEX idx_test_customers_email ON test_customers (email)")

func newFakeCustomers(t testing.TB, d *db.DB) *fakeCustomers {
	t.Helper()
	return &fakeCustomers{db: d, events: events.NewOutbox(d)}
}

func (f *fakeCustomers) CreateCustomer(ctx context.Context, cmd customersapi.CreateCustomerCommand) (customersapi.Customer, error) {
	now := testdb.Now()
	row := fakeCustomerRow{ID: ids.New(), Email: strings.ToLower(cmd.Email), FirstName: cmd.FirstName, LastName: cmd.LastName, State: cmd.State, CreatedAt: now, UpdatedAt: now}
	out := row.toAPI()
	err := f.db.InTx(ctx, func(ctx context.Context) error {
		if err := f.db.Conn(ctx).Create(&row).Error; err != nil {
			if db.IsDuplicate(err) {
				return customersapi.ErrEmailTaken
			}
			return err
		}
		return f.events.Publish(ctx, customersapi.EventCustomerCreated, row.ID, customersapi.CustomerCreated(out))
	})
	if err != nil {
		return customersapi.Customer{}, err
	}
	return out, nil
}

func (f *fakeCustomers) GetCustomer(ctx context.Context, id string) (customersapi.Customer, error) {
	return f.first(ctx, "id = ?", id)
}

func (f *fakeCustomers) FindCustomerByEmail(ctx context.Context, email string) (customersapi.Customer, error) {
	return f.first(ctx, "email = ?", strings.ToLower(email))
}

func (f *fakeCustomers) CustomerContact(ctx context.Context, id, email string) (customersapi.Contact, error) {
	c, err := f.GetCustomer(ctx, id)
	if id == "" {
		c, err = f.FindCustomerByEmail(ctx, email)
	}
	return customersapi.ContactOf(c), err
}

func (f *fakeCustomers) first(ctx context.Context, where string, arg any) (customersapi.Customer, error) {
	var rows []fakeCustomerRow
	if err := f.db.Conn(ctx).Where(where, arg).Limit(1).Find(&rows).Error; err != nil {
		return customersapi.Customer{}, err
	}
	if len(rows) == 0 {
		return customersapi.Customer{}, customersapi.ErrCustomerNotFound
	}
	return rows[0].toAPI(), nil
}

func (r fakeCustomerRow) toAPI() customersapi.Customer {
	return customersapi.Customer{ID: r.ID, Email: r.Email, FirstName: r.FirstName, LastName: r.LastName, State: r.State, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt}
}

// setCustomerState changes a fake customer's state (e.g. disabled).
func setCustomerState(t testing.TB, d *db.DB, email, state string) {
	t.Helper()
	if err := d.Gorm().Model(&fakeCustomerRow{}).Where("email = ?", email).Update("state", state).Error; err != nil {
		t.Fatal(err)
	}
}

package orders_test

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/shopspring/decimal"
	"gorm.io/gorm"

	customers "github.com/gocommerce/commerce/modules/customers/api"
	inventory "github.com/gocommerce/commerce/modules/inventory/api"
	payments "github.com/gocommerce/commerce/modules/payments/api"
	"github.com/gocommerce/commerce/platform/db"
	"github.com/gocommerce/commerce/platform/testdb"
)

// stockRow is the fake inventory's level of one variant (default location only). Rows
// go through db.Conn(ctx), so they join the order's transaction like the real module.
type stockRow struct {
	VariantID string `gorm:"primaryKey"`
	ProductID string
	Available int
	Policy    string
}

func (stockRow) TableName() string { return "test_stock" }

// testTables is the fake inventory's table (stockRow).
var testTables = testdb.Tables("orders_test",
	"CREATE TABLE test_stock (variant_id {{.Text}} PRIMARY KEY, product_id {{.Text}}, available {{.BigInt}}, policy {{.Text}})")

// fakeInventory is inventory/api.Inventory on the test_stock table: Adjust refuses to
// go below zero under policy deny (INVENTORY_NEGATIVE), like the real module.
type fakeInventory struct {
	db *db.DB
	mu sync.Mutex
	// adjustments lists every applied change (variant, signed quantity, reason).
	adjustments []string
}

var _ inventory.Inventory = (*fakeInventory)(nil)

func (f *fakeInventory) put(productID, variantID string, available int, policy string) {
	if err := f.db.Gorm().Save(&stockRow{VariantID: variantID, ProductID: productID, Available: available, Policy: policy}).Error; err != nil {
		panic(err)
	}
}

func (f *fakeInventory) level(variantID string) int {
	var r stockRow
	if err := f.db.Gorm().Where("variant_id = ?", variantID).First(&r).Error; err != nil {
		panic(err)
	}
	return r.Available
}

func (f *fakeInventory) row(ctx context.Context, variantID string) (stockRow, error) {
	var r stockRow
	err := f.db.Conn(ctx).Where("variant_id = ?", variantID).First(&r).Error
	return r, err
}

func (f *fakeInventory) Adjust(ctx context.Context, cmd inventory.AdjustCommand) (inventory.Adjustment, error) {
	r, err := f.row(ctx, cmd.VariantID)
	if err != nil {
		return inventory.Adjustment{}, inventory.ErrVariantNotFound
	}
	q := f.db.Conn(ctx).Model(&stockRow{}).Where("variant_id = ?", cmd.VariantID)
	if cmd.Adjustment < 0 && r.Policy == "deny" {
		q = q.Where("available >= ?", -cmd.Adjustment)
	}
	res := q.Update("available", gorm.Expr("available + ?", cmd.Adjustment))
	if res.Error != nil {
		return inventory.Adjustment{}, res.Error
	}
	if res.RowsAffected == 0 {
		return inventory.Adjustment{}, inventory.ErrInventoryNegative
	}
	f.mu.Lock()
	f.adjustments = append(f.adjustments, fmt.Sprintf("%s %+d %s", cmd.VariantID, cmd.Adjustment, cmd.Reason))
	f.mu.Unlock()
	return inventory.Adjustment{ProductID: r.ProductID, VariantID: r.VariantID, Adjustment: cmd.Adjustment, QuantityBefore: r.Available, QuantityAfter: r.Available + cmd.Adjustment}, nil
}

func (f *fakeInventory) Set(ctx context.Context, cmd inventory.SetCommand) (inventory.Adjustment, error) {
	r, err := f.row(ctx, cmd.VariantID)
	if err != nil {
		return inventory.Adjustment{}, inventory.ErrVariantNotFound
	}
	if err := f.db.Conn(ctx).Model(&stockRow{}).Where("variant_id = ?", cmd.VariantID).Update("available", cmd.Quantity).Error; err != nil {
		return inventory.Adjustment{}, err
	}
	f.mu.Lock()
	f.adjustments = append(f.adjustments, fmt.Sprintf("%s =%d %s", cmd.VariantID, cmd.Quantity, cmd.Reason))
	f.mu.Unlock()
	return inventory.Adjustment{ProductID: r.ProductID, VariantID: r.VariantID, Adjustment: cmd.Quantity - r.Available, QuantityBefore: r.Available, QuantityAfter: cmd.Quantity}, nil
}

var errUnused = errors.New("not used by orders")

func (f *fakeInventory) Reserve(context.Context, inventory.ReserveCommand) (inventory.Reservation, error) {
	return inventory.Reservation{}, errUnused
}

func (f *fakeInventory) ReserveAll(context.Context, []inventory.ReserveCommand) ([]inventory.Reservation, error) {
	return nil, errUnused
}

func (f *fakeInventory) Release(context.Context, string, string) (inventory.Reservation, error) {
	return inventory.Reservation{}, errUnused
}

func (f *fakeInventory) Commit(context.Context, string) (inventory.Reservation, error) {
	return inventory.Reservation{}, errUnused
}

func (f *fakeInventory) CommitAll(context.Context, []string) ([]inventory.Reservation, error) {
	return nil, errUnused
}

func (f *fakeInventory) ReleaseOrder(context.Context, string, string) ([]inventory.Reservation, error) {
	return nil, errUnused
}

func (f *fakeInventory) Receive(context.Context, inventory.ReceiveCommand) (inventory.Receipt, error) {
	return inventory.Receipt{}, errUnused
}

func (f *fakeInventory) Transfer(context.Context, inventory.TransferCommand) (inventory.Transfer, error) {
	return inventory.Transfer{}, errUnused
}

func (f *fakeInventory) Totals(context.Context, []string) ([]inventory.VariantStock, error) {
	return nil, errUnused
}

func (f *fakeInventory) CreateLocation(context.Context, inventory.CreateLocationCommand) (inventory.Location, error) {
	return inventory.Location{}, errUnused
}

// records is a fake's records by id under its lock.
type records[T any] struct {
	mu   sync.Mutex
	byID map[string]T
}

func (r *records[T]) put(id string, v T) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.set(id, v)
}

func (r *records[T]) get(id string, missing error) (T, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.lookup(id, missing)
}

// set stores v (mu held).
func (r *records[T]) set(id string, v T) {
	if r.byID == nil {
		r.byID = map[string]T{}
	}
	r.byID[id] = v
}

// lookup answers the record, or missing when there is none (mu held).
func (r *records[T]) lookup(id string, missing error) (T, error) {
	v, ok := r.byID[id]
	if !ok {
		return v, missing
	}
	return v, nil
}

// fakePayments is payments/api.Payments in memory: payments are stored with put;
// refunds answer refundStatus ("succeeded", "pending", "failed" or "error").
type fakePayments struct {
	records[payments.Payment]
	refunds      []payments.RefundCommand
	captures     []payments.CaptureCommand
	cancels      []string
	refundStatus string
}

var _ payments.Payments = (*fakePayments)(nil)

func newFakePayments() *fakePayments {
	return &fakePayments{refundStatus: payments.StatusSucceeded}
}

func (f *fakePayments) put(p payments.Payment) { f.records.put(p.ID, p) }

func (f *fakePayments) Initiate(context.Context, payments.InitiateCommand) (payments.PaymentResult, error) {
	return payments.PaymentResult{}, errUnused
}

func (f *fakePayments) Prepare(context.Context, payments.InitiateCommand) (payments.Prepared, error) {
	return payments.Prepared{}, errUnused
}

func (f *fakePayments) Ask(context.Context, payments.Prepared) (payments.Answer, error) {
	return payments.Answer{}, errUnused
}

func (f *fakePayments) Record(context.Context, payments.Answer) (payments.PaymentResult, error) {
	return payments.PaymentResult{}, errUnused
}

func (f *fakePayments) Get(_ context.Context, id string) (payments.Payment, error) {
	return f.get(id, payments.ErrPaymentNotFound)
}

func (f *fakePayments) Refund(_ context.Context, cmd payments.RefundCommand) (payments.Refund, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.refunds = append(f.refunds, cmd)
	id := fmt.Sprintf("ref_%d", len(f.refunds))
	switch f.refundStatus {
	case "error":
		return payments.Refund{}, payments.ErrProcessingError.WithMessage("The refund failed: card_declined")
	case "failed":
		return payments.Refund{ID: id, PaymentID: cmd.PaymentID, Status: "failed"}, nil
	}
	return payments.Refund{ID: id, PaymentID: cmd.PaymentID, Amount: decimal.RequireFromString(cmd.Amount), Status: f.refundStatus, Metadata: cmd.Metadata}, nil
}

func (f *fakePayments) Capture(_ context.Context, cmd payments.CaptureCommand) (payments.PaymentResult, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.captures = append(f.captures, cmd)
	p, err := f.lookup(cmd.PaymentID, payments.ErrPaymentNotFound)
	if err != nil {
		return payments.PaymentResult{}, err
	}
	p.Status, p.AmountCaptured = payments.StatusSucceeded, p.Amount
	if cmd.Amount != "" {
		p.AmountCaptured = decimal.RequireFromString(cmd.Amount)
	}
	f.set(p.ID, p)
	return payments.PaymentResult{Type: payments.ResultSuccess, PaymentID: p.ID, PaymentStatus: p.Status}, nil
}

func (f *fakePayments) Cancel(_ context.Context, id string) (payments.Payment, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.cancels = append(f.cancels, id)
	p, err := f.lookup(id, payments.ErrPaymentNotFound)
	if err != nil {
		return payments.Payment{}, err
	}
	p.Status = payments.StatusCanceled
	f.set(id, p)
	return p, nil
}

// fakeCustomers is customers/api.Customers in memory.
type fakeCustomers struct {
	records[customers.Customer]
}

var _ customers.Customers = (*fakeCustomers)(nil)

func (f *fakeCustomers) put(c customers.Customer) { f.records.put(c.ID, c) }

func (f *fakeCustomers) CreateCustomer(context.Context, customers.CreateCustomerCommand) (customers.Customer, error) {
	return customers.Customer{}, errUnused
}

func (f *fakeCustomers) GetCustomer(_ context.Context, id string) (customers.Customer, error) {
	return f.get(id, customers.ErrCustomerNotFound)
}

func (f *fakeCustomers) FindCustomerByEmail(_ context.Context, email string) (customers.Customer, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, c := range f.byID {
		if c.Email == email {
			return c, nil
		}
	}
	return customers.Customer{}, customers.ErrCustomerNotFound
}

// CustomerContact is GetCustomer's or FindCustomerByEmail's contact.
func (f *fakeCustomers) CustomerContact(ctx context.Context, id, email string) (customers.Contact, error) {
	c, err := f.GetCustomer(ctx, id)
	if id == "" {
		c, err = f.FindCustomerByEmail(ctx, email)
	}
	return customers.ContactOf(c), err
}

// OwnsSavedMethod: orders never asks.
func (f *fakePayments) OwnsSavedMethod(context.Context, string, string) (bool, error) {
	return false, nil
}

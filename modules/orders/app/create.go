package app

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/shopspring/decimal"

	"github.com/gocommerce/commerce/modules/orders/api"
	"github.com/gocommerce/commerce/modules/orders/domain"
	"github.com/gocommerce/commerce/modules/orders/ports"
	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/ids"
)

// Create is the admin create endpoint: api.Orders.CreateOrder for a staff user or API
// key (customers cannot create orders this way).
func (s *Service) Create(ctx context.Context, a Actor, cmd api.CreateOrderCommand) (api.Order, error) {
	if err := a.write(); err != nil {
		return api.Order{}, err
	}
	return s.CreateOrder(ctx, cmd)
}

// CreateOrder creates an order in one transaction: the customer is looked up (or found
// by email), every line priced from the catalog (or its price override), the totals
// computed, stock claimed as inventory_behaviour says (INSUFFICIENT_INVENTORY rolls
// everything back), the next order number taken and order.created written.
func (s *Service) CreateOrder(ctx context.Context, cmd api.CreateOrderCommand) (api.Order, error) {
	in, err := checkCreate(cmd)
	if err != nil {
		return api.Order{}, err
	}
	var out api.Order
	err = s.tx.InTx(ctx, func(ctx context.Context) error {
		o, err := s.build(ctx, cmd, in)
		if err != nil {
			return err
		}
		if err := s.claim(ctx, o, o.LineItems); err != nil {
			return err
		}
		received, err := s.recordPaymentAtCreate(ctx, o, cmd.PaymentID, cmd.Payment)
		if err != nil {
			return err
		}
		// Coupon uses first (a limit reached rolls back before a number is taken); the
		// order, which takes its number, last: on SQLite the counter row stays locked
		// until commit, on PostgreSQL a create that fails after taking it leaves a gap
		// (decision 0232).
		if err := s.recordCoupons(ctx, cmd, o); err != nil {
			return err
		}
		if err := s.orders.Create(ctx, o); err != nil {
			return err
		}
		// The order's resource, made once: both events carry it (each is encoded as
		// it is written) and the create answers it.
		out = ToOrder(o)
		if err := s.publish(ctx, api.EventOrderCreated, o.ID, api.OrderCreated{Order: out, SendReceipt: o.SendReceipt}); err != nil {
			return err
		}
		if received {
			return s.publish(ctx, api.EventOrderPaymentReceived, o.ID, out)
		}
		return nil
	})
	if err != nil {
		return api.Order{}, err
	}
	return out, nil
}

// createInput is the part of a create command checked before the transaction.
type createInput struct {
	email     string
	behaviour domain.InventoryBehaviour
	currency  string
	tags      []string
}

func checkCreate(cmd api.CreateOrderCommand) (createInput, error) {
	in := createInput{behaviour: domain.InventoryBehaviour(strings.TrimSpace(cmd.InventoryBehaviour))}
	if in.behaviour == "" {
		in.behaviour = domain.InventoryBypass
	}
	fields := map[string]string{}
	if !in.behaviour.Valid() {
		fields["inventory_behaviour"] = "must be one of: bypass, decrement_ignoring_policy, decrement_obeying_policy"
	}
	if len(cmd.LineItems) == 0 {
		fields["line_items"] = "must have at least one line item"
	} else if len(cmd.LineItems) > domain.MaxLineItems {
		fields["line_items"] = "must have at most 250 line items"
	}
	for i, li := range cmd.LineItems {
		for k, v := range checkLineRef(li) {
			fields[fmt.Sprintf("line_items[%d].%s", i, k)] = v
		}
	}
	for i, sl := range cmd.ShippingLines {
		if t := strings.TrimSpace(sl.Title); t == "" || utf8.RuneCountInString(t) > domain.MaxText {
			fields[fmt.Sprintf("shipping_lines[%d].title", i)] = "is required (at most 255 characters)"
		}
	}
	for i, tl := range cmd.TaxLines {
		if t := strings.TrimSpace(tl.Title); t == "" || utf8.RuneCountInString(t) > domain.MaxText {
			fields[fmt.Sprintf("tax_lines[%d].title", i)] = "is required (at most 255 characters)"
		}
		if strings.TrimSpace(tl.Rate) == "" && strings.TrimSpace(tl.Price) == "" {
			fields[fmt.Sprintf("tax_lines[%d].rate", i)] = "rate or price is required"
		}
	}
	for i, d := range cmd.DiscountCodes {
		if c := strings.TrimSpace(d.Code); c == "" || utf8.RuneCountInString(c) > domain.MaxText {
			fields[fmt.Sprintf("discount_codes[%d].code", i)] = "is required (at most 255 characters)"
		}
		if t := strings.TrimSpace(d.Type); t != "" && !domain.DiscountTypes[t] {
			fields[fmt.Sprintf("discount_codes[%d].type", i)] = "must be one of: fixed_amount, percentage, shipping, free_shipping, buy_x_get_y"
		}
	}
	if cmd.CustomerID != "" && !ids.Valid(cmd.CustomerID) {
		fields["customer_id"] = "must be a UUID"
	}
	for name, v := range map[string]string{
		"phone": cmd.Phone, "source_name": cmd.SourceName, "cart_token": cmd.CartToken, "checkout_token": cmd.CheckoutToken,
	} {
		if utf8.RuneCountInString(v) > domain.MaxText {
			fields[name] = "must be at most 255 characters"
		}
	}
	for name, v := range map[string]string{"referring_site": cmd.ReferringSite, "landing_site": cmd.LandingSite} {
		if utf8.RuneCountInString(v) > 2048 {
			fields[name] = "must be at most 2048 characters"
		}
	}
	if len(fields) > 0 {
		return in, apperr.Validation(fields)
	}
	for _, li := range cmd.LineItems {
		if err := domain.CheckQuantity(li.Quantity); err != nil {
			return in, err
		}
	}
	var err error
	if in.email, err = domain.NormalizeEmail(cmd.Email); err != nil {
		return in, err
	}
	if cmd.Currency != "" {
		if in.currency, err = domain.NormalizeCurrency(cmd.Currency); err != nil {
			return in, err
		}
	}
	if in.tags, err = domain.NormalizeTags(cmd.Tags); err != nil {
		return in, err
	}
	if err := domain.CheckNote(cmd.Note, "note"); err != nil {
		return in, err
	}
	if err := domain.CheckAddress(FromAddress(cmd.ShippingAddress), "shipping_address"); err != nil {
		return in, err
	}
	if err := domain.CheckAddress(FromAddress(cmd.BillingAddress), "billing_address"); err != nil {
		return in, err
	}
	return in, nil
}

// checkLineRef checks what a line names: variant_id, product_id or both (UUIDs). A line
// with only variant_id takes the variant's product from the catalog.
func checkLineRef(li api.LineItemInput) map[string]string {
	fields := map[string]string{}
	if li.ProductID == "" && li.VariantID == "" {
		fields["variant_id"] = "is required (or product_id, for a product that has only its default variant)"
		fields["product_id"] = "is required when variant_id is not given"
		return fields
	}
	if li.ProductID != "" && !ids.Valid(li.ProductID) {
		fields["product_id"] = "must be a UUID"
	}
	if li.VariantID != "" && !ids.Valid(li.VariantID) {
		fields["variant_id"] = "must be a UUID"
	}
	return fields
}

// build assembles the order: customer, lines from the catalog, shipping, taxes and
// discounts, totals.
func (s *Service) build(ctx context.Context, cmd api.CreateOrderCommand, in createInput) (*domain.Order, error) {
	now := s.clock.Now()
	o := &domain.Order{
		ID: orderID(cmd.ID, s.newID), Email: in.email, Phone: strings.TrimSpace(cmd.Phone), Status: domain.StatusOpen, Currency: in.currency,
		ShippingAddress: FromAddress(cmd.ShippingAddress), BillingAddress: FromAddress(cmd.BillingAddress),
		Note: cmd.Note, NoteAttributes: cmd.NoteAttributes, Tags: in.tags, Metafields: cmd.Metafields,
		CartToken: cmd.CartToken, CheckoutToken: cmd.CheckoutToken, ReferringSite: cmd.ReferringSite, LandingSite: cmd.LandingSite,
		SourceName: strings.TrimSpace(cmd.SourceName), InventoryBehaviour: in.behaviour, SendReceipt: cmd.SendReceipt,
		CreatedAt: now, UpdatedAt: now, ProcessedAt: now, Version: 1,
		LineItems: []*domain.LineItem{}, ShippingLines: []domain.ShippingLine{}, TaxLines: []domain.TaxLine{}, DiscountCodes: []domain.DiscountCode{},
	}
	if o.SourceName == "" {
		o.SourceName = "api"
	}
	if cmd.ProcessedAt != nil {
		o.ProcessedAt = cmd.ProcessedAt.UTC()
	}
	if cmd.ClientDetails != nil {
		o.ClientDetails = &domain.ClientDetails{BrowserIP: cmd.ClientDetails.BrowserIP, UserAgent: cmd.ClientDetails.UserAgent, SessionHash: cmd.ClientDetails.SessionHash}
	}
	if err := s.attachCustomer(ctx, o, cmd.CustomerID); err != nil {
		return nil, err
	}
	vs, errs := s.lineVariants(ctx, cmd.LineItems)
	for i, in := range cmd.LineItems {
		var err error
		if errs != nil {
			err = errs[i]
		}
		li, err := s.lineItemOf(o, in, vs[i], err, fmt.Sprintf("line_items[%d]", i), now)
		if err != nil {
			return nil, err
		}
		o.LineItems = append(o.LineItems, li)
	}
	c := o.Currency
	for i, sl := range cmd.ShippingLines {
		price, err := domain.ParseMoney(sl.Price, c, fmt.Sprintf("shipping_lines[%d].price", i))
		if err != nil {
			return nil, err
		}
		o.ShippingLines = append(o.ShippingLines, domain.ShippingLine{ID: s.newID(), Title: strings.TrimSpace(sl.Title), Code: sl.Code, Source: sl.Source, Price: price})
	}
	unpriced := map[int]bool{}
	for i, tl := range cmd.TaxLines {
		t := domain.TaxLine{ID: s.newID(), Title: strings.TrimSpace(tl.Title), Rate: decimal.Zero, Price: decimal.Zero}
		if strings.TrimSpace(tl.Rate) != "" {
			r, err := decimal.NewFromString(strings.TrimSpace(tl.Rate))
			if err != nil || r.IsNegative() || r.GreaterThan(decimal.NewFromInt(1)) {
				return nil, apperr.Validation(map[string]string{fmt.Sprintf("tax_lines[%d].rate", i): "must be a decimal fraction from 0 to 1, such as \"0.2\""})
			}
			t.Rate = r
		}
		if strings.TrimSpace(tl.Price) != "" {
			p, err := domain.ParseMoney(tl.Price, c, fmt.Sprintf("tax_lines[%d].price", i))
			if err != nil {
				return nil, err
			}
			t.Price = p
		} else {
			unpriced[i] = true
		}
		o.TaxLines = append(o.TaxLines, t)
	}
	discounts := decimal.Zero
	for i, d := range cmd.DiscountCodes {
		amount, err := domain.ParseMoney(d.Amount, c, fmt.Sprintf("discount_codes[%d].amount", i))
		if err != nil {
			return nil, err
		}
		typ := strings.TrimSpace(d.Type)
		if typ == "" {
			typ = "fixed_amount"
		}
		discounts = discounts.Add(amount)
		o.DiscountCodes = append(o.DiscountCodes, domain.DiscountCode{Code: strings.TrimSpace(d.Code), Type: typ, Amount: amount})
	}
	o.Retax(func(i int) bool { return unpriced[i] })
	if discounts.GreaterThan(o.Subtotal.Add(o.TotalShipping)) {
		return nil, apperr.Validation(map[string]string{"discount_codes": "discounts exceed the order's subtotal and shipping"})
	}
	return o, nil
}

// lineVariants looks the lines' variants up: from the facts the lines carry when they
// all do, else from the catalog (one read).
func (s *Service) lineVariants(ctx context.Context, lines []api.LineItemInput) ([]ports.CatalogVariant, []error) {
	known := make([]ports.CatalogVariant, 0, len(lines))
	for _, in := range lines {
		v := in.Variant
		if v == nil || in.ProductID == "" || in.VariantID == "" {
			break
		}
		known = append(known, ports.CatalogVariant{ProductID: in.ProductID, VariantID: in.VariantID, ProductTitle: v.ProductTitle,
			VariantTitle: v.VariantTitle, SKU: v.SKU, Price: v.Price, Currency: v.Currency, Weight: v.Weight, WeightUnit: v.WeightUnit,
			RequiresShipping: v.RequiresShipping, Taxable: v.Taxable, Tracked: v.Tracked})
	}
	if len(known) == len(lines) {
		return known, nil
	}
	refs := make([]ports.VariantRef, len(lines))
	for i, in := range lines {
		refs[i] = ports.VariantRef{ProductID: in.ProductID, VariantID: in.VariantID}
	}
	return s.catalog.Variants(ctx, refs)
}

// attachCustomer links the order to its customer: the given id (CUSTOMER_NOT_FOUND), or
// the customer with the order's email; the customer's email and phone fill the order's
// when it has none.
func (s *Service) attachCustomer(ctx context.Context, o *domain.Order, customerID string) error {
	var (
		c     ports.Customer
		found bool
		err   error
	)
	switch {
	case customerID != "":
		if c, err = s.customers.Get(ctx, customerID); err != nil {
			if errors.Is(err, domain.ErrCustomerNotFound) {
				return domain.ErrCustomerNotFound.WithField("customer_id", "no such customer")
			}
			return err
		}
		found = true
	case o.Email != "":
		if c, found, err = s.customers.FindByEmail(ctx, o.Email); err != nil {
			return err
		}
	}
	if !found {
		if o.Email == "" {
			return apperr.Validation(map[string]string{"email": "is required for an order without a customer"})
		}
		return nil
	}
	o.CustomerID = c.ID
	if o.Email == "" {
		o.Email = c.Email
	}
	if o.Phone == "" {
		o.Phone = c.Phone
	}
	return nil
}

// lineItem prices one line from the catalog (a line without product_id takes its
// variant's product). The order's currency is the first line's product currency unless
// given; a product in another currency needs a price override.
func (s *Service) lineItem(ctx context.Context, o *domain.Order, in api.LineItemInput, field string, now time.Time) (*domain.LineItem, error) {
	v, err := s.catalog.Variant(ctx, in.ProductID, in.VariantID)
	return s.lineItemOf(o, in, v, err, field, now)
}

// lineItemOf builds the line from its catalog lookup (v, or the lookup's error).
func (s *Service) lineItemOf(o *domain.Order, in api.LineItemInput, v ports.CatalogVariant, err error, field string, now time.Time) (*domain.LineItem, error) {
	if err != nil {
		var ae *apperr.Error
		if errors.As(err, &ae) && ae.Kind == apperr.NotFound {
			name := field + ".product_id"
			if errors.Is(err, domain.ErrVariantNotFound) {
				name = field + ".variant_id"
			}
			return nil, ae.WithField(name, ae.Message)
		}
		return nil, err
	}
	if o.Currency == "" {
		o.Currency = v.Currency
	}
	price := v.Price
	if strings.TrimSpace(in.Price) != "" {
		if price, err = domain.ParseMoney(in.Price, o.Currency, field+".price"); err != nil {
			return nil, err
		}
	} else if v.Currency != o.Currency {
		return nil, domain.ErrInvalidCurrency.WithMessage("Product %s is priced in %s, not %s: give the line a price", v.ProductID, v.Currency, o.Currency).
			WithField(field+".price", "is required for a product priced in another currency")
	}
	return &domain.LineItem{
		ID: s.newID(), ProductID: v.ProductID, VariantID: v.VariantID, Title: v.ProductTitle, VariantTitle: v.VariantTitle, SKU: v.SKU,
		Quantity: in.Quantity, Price: price, RequiresShipping: v.RequiresShipping, Taxable: v.Taxable,
		Grams: domain.ToKilograms(v.Weight, v.WeightUnit).Shift(3).Round(4), InventoryTracked: v.Tracked, CreatedAt: now,
	}, nil
}

// claim takes stock for lines as the order's inventory behaviour says, in a stable
// order (product, variant) so concurrent orders cannot deadlock.
func (s *Service) claim(ctx context.Context, o *domain.Order, lines []*domain.LineItem) error {
	if !o.InventoryBehaviour.Claims() {
		return nil
	}
	sorted := append([]*domain.LineItem(nil), lines...)
	sort.SliceStable(sorted, func(i, j int) bool {
		if sorted[i].ProductID != sorted[j].ProductID {
			return sorted[i].ProductID < sorted[j].ProductID
		}
		return sorted[i].VariantID < sorted[j].VariantID
	})
	obey := o.InventoryBehaviour == domain.InventoryDecrementObeyingPolicy
	for _, li := range sorted {
		if !li.InventoryTracked {
			continue
		}
		want := li.Quantity - li.RestockableQuantity()
		if want <= 0 {
			continue
		}
		taken, err := s.inventory.Claim(ctx, ports.StockChange{ProductID: li.ProductID, VariantID: li.VariantID, Quantity: want, Reference: "order " + o.ID}, obey)
		if err != nil {
			return err
		}
		li.ClaimedQuantity += taken
	}
	return nil
}

package app

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/shopspring/decimal"
	"go.uber.org/zap"

	"github.com/gocommerce/commerce/modules/payments/api"
	"github.com/gocommerce/commerce/modules/payments/domain"
	"github.com/gocommerce/commerce/modules/payments/ports"
	"github.com/gocommerce/commerce/platform/apperr"
	"github.com/gocommerce/commerce/platform/ids"
)

// MaxIdempotencyKeyLength bounds idempotency keys.
const MaxIdempotencyKeyLength = domain.MaxIdempotencyKeyLength

// errKeyTaken tells Initiate that another request holds the idempotency key.
var errKeyTaken = errors.New("payments: idempotency key taken")

// initiation is a validated initiate request.
type initiation struct {
	gateway  ports.Gateway
	spec     ports.MethodSpec
	amount   decimal.Decimal
	currency domain.Currency
	method   string
	card     *domain.Card
	saved    *domain.SavedMethod
	bank     *ports.BankTransfer
	details  domain.CardDetails
	cmd      api.InitiateCommand
}

// Initiate is api.Payments.Initiate: a trusted call from another module.
func (s *Service) Initiate(ctx context.Context, cmd api.InitiateCommand) (api.PaymentResult, error) {
	return s.InitiatePayment(ctx, System, cmd)
}

// prepared is a payment stored pending, with what its gateway call needs and, once
// asked, the gateway's answer.
type prepared struct {
	caller Caller
	in     *initiation
	p      *domain.Payment
	answer *ports.ChargeResult
}

// Prepare is api.Payments.Prepare: the payment stored in ctx's transaction.
func (s *Service) Prepare(ctx context.Context, cmd api.InitiateCommand) (api.Prepared, error) {
	pr, err := s.prepare(ctx, System, cmd)
	if err != nil {
		return api.Prepared{}, err
	}
	return api.Prepared{PaymentID: pr.p.ID, Handle: pr}, nil
}

// Ask is api.Payments.Ask.
func (s *Service) Ask(ctx context.Context, p api.Prepared) (api.Answer, error) {
	pr, err := preparedOf(p)
	if err != nil {
		return api.Answer{}, err
	}
	res := s.ask(ctx, pr)
	pr.answer = &res
	return api.Answer{Prepared: p, Declined: res.Status == domain.StatusFailed}, nil
}

// Record is api.Payments.Record.
func (s *Service) Record(ctx context.Context, a api.Answer) (api.PaymentResult, error) {
	pr, err := preparedOf(a.Prepared)
	if err != nil {
		return api.PaymentResult{}, err
	}
	if pr.answer == nil {
		return api.PaymentResult{}, fmt.Errorf("payments: record: %s was not asked", pr.p.ID)
	}
	return s.recordCharge(ctx, pr.p.ID, pr.p, *pr.answer, false)
}

func preparedOf(p api.Prepared) (*prepared, error) {
	pr, ok := p.Handle.(*prepared)
	if !ok || pr.p.ID != p.PaymentID {
		return nil, fmt.Errorf("payments: %q was not prepared by this process", p.PaymentID)
	}
	return pr, nil
}

// InitiatePayment validates and starts a payment. Declines are answered as a result of
// type failed; errors are for requests that could not start a payment at all.
func (s *Service) InitiatePayment(ctx context.Context, c Caller, cmd api.InitiateCommand) (api.PaymentResult, error) {
	pr, err := s.prepare(ctx, c, cmd)
	if err != nil {
		return api.PaymentResult{}, err
	}
	return s.authorize(ctx, pr)
}

// prepare validates the request and stores the payment pending, with its idempotency
// key and payment.created, in one transaction (ctx's, when it carries one).
func (s *Service) prepare(ctx context.Context, c Caller, cmd api.InitiateCommand) (*prepared, error) {
	in, err := s.validateInitiate(ctx, c, cmd)
	if err != nil {
		return nil, err
	}
	key := strings.TrimSpace(cmd.IdempotencyKey)
	hash := in.hash()
	now := s.clock.Now()
	p := s.newPayment(c, in, now)

	err = s.tx.InTx(ctx, func(ctx context.Context) error {
		if key != "" {
			created, err := s.idem.Insert(ctx, ports.IdempotencyRecord{Scope: c.Scope, Key: key, RequestHash: hash, PaymentID: p.ID, CreatedAt: now})
			if err != nil {
				return err
			}
			if !created {
				return errKeyTaken
			}
		}
		if err := s.payments.Create(ctx, p); err != nil {
			return err
		}
		return s.publishPayment(ctx, api.EventPaymentCreated, p, nil)
	})
	if errors.Is(err, errKeyTaken) {
		return nil, s.keyReused(ctx, c.Scope, key, hash)
	}
	if err != nil {
		return nil, err
	}
	return &prepared{caller: c, in: in, p: p}, nil
}

// authorize asks the gateway for the prepared payment and records its answer.
func (s *Service) authorize(ctx context.Context, pr *prepared) (api.PaymentResult, error) {
	return s.recordCharge(ctx, pr.p.ID, pr.p, s.ask(ctx, pr), false)
}

// ask makes the prepared payment's gateway call; an unreachable or erroring gateway is
// a failed answer.
func (s *Service) ask(ctx context.Context, pr *prepared) ports.ChargeResult {
	in, p, cmd := pr.in, pr.p, pr.in.cmd
	base := s.baseURL(pr.caller)
	req := ports.ChargeRequest{
		PaymentID: p.ID, Amount: in.amount, Currency: in.currency, MethodType: in.method, Card: in.card, BankTransfer: in.bank,
		Capture: in.gateway.CaptureMethod() != domain.CaptureManual, ReturnURL: cmd.ReturnURL,
		ActionURL: base + "/api/v1/payments/" + p.ID + "/3ds", NotifyURL: base + "/api/v2/webhooks/" + in.gateway.ID(),
		Description: cmd.Description, CustomerEmail: cmd.CustomerEmail, Metadata: providerMetadata(p),
		IdempotencyKey: p.ID, SaveMethod: cmd.SavePaymentMethod,
	}
	if in.saved != nil {
		req.Saved = &ports.SavedInstrument{ProviderToken: in.saved.ProviderToken, ProviderCustomer: in.saved.ProviderCustomer, Card: in.saved.Card}
	}
	res, err := in.gateway.Authorize(ctx, req)
	if err != nil {
		return s.gatewayFailure(in.gateway.ID(), "authorize", err)
	}
	return res
}

// gatewayFailure turns an unreachable or erroring provider into a failed payment.
func (s *Service) gatewayFailure(gateway, op string, err error) ports.ChargeResult {
	if e, ok := apperr.As(err); ok && e.Kind == apperr.Invalid {
		return ports.ChargeResult{Status: domain.StatusFailed, DeclineCode: "invalid_request", DeclineMessage: e.Message}
	}
	s.log.Warn("gateway call failed", zap.String("gateway", gateway), zap.String("op", op), zap.Error(err))
	return ports.ChargeResult{Status: domain.StatusFailed, DeclineCode: "processing_error", DeclineMessage: "The payment could not be processed by the gateway; try again"}
}

// keyReused answers a request whose idempotency key is taken: 409
// IDEMPOTENCY_KEY_REUSED, as the spec says of any reuse ("unique per attempt"). A
// retry of the same request is told what the first one made (payment_id, or refund_id
// for a refund), so that the client can read it instead of paying or refunding again.
func (s *Service) keyReused(ctx context.Context, scope, key, hash string) error {
	rec, err := s.idem.Get(ctx, scope, key)
	if err != nil {
		return err
	}
	if rec == nil || rec.RequestHash != hash || rec.PaymentID == "" {
		return domain.ErrIdempotencyKeyReused.WithMessage("This idempotency key was already used with a different request")
	}
	field := "payment_id"
	if strings.HasPrefix(rec.PaymentID, refundIDPrefix) {
		field = "refund_id"
	}
	return domain.ErrIdempotencyKeyReused.
		WithMessage("This idempotency key was already used for %s %s: use a new key for a new attempt", strings.TrimSuffix(field, "_id"), rec.PaymentID).
		WithExtra(field, rec.PaymentID)
}

// validateInitiate checks an initiate request and resolves its gateway and method:
// the request's own fields, then the payment method (with the saved method it names),
// then what the gateway's method accepts.
func (s *Service) validateInitiate(ctx context.Context, c Caller, cmd api.InitiateCommand) (*initiation, error) {
	if c.CustomerID != "" {
		cmd.CustomerID = c.CustomerID // a customer pays as themselves
	}
	if err := checkInitiate(cmd); err != nil {
		return nil, err
	}
	currency, err := domain.ParseCurrency(cmd.Currency)
	if err != nil {
		return nil, err
	}
	amount, err := domain.ParseAmount(cmd.Amount, currency)
	if err != nil {
		return nil, err
	}
	in := &initiation{amount: amount, currency: currency, cmd: cmd, method: strings.TrimSpace(cmd.PaymentMethod.Type)}
	gatewayID, err := s.paymentMethod(ctx, c, in)
	if err != nil {
		return nil, err
	}
	if in.gateway, err = s.gateway(gatewayID); err != nil {
		return nil, err
	}
	if in.method == "" {
		if in.method, err = walletMethod(in.gateway); err != nil {
			return nil, err
		}
	}
	spec, ok := methodSpec(in.gateway, in.method)
	if !ok {
		return nil, domain.ErrInvalidPaymentMethod.WithMessage("Gateway %s does not accept payment method %q", in.gateway.ID(), in.method)
	}
	if err := spec.Check(in.gateway.ID(), currency, amount, cmd.SavePaymentMethod, in.card != nil); err != nil {
		return nil, err
	}
	in.spec = spec
	return in, nil
}

// checkInitiate checks an initiate request's own fields: customer_id,
// idempotency_key and return_url.
func checkInitiate(cmd api.InitiateCommand) error {
	if cmd.CustomerID != "" && !ids.Valid(cmd.CustomerID) {
		return apperr.Validation(map[string]string{"customer_id": "must be a UUID"})
	}
	if err := domain.CheckIdempotencyKey(cmd.IdempotencyKey); err != nil {
		return err
	}
	return domain.CheckReturnURL(cmd.ReturnURL)
}

// paymentMethod checks the request's payment method by type (card, saved card, bank
// transfer; the wallets need nothing) and fills in what the payment is made with. It
// returns the gateway: the request's, or the saved method's when the request has none.
func (s *Service) paymentMethod(ctx context.Context, c Caller, in *initiation) (string, error) {
	pm, gatewayID := in.cmd.PaymentMethod, in.cmd.GatewayID
	switch in.method {
	case domain.MethodCard:
		if pm.Card == nil {
			return "", domain.MissingMethodField("payment_method.card")
		}
		card := domain.Card{Number: pm.Card.Number, ExpMonth: pm.Card.ExpMonth, ExpYear: pm.Card.ExpYear, CVC: pm.Card.CVC, Name: pm.Card.Name}
		if err := card.Validate("payment_method.card."); err != nil {
			return "", err
		}
		in.card, in.details = &card, card.Details()
	case domain.MethodSavedCard:
		m, err := s.savedMethod(ctx, c, in.cmd)
		if err != nil {
			return "", err
		}
		if gatewayID == "" {
			gatewayID = m.Gateway
		} else if gatewayID != m.Gateway {
			return "", domain.ErrInvalidPaymentMethod.WithMessage("Saved payment method belongs to gateway %s", m.Gateway)
		}
		in.saved, in.details = m, m.Card
	case domain.MethodBankTransfer:
		b := pm.BankTransfer
		if b == nil {
			b = &api.BankTransfer{}
		}
		acct, details, err := domain.BankAccount(b.AccountNumber, b.AccountHolderName)
		if err != nil {
			return "", err
		}
		in.bank = &ports.BankTransfer{AccountNumber: acct, RoutingNumber: b.RoutingNumber, AccountHolderName: b.AccountHolderName, BankName: b.BankName}
		in.details = details
	}
	return gatewayID, nil
}

// savedMethod is the saved method the request's token names, when the caller may pay
// with it.
func (s *Service) savedMethod(ctx context.Context, c Caller, cmd api.InitiateCommand) (*domain.SavedMethod, error) {
	token := strings.TrimSpace(cmd.PaymentMethod.Token)
	if token == "" {
		return nil, domain.MissingMethodField("payment_method.token")
	}
	m, err := s.methods.Get(ctx, token)
	if err != nil || !mayUse(c, m, cmd.CustomerID) {
		return nil, domain.ErrInvalidPaymentMethod.WithMessage("Saved payment method not found")
	}
	return m, nil
}

// OwnsSavedMethod reports whether the customer saved the method the token names
// (api.Payments).
func (s *Service) OwnsSavedMethod(ctx context.Context, customerID, token string) (bool, error) {
	if strings.TrimSpace(customerID) == "" || strings.TrimSpace(token) == "" {
		return false, nil
	}
	m, err := s.methods.Get(ctx, strings.TrimSpace(token))
	if errors.Is(err, domain.ErrPaymentMethodNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return m.SavedBy(customerID), nil
}

// walletMethod is the method of a request without a type: the gateway's own (wallet)
// method, its first that is neither a card nor a bank transfer.
func walletMethod(g ports.Gateway) (string, error) {
	for _, m := range g.Methods() {
		if m.MethodType != domain.MethodCard && m.MethodType != domain.MethodBankTransfer {
			return m.MethodType, nil
		}
	}
	return "", domain.MissingMethodField("payment_method.type")
}

// mayUse reports whether the caller may pay with a saved method: their own, or, for the
// merchant, one saved by the payment's customer. Another module (checkout,
// subscriptions: the System caller) pays on a customer's behalf, so only with a method
// that customer saved: a token someone else's customer typed in never charges it.
func mayUse(c Caller, m *domain.SavedMethod, customerID string) bool {
	if c.Scope == System.Scope {
		return m.SavedBy(customerID)
	}
	return m.Owner == c.Scope || (c.Merchant && m.SavedBy(customerID))
}

// hash is the request's fingerprint for idempotency keys. It covers every field of the
// request except raw card data: the card counts by brand, last four, expiry and holder,
// so no card number (not even a hash of one) is stored.
func (in *initiation) hash() string {
	canon := map[string]any{
		"gateway_id": in.gateway.ID(), "amount": domain.FormatAmount(in.amount, in.currency), "currency": string(in.currency),
		"method": in.method, "card_brand": in.details.Brand, "last_four": in.details.LastFour, "exp_month": in.details.ExpMonth,
		"exp_year": in.details.ExpYear, "name": in.details.Name, "order_id": in.cmd.OrderID, "customer_email": in.cmd.CustomerEmail,
		"customer_id": in.cmd.CustomerID, "description": in.cmd.Description, "metadata": in.cmd.Metadata,
		"return_url": in.cmd.ReturnURL, "save": in.cmd.SavePaymentMethod,
	}
	if in.saved != nil {
		canon["token"] = in.saved.Token
	}
	return requestHash(canon)
}

// requestHash is the SHA-256 of a request's canonical JSON (map keys are sorted), which
// an idempotency key is stored with.
func requestHash(canon map[string]any) string {
	raw, _ := json.Marshal(canon)
	sum := sha256.Sum256(raw)
	return hex.EncodeToString(sum[:])
}

func (s *Service) newPayment(c Caller, in *initiation, now time.Time) *domain.Payment {
	p := &domain.Payment{
		ID: newPaymentID(), Gateway: in.gateway.ID(), Status: domain.StatusPending, Amount: in.amount,
		AmountCaptured: decimal.Zero, AmountRefunded: decimal.Zero, Currency: in.currency,
		CaptureMethod: in.gateway.CaptureMethod(), CustomerID: in.cmd.CustomerID, CustomerEmail: in.cmd.CustomerEmail,
		OrderID: in.cmd.OrderID, Owner: c.Scope, Description: in.cmd.Description, Metadata: in.cmd.Metadata,
		MethodType: in.method, Card: in.details, SaveRequested: in.cmd.SavePaymentMethod, ReturnURL: in.cmd.ReturnURL,
		CreatedAt: now, UpdatedAt: now,
	}
	if p.MethodType == domain.MethodSavedCard {
		p.MethodType = domain.MethodCard
		p.SavedMethodToken = in.saved.Token
		p.ProviderMethod = in.saved.ProviderToken
		p.ProviderCustomer = in.saved.ProviderCustomer
	}
	return p
}

// providerMetadata is what providers get to echo back in their events.
func providerMetadata(p *domain.Payment) map[string]string {
	m := map[string]string{"payment_id": p.ID}
	if p.OrderID != "" {
		m["order_id"] = p.OrderID
	}
	return m
}

// recordCharge stores a gateway's answer to a charge or completion and raises events.
// completing marks a customer action that finished; known is the payment as this
// request created it (nil: it is read).
func (s *Service) recordCharge(ctx context.Context, id string, known *domain.Payment, res ports.ChargeResult, completing bool) (api.PaymentResult, error) {
	p, err := s.mutateKnown(ctx, id, known, func(ctx context.Context, p *domain.Payment) error {
		now := s.clock.Now()
		if completing && p.Status != domain.StatusRequiresAction && p.Status != domain.StatusProcessing {
			return nil // a concurrent completion or a webhook got there first
		}
		if !completing && p.Status != domain.StatusPending {
			return nil
		}
		if res.TransactionID != "" {
			p.TransactionID = res.TransactionID
		}
		if res.ProviderReference != "" {
			p.ProviderReference = res.ProviderReference
		}
		if res.ReceiptURL != "" {
			p.ReceiptURL = res.ReceiptURL
		}
		if res.Card != nil && p.Card.LastFour == "" {
			p.Card = *res.Card
		}
		if res.ProviderMethod != "" && p.ProviderMethod == "" {
			p.ProviderMethod = res.ProviderMethod
			p.ProviderCustomer = res.ProviderCustomer
		}
		var evs []string
		if completing && res.Status != domain.StatusFailed && res.Status != domain.StatusRequiresAction {
			evs = append(evs, api.EventPaymentActionCompleted)
		}
		switch res.Status {
		case domain.StatusSucceeded:
			p.Succeed(now)
			evs = append(evs, api.EventPaymentSucceeded)
		case domain.StatusRequiresCapture:
			p.Authorize(now)
		case domain.StatusRequiresAction:
			if completing {
				return nil // still waiting for the customer
			}
			a := domain.Action{Type: domain.ActionThreeDSecure, Data: map[string]any{}}
			if res.Action != nil {
				a = *res.Action
			}
			if a.ExpiresAt.IsZero() {
				a.ExpiresAt = now.Add(s.settings.ActionTTL)
			}
			p.RequireAction(a, now)
			evs = append(evs, api.EventPaymentRequiresAction)
		case domain.StatusProcessing:
			p.Status = domain.StatusProcessing
			p.UpdatedAt = now
		default:
			p.Decline(res.DeclineCode, res.DeclineMessage, now)
			evs = append(evs, api.EventPaymentFailed)
		}
		if p.SaveRequested && p.SavedMethodToken == "" && p.ProviderMethod != "" &&
			(p.Status == domain.StatusSucceeded || p.Status == domain.StatusRequiresCapture) {
			m, err := s.saveFromPayment(ctx, p, now)
			if err != nil {
				return err
			}
			p.SavedMethodToken = m.Token
		}
		for _, ev := range evs {
			if err := s.publishPayment(ctx, ev, p, nil); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return api.PaymentResult{}, err
	}
	r := toResult(p)
	recorded := ToAPIPayment(p)
	r.Payment = &recorded
	return r, nil
}

// saveFromPayment keeps the card of a payment made with save_payment_method.
func (s *Service) saveFromPayment(ctx context.Context, p *domain.Payment, now time.Time) (*domain.SavedMethod, error) {
	owner := p.Owner
	if p.CustomerID != "" {
		owner = domain.CustomerOwner(p.CustomerID)
	}
	exp := p.Card.ExpiresAt()
	m := &domain.SavedMethod{
		Token: newMethodToken(), Owner: owner, Gateway: p.Gateway, ProviderToken: p.ProviderMethod,
		ProviderCustomer: p.ProviderCustomer, MethodType: domain.MethodCard, Card: p.Card, ExpiresAt: &exp, CreatedAt: now,
	}
	n, err := s.methods.Count(ctx, owner)
	if err != nil {
		return nil, err
	}
	m.IsDefault = n == 0
	if err := s.methods.Create(ctx, m); err != nil {
		return nil, err
	}
	return m, nil
}

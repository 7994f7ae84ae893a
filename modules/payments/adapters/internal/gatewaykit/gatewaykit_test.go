package gatewaykit_test

import (
	"context"
	"errors"
	"testing"

	"github.com/gocommerce/commerce/modules/payments/adapters/internal/gatewaykit"
	"github.com/gocommerce/commerce/modules/payments/domain"
	"github.com/gocommerce/commerce/modules/payments/ports"
)

func TestRefundStatesAndCaptureMethod(t *testing.T) {
	r := gatewaykit.RefundStates{Succeeded: []string{"OK"}, Failed: []string{"NO", "GONE"}}
	for state, want := range map[string]domain.RefundStatus{"OK": domain.RefundSucceeded, "GONE": domain.RefundFailed, "WAIT": domain.RefundPending, "": domain.RefundPending} {
		if got := r.Of(state); got != want {
			t.Errorf("Of(%q) = %v, want %v", state, got, want)
		}
	}
	if gatewaykit.CaptureMethod(domain.CaptureManual) != domain.CaptureManual || gatewaykit.CaptureMethod("") != domain.CaptureAutomatic {
		t.Error("CaptureMethod does not keep manual and default to automatic")
	}
}

func TestNoSavedMethods(t *testing.T) {
	n := gatewaykit.NoSavedMethods{Provider: "Alipay"}
	_, err := n.SaveMethod(context.Background(), ports.SaveMethodRequest{})
	if err == nil || err.Error() == "" || !domain.ErrInvalidPaymentMethod.Is(err) {
		t.Fatalf("SaveMethod = %v, want invalid payment method", err)
	}
	if err := n.DeleteMethod(context.Background(), "c", "m"); err != nil {
		t.Fatalf("DeleteMethod = %v", err)
	}
}

type refusalError struct {
	Status int
	Code   string `json:"code"`
}

func (e *refusalError) Error() string { return e.Code }

func TestRefusalDecodesOnlyFailedAnswers(t *testing.T) {
	t.Parallel()
	if err := (gatewaykit.Answer{Status: 201, Body: []byte(`{"code":"X"}`)}).Refusal(&refusalError{}); err != nil {
		t.Fatalf("success answer: %v", err)
	}
	err := (gatewaykit.Answer{Status: 402, Body: []byte(`{"code":"DECLINED"}`)}).Refusal(&refusalError{Status: 402})
	var e *refusalError
	if !errors.As(err, &e) || e.Status != 402 || e.Code != "DECLINED" {
		t.Fatalf("402 answer: %#v", err)
	}
	err = (gatewaykit.Answer{Status: 500, Body: []byte(`<html>`)}).Refusal(&refusalError{Status: 500})
	if !errors.As(err, &e) || e.Status != 500 || e.Code != "" {
		t.Fatalf("non-JSON 500 answer: %#v", err)
	}
}

func TestWalletIdentity(t *testing.T) {
	t.Parallel()
	w := gatewaykit.Wallet{NoSavedMethods: gatewaykit.NoSavedMethods{Provider: "WeChat Pay"}, GatewayID: "wechat_pay", Currencies: []string{"CNY"}, MaxMinor: 500}
	if w.ID() != "wechat_pay" || w.Name() != "WeChat Pay" {
		t.Fatalf("ID %q, Name %q", w.ID(), w.Name())
	}
	m := w.Methods()
	if len(m) != 1 || m[0].MethodType != "wechat_pay" || m[0].DisplayName != "WeChat Pay" || !m[0].RequiresRedirect || m[0].MaxMinor != 500 || len(m[0].Currencies) != 1 || m[0].Currencies[0] != "CNY" {
		t.Fatalf("Methods = %+v", m)
	}
}

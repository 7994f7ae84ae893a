package identityapi_test

import (
	"context"
	"errors"
	"testing"

	"github.com/gocommerce/commerce/modules/customers/adapters/identityapi"
	"github.com/gocommerce/commerce/modules/customers/domain"
	identity "github.com/gocommerce/commerce/modules/identity/api"
)

// fakeCredentials is a hand-written identity api.Credentials answering a fixed error.
type fakeCredentials struct {
	err   error
	calls []string
}

func (f *fakeCredentials) HashPassword(p string) (string, error) {
	f.calls = append(f.calls, "hash:"+p)
	return "h(" + p + ")", f.err
}

func (f *fakeCredentials) SetPassword(_ context.Context, id, email, p string) error {
	f.calls = append(f.calls, "set:"+id+":"+email+":"+p)
	return f.err
}

func (f *fakeCredentials) SetPasswordHash(_ context.Context, id, email, h string) error {
	f.calls = append(f.calls, "sethash:"+id+":"+email+":"+h)
	return f.err
}

func (f *fakeCredentials) DeleteCredentials(_ context.Context, id string) error {
	f.calls = append(f.calls, "delete:"+id)
	return f.err
}

func (f *fakeCredentials) UpdateEmail(_ context.Context, id, email string) error {
	f.calls = append(f.calls, "email:"+id+":"+email)
	return f.err
}

func (f *fakeCredentials) RevokeTokens(_ context.Context, id string) error {
	f.calls = append(f.calls, "revoke:"+id)
	return f.err
}

func TestAdapter(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := &fakeCredentials{}
	a := identityapi.NewAdapter(f)
	if h, err := a.HashPassword("pw"); err != nil || h != "h(pw)" {
		t.Fatalf("HashPassword = %q, %v", h, err)
	}
	if err := a.SetPasswordHash(ctx, "c", "e@x.co", "h"); err != nil {
		t.Fatal(err)
	}
	if err := a.DeleteCredentials(ctx, "c"); err != nil {
		t.Fatal(err)
	}
	if err := a.UpdateEmail(ctx, "c", "n@x.co"); err != nil {
		t.Fatal(err)
	}
	if err := a.RevokeTokens(ctx, "c"); err != nil {
		t.Fatal(err)
	}
	if got := len(f.calls); got != 5 || f.calls[1] != "sethash:c:e@x.co:h" || f.calls[3] != "email:c:n@x.co" || f.calls[4] != "revoke:c" {
		t.Fatalf("calls %v", f.calls)
	}
	other := errors.New("db down")
	for in, want := range map[error]error{
		identity.ErrInvalidPassword: domain.ErrInvalidPassword,
		identity.ErrEmailTaken:      domain.ErrEmailTaken,
		identity.ErrInvalidEmail:    domain.ErrInvalidEmail,
		other:                       other,
	} {
		f.err = in
		if _, err := a.HashPassword("x"); !errors.Is(err, want) {
			t.Errorf("HashPassword: %v, want %v", err, want)
		}
		if err := a.SetPasswordHash(ctx, "c", "e", "h"); !errors.Is(err, want) {
			t.Errorf("SetPasswordHash: %v, want %v", err, want)
		}
		if err := a.UpdateEmail(ctx, "c", "e"); !errors.Is(err, want) {
			t.Errorf("UpdateEmail: %v, want %v", err, want)
		}
		if err := a.DeleteCredentials(ctx, "c"); !errors.Is(err, want) {
			t.Errorf("DeleteCredentials: %v, want %v", err, want)
		}
		if err := a.RevokeTokens(ctx, "c"); !errors.Is(err, want) {
			t.Errorf("RevokeTokens: %v, want %v", err, want)
		}
	}
}

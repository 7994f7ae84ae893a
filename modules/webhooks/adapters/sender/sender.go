// Package sender is the webhooks module's HTTP client: it posts a delivery and reads
// the start of the answer, within the context's deadline. Its dialer resolves the host
// itself and checks every address it is about to connect to in the socket's Control
// hook, so the address policy holds at delivery time whatever DNS answered when the
// endpoint was created (DNS rebinding) and whatever a redirect would say (redirects are
// not followed). No proxy from the environment is used: it would hide the address.
package sender

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"syscall"
	"time"

	"github.com/gocommerce/commerce/modules/webhooks/domain"
	"github.com/gocommerce/commerce/modules/webhooks/ports"
)

// ExcerptBytes is how much of an answer's body is kept.
const ExcerptBytes = 1024

// ErrAddressNotAllowed refuses a connection the policy forbids.
var ErrAddressNotAllowed = errors.New("address not allowed")

// Sender implements ports.Sender.
type Sender struct {
	client   *http.Client
	policy   domain.Policy
	resolver ports.Resolver
}

var _ ports.Sender = (*Sender)(nil)

// New builds the sender; resolver finds hosts' addresses (net.DefaultResolver in
// production, a fixed table in tests).
func New(policy domain.Policy, resolver ports.Resolver) *Sender {
	s := &Sender{policy: policy, resolver: resolver}
	t := &http.Transport{
		Proxy:                 nil,
		DialContext:           s.dial,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          100,
		MaxIdleConnsPerHost:   4,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ResponseHeaderTimeout: 0, // the context's deadline bounds the whole attempt
	}
	s.client = &http.Client{Transport: t, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	return s
}

// Transport exposes the transport (tests trust their TLS receiver's certificate).
func (s *Sender) Transport() *http.Transport { return s.client.Transport.(*http.Transport) }

// Send posts the request and reads at most ExcerptBytes of the answer.
func (s *Sender) Send(ctx context.Context, r ports.Request) ports.Response {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, r.URL, bytes.NewReader(r.Body))
	if err != nil {
		return ports.Response{Err: err}
	}
	for k, v := range r.Headers {
		req.Header.Set(k, v)
	}
	res, err := s.client.Do(req) // #nosec G704 -- the address is checked by the dialer's Control hook
	if err != nil {
		return ports.Response{Err: unwrapURL(err)}
	}
	defer func() { _ = res.Body.Close() }()
	excerpt, err := io.ReadAll(io.LimitReader(res.Body, ExcerptBytes))
	// Stored as text: valid UTF-8 without NUL (PostgreSQL refuses it in text).
	excerpt = bytes.ReplaceAll(bytes.ToValidUTF8(excerpt, []byte("\uFFFD")), []byte{0}, nil)
	out := ports.Response{StatusCode: res.StatusCode, Body: string(excerpt)}
	if err != nil && ctx.Err() != nil {
		out.Err = fmt.Errorf("reading the answer: %w", ctx.Err())
	}
	return out
}

// unwrapURL drops url.Error's "Post \"<url>\": " prefix (the URL is the endpoint's).
func unwrapURL(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) && ue.Err != nil {
		return ue.Err
	}
	return err
}

// dial resolves the host and connects to its first allowed-by-policy address that
// answers; the Control hook refuses any other.
func (s *Sender) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	byName := s.policy.HostAllowed(host)
	var addrs []netip.Addr
	if ip, err := netip.ParseAddr(host); err == nil {
		addrs = []netip.Addr{ip}
	} else if addrs, err = s.resolver.LookupNetIP(ctx, "ip", host); err != nil {
		return nil, err
	}
	d := &net.Dialer{Control: func(_, address string, _ syscall.RawConn) error {
		ap, err := netip.ParseAddrPort(address)
		if err != nil {
			return err
		}
		if !byName && !s.policy.AddrAllowed(ap.Addr()) {
			return fmt.Errorf("%w: %s is loopback, private or link-local", ErrAddressNotAllowed, ap.Addr())
		}
		return nil
	}}
	var errs []error
	for _, ip := range addrs {
		conn, err := d.DialContext(ctx, network, net.JoinHostPort(ip.Unmap().String(), port))
		if err == nil {
			return conn, nil
		}
		errs = append(errs, err)
		if ctx.Err() != nil {
			break
		}
	}
	if len(errs) == 0 {
		return nil, fmt.Errorf("%s: no address", host)
	}
	return nil, errors.Join(errs...)
}

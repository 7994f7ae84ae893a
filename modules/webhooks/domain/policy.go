package domain

import (
	"fmt"
	"net/netip"
	"net/url"
	"strings"
)

// Policy says which URLs an endpoint may use and which addresses a delivery may reach
// (SSRF). In production (Strict) a URL must be https and every address it resolves to
// must be public, unless its host or address is on the allow-list; the development
// default accepts http and any address, so an endpoint may point at a receiver on the
// developer's machine. A delivery checks the address it actually dials, so a name that
// resolves elsewhere later (DNS rebinding) gains nothing.
type Policy struct {
	Strict bool
	hosts  map[string]bool
	nets   []netip.Prefix
}

// NewPolicy builds the policy; allow holds host names, IP addresses and CIDR ranges.
func NewPolicy(strict bool, allow []string) (Policy, error) {
	p := Policy{Strict: strict, hosts: map[string]bool{}}
	for _, a := range allow {
		a = strings.ToLower(strings.TrimSpace(a))
		switch {
		case a == "":
		case strings.Contains(a, "/"):
			pfx, err := netip.ParsePrefix(a)
			if err != nil {
				return p, fmt.Errorf("webhooks: allow-list entry %q: %w", a, err)
			}
			p.nets = append(p.nets, pfx.Masked())
		default:
			if ip, err := netip.ParseAddr(a); err == nil {
				p.nets = append(p.nets, netip.PrefixFrom(ip.Unmap(), ip.Unmap().BitLen()))
				continue
			}
			p.hosts[a] = true
		}
	}
	return p, nil
}

// Problem messages of the URL checks.
const (
	MsgHTTPSRequired = "must be an https URL"
	MsgPrivate       = "must not point to a loopback, private or link-local address"
	MsgUnresolvable  = "host could not be resolved"
)

// CheckScheme returns the problem of the URL's scheme under the policy ("" when good).
func (p Policy) CheckScheme(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "must be an absolute http or https URL"
	}
	if p.Strict && u.Scheme != "https" {
		return MsgHTTPSRequired
	}
	return ""
}

// HostAllowed reports whether the host name is on the allow-list (any address is then
// accepted), or the policy is not strict.
func (p Policy) HostAllowed(host string) bool {
	return !p.Strict || p.hosts[strings.ToLower(strings.TrimSuffix(host, "."))]
}

// AddrAllowed reports whether a delivery may reach the address.
func (p Policy) AddrAllowed(ip netip.Addr) bool {
	if !p.Strict {
		return true
	}
	ip = ip.Unmap()
	for _, n := range p.nets {
		if n.Contains(ip) {
			return true
		}
	}
	return Public(ip)
}

// Public reports whether an address is publicly routable: not loopback, private
// (RFC 1918, unique local), link-local (cloud metadata), unspecified, multicast, CGNAT
// or one of the documentation and benchmarking ranges.
func Public(ip netip.Addr) bool {
	ip = ip.Unmap()
	if !ip.IsValid() || ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() ||
		ip.IsInterfaceLocalMulticast() || ip.IsMulticast() || ip.IsUnspecified() {
		return false
	}
	for _, n := range reserved {
		if n.Contains(ip) {
			return false
		}
	}
	return true
}

var reserved = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),
	netip.MustParsePrefix("100.64.0.0/10"), // CGNAT
	netip.MustParsePrefix("192.0.0.0/24"),
	netip.MustParsePrefix("198.18.0.0/15"),
	netip.MustParsePrefix("240.0.0.0/4"),
	netip.MustParsePrefix("64:ff9b::/96"), // NAT64 can reach IPv4 private space
	netip.MustParsePrefix("2001:db8::/32"),
}

// CheckAddrs returns the URL problem of a host resolving to addrs ("" when allowed).
func (p Policy) CheckAddrs(host string, addrs []netip.Addr) string {
	if p.HostAllowed(host) {
		return ""
	}
	if len(addrs) == 0 {
		return MsgUnresolvable
	}
	for _, a := range addrs {
		if !p.AddrAllowed(a) {
			return MsgPrivate
		}
	}
	return ""
}

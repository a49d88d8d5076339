package oracle

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"syscall"

	"github.com/n3node/n3node/pkg/config"
)

// reservedPrefixes are the private and special networks an oracle request
// may not reach unless AllowPrivateHost (neo-go reservedCIDRs, RFC 6890).
var reservedPrefixes = func() []netip.Prefix {
	var ps []netip.Prefix
	for _, s := range []string{
		"10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12",
		"192.0.0.0/24", "192.168.0.0/16", "198.18.0.0/15",
		"fc00::/7", "fe80::/10", "fec0::/10",
	} {
		ps = append(ps, netip.MustParsePrefix(s))
	}
	return ps
}()

// sixToFour is the 6to4 prefix, whose addresses embed an IPv4 address
// (bytes 2..5) that is checked instead (C# OracleService Helper).
var sixToFour = netip.MustParsePrefix("2002::/16")

// IsReserved reports whether ip is not a global unicast address or lies
// in a private or special network (neo-go isReserved).
func IsReserved(ip net.IP) bool {
	if !ip.IsGlobalUnicast() {
		return true
	}
	a, ok := netip.AddrFromSlice(ip)
	if !ok {
		return true
	}
	a = a.Unmap()
	if sixToFour.Contains(a) {
		b := a.As16()
		a = netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]})
	}
	for _, p := range reservedPrefixes {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// dialPublicOnly is the dialer's Control hook when private hosts are not
// allowed: it sees the resolved address of every connection and refuses
// reserved ones (error texts are neo-go's).
func dialPublicOnly(_, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return fmt.Errorf("%w: failed to split address %s: %w", ErrRestrictedRedirect, address, err)
	}
	switch ip := net.ParseIP(host); {
	case ip == nil:
		return fmt.Errorf("%w: failed to parse IP address %s", ErrRestrictedRedirect, address)
	case IsReserved(ip):
		return fmt.Errorf("%w: IP is not global unicast", ErrRestrictedRedirect)
	}
	return nil
}

// NewHTTPClient returns the oracle's HTTP client: no keep-alive, the
// whole request bounded by cfg.RequestTimeout, at most MaxRedirections
// redirections and none from https to http, and, unless
// cfg.AllowPrivateHost, connections only to public addresses (checked on
// the resolved address of every dial, redirections included). Refusals
// wrap ErrRestrictedRedirect.
func NewHTTPClient(cfg config.OracleConfiguration) *http.Client {
	d := &net.Dialer{}
	if !cfg.AllowPrivateHost {
		d.Control = dialPublicOnly
	}
	return &http.Client{
		Transport: &http.Transport{
			DisableKeepAlives: true,
			DialContext:       d.DialContext,
		},
		Timeout: cfg.RequestTimeout,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) > MaxRedirections {
				return fmt.Errorf("%w: %d redirections are reached", ErrRestrictedRedirect, MaxRedirections)
			}
			if len(via) > 0 && via[0].URL.Scheme == "https" && req.URL.Scheme != "https" {
				return fmt.Errorf("%w: redirected from secure URL %s to insecure URL %s", ErrRestrictedRedirect, via[len(via)-1].URL, req.URL)
			}
			return nil
		},
	}
}

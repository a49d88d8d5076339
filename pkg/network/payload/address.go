package payload

import (
	"errors"
	"net/netip"
	"strconv"

	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/network/capability"
)

// MaxAddrCount bounds the entries of an addr message (C#
// AddrPayload.MaxCountToSend, neo-go MaxAddrsCount).
const MaxAddrCount = 200

// ErrEmptyList is set when a list that must not be empty is.
var ErrEmptyList = errors.New("empty list")

// AddressAndTime is one known peer (C# NetworkAddressWithTime). IP is the
// 16-byte IPv6 form (IPv4 addresses are IPv4-mapped), kept as received.
type AddressAndTime struct {
	Timestamp    uint32
	IP           [16]byte
	Capabilities capability.Capabilities
}

// NewAddressAndTime returns an entry for addr (IPv4 is mapped into IPv6).
func NewAddressAndTime(addr netip.Addr, ts uint32, caps capability.Capabilities) AddressAndTime {
	return AddressAndTime{Timestamp: ts, IP: addr.As16(), Capabilities: caps}
}

// Addr returns the IP address, IPv4-mapped addresses unmapped as C#
// IPAddress.UnMap does.
func (a *AddressAndTime) Addr() netip.Addr { return netip.AddrFrom16(a.IP).Unmap() }

// TCPAddress returns "host:port" from the IP and the TcpServer capability;
// ok is false without a TcpServer capability or with port 0.
func (a *AddressAndTime) TCPAddress() (string, bool) {
	port := a.Capabilities.TCPPort()
	if port == 0 {
		return "", false
	}
	return netip.AddrPortFrom(a.Addr(), port).String(), true
}

// Size returns the encoded size.
func (a *AddressAndTime) Size() int { return 4 + 16 + a.Capabilities.Size() }

// EncodeBinary implements io.Encodable.
func (a *AddressAndTime) EncodeBinary(w *nio.BinWriter) {
	w.WriteU32LE(a.Timestamp)
	w.WriteBytes(a.IP[:])
	a.Capabilities.EncodeBinary(w)
}

// DecodeBinary implements io.Decodable.
func (a *AddressAndTime) DecodeBinary(r *nio.BinReader) {
	a.Timestamp = r.ReadU32LE()
	r.ReadBytes(a.IP[:])
	a.Capabilities = nil
	a.Capabilities.DecodeBinary(r)
}

// AddressList is the addr payload (C# AddrPayload): 1..MaxAddrCount entries.
type AddressList struct {
	Addrs []AddressAndTime
}

// Size returns the encoded size.
func (l *AddressList) Size() int {
	n := nio.VarUintSize(uint64(len(l.Addrs)))
	for i := range l.Addrs {
		n += l.Addrs[i].Size()
	}
	return n
}

// EncodeBinary implements io.Encodable.
func (l *AddressList) EncodeBinary(w *nio.BinWriter) {
	w.WriteVarUint(uint64(len(l.Addrs)))
	for i := range l.Addrs {
		l.Addrs[i].EncodeBinary(w)
	}
}

// DecodeBinary implements io.Decodable.
func (l *AddressList) DecodeBinary(r *nio.BinReader) {
	l.Addrs = nio.ReadArray[AddressAndTime](r, MaxAddrCount)
	if r.Err == nil && len(l.Addrs) == 0 {
		r.SetError(ErrEmptyList)
	}
}

// HostPort formats host and port as "host:port" (IPv6 in brackets).
func HostPort(host string, port uint16) string {
	if a, err := netip.ParseAddr(host); err == nil {
		return netip.AddrPortFrom(a, port).String()
	}
	return host + ":" + strconv.Itoa(int(port))
}

package utilcmd

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"math/big"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/encoding/address"
	"github.com/n3node/n3node/pkg/encoding/bigint"
	"github.com/n3node/n3node/pkg/smartcontract"
)

// reading is one interpretation of a value: what the input was taken as, and
// the forms it converts to, in print order.
type reading struct {
	as    string
	forms [][2]string
}

func (r *reading) add(label, value string) { r.forms = append(r.forms, [2]string{label, value}) }

// interpret returns every sensible reading of s: an address, a script hash in
// either byte order, a 32-byte hash, a public key, a WIF, a decimal integer,
// hex or base64 bytes. Ambiguous inputs (e.g. "1234") get several readings.
func interpret(s string) []reading {
	s = strings.TrimSpace(s)
	var out []reading
	if u, err := address.ToUint160(s); err == nil {
		r := reading{as: "address"}
		addHash160(&r, u)
		out = append(out, r)
	}
	if pk, err := keys.NewPrivateKeyFromWIF(s); err == nil {
		r := reading{as: "WIF private key"}
		addPublicKey(&r, pk.PublicKey())
		out = append(out, r)
	}
	hx := strings.TrimPrefix(strings.TrimPrefix(s, "0x"), "0X")
	prefixed := len(hx) != len(s)
	if b, err := hex.DecodeString(hx); err == nil && len(hx) > 0 {
		switch len(b) {
		case hash.Uint160Size:
			u, _ := hash.Uint160DecodeStringLE(hx)
			r := reading{as: "script hash, display (little-endian) order"}
			addHash160(&r, u)
			out = append(out, r)
			if !prefixed {
				u, _ = hash.Uint160DecodeStringBE(hx)
				r = reading{as: "script hash, serialized (big-endian hex) order"}
				addHash160(&r, u)
				out = append(out, r)
			}
		case hash.Uint256Size:
			u, _ := hash.Uint256DecodeStringLE(hx)
			r := reading{as: "256-bit hash (block, transaction), display order"}
			r.add("display (LE)", u.StringLE())
			r.add("serialized (BE hex)", u.StringBE())
			r.add("base64 (serialized)", base64.StdEncoding.EncodeToString(u[:]))
			out = append(out, r)
		}
		if pub, err := keys.NewPublicKeyFromBytes(b); err == nil {
			r := reading{as: "public key"}
			addPublicKey(&r, pub)
			out = append(out, r)
		}
		if !prefixed || (len(b) != hash.Uint160Size && len(b) != hash.Uint256Size) {
			r := reading{as: "hex bytes"}
			addBytes(&r, b)
			out = append(out, r)
		}
	}
	if n, ok := new(big.Int).SetString(s, 10); ok && !prefixed {
		r := reading{as: "decimal integer"}
		enc := bigint.ToBytes(n)
		r.add("hex (Neo integer, little-endian)", hex.EncodeToString(enc))
		r.add("base64 (Neo integer)", base64.StdEncoding.EncodeToString(enc))
		r.add("as GAS/NEO fraction (8 decimals)", fixed8(n))
		out = append(out, r)
	}
	if b, err := base64.StdEncoding.DecodeString(s); err == nil && len(b) > 0 {
		r := reading{as: "base64 bytes"}
		addBytes(&r, b)
		out = append(out, r)
	}
	return out
}

func addHash160(r *reading, u hash.Uint160) {
	r.add("address", address.FromUint160(u))
	r.add("script hash (display, LE)", u.String())
	r.add("script hash (serialized, BE hex)", u.StringBE())
	r.add("base64 (as in application logs)", base64.StdEncoding.EncodeToString(u[:]))
}

func addPublicKey(r *reading, p *keys.PublicKey) {
	r.add("public key (compressed)", p.StringCompressed())
	r.add("signature script (hex)", hex.EncodeToString(p.VerificationScript()))
	addHash160(r, p.ScriptHash())
}

func addBytes(r *reading, b []byte) {
	r.add("length", fmt.Sprint(len(b)))
	r.add("hex", hex.EncodeToString(b))
	r.add("base64", base64.StdEncoding.EncodeToString(b))
	if printable(b) {
		r.add("UTF-8 string", string(b))
	}
	if len(b) <= bigint.MaxBytesLen {
		r.add("integer (Neo little-endian)", bigint.FromBytes(b).String())
	}
	switch len(b) {
	case hash.Uint160Size:
		u, _ := hash.Uint160DecodeBytesBE(b)
		r.add("as script hash (display, LE)", u.String())
		r.add("as address", address.FromUint160(u))
	case hash.Uint256Size:
		u, _ := hash.Uint256DecodeBytesBE(b)
		r.add("as 256-bit hash (display, LE)", u.String())
	}
	if smartcontract.IsStandardContract(b) {
		r.add("verification script of", address.FromUint160(hash.Hash160(b)))
	}
}

func printable(b []byte) bool {
	if !utf8.Valid(b) {
		return false
	}
	for _, c := range string(b) {
		if !unicode.IsPrint(c) && !unicode.IsSpace(c) {
			return false
		}
	}
	return true
}

// fixed8 formats n with 8 decimals (datoshi as GAS).
func fixed8(n *big.Int) string {
	neg := n.Sign() < 0
	a := new(big.Int).Abs(n).String()
	for len(a) < 9 {
		a = "0" + a
	}
	s := a[:len(a)-8] + "." + a[len(a)-8:]
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	if neg {
		s = "-" + s
	}
	return s
}

func formatReadings(rs []reading) string {
	var b strings.Builder
	for i, r := range rs {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "As %s:\n", r.as)
		w := 0
		for _, f := range r.forms {
			w = max(w, len(f[0]))
		}
		for _, f := range r.forms {
			fmt.Fprintf(&b, "  %-*s  %s\n", w+1, f[0]+":", f[1])
		}
	}
	return b.String()
}

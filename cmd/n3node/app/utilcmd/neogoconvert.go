package utilcmd

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/encoding/address"
	"github.com/n3node/n3node/pkg/encoding/bigint"
	"github.com/n3node/n3node/pkg/vm/opcode"
)

// Readings returns what neo-go's `util convert` (and its VM CLI's `parse`) prints for arg: every
// reading that applies (integer, hex, script hash in both byte orders,
// public key, address, base64, string), one "label<TAB>value" line each,
// aligned by a tab writer.
func Readings(arg string) string {
	var b strings.Builder
	line := func(label, format string, args ...any) {
		b.WriteString(label + "\t" + fmt.Sprintf(format, args...) + "\n")
	}
	be := func(u hash.Uint160) string { return u.StringBE() }
	pubLines := func(raw []byte, first string, firstVal string) {
		sh, ok := pubScriptHash(raw)
		if !ok {
			return
		}
		line(first, "%s", firstVal)
		line("Public key to BE ScriptHash", "%s", be(sh))
		line("Public key to LE ScriptHash", "%s", be(sh.Reverse()))
		line("Public key to Address", "%s", address.FromUint160(sh))
	}
	if v, err := strconv.ParseInt(arg, 10, 64); err == nil {
		bs := bigint.ToBytes(big.NewInt(v))
		line("Integer to Hex", "%s", hex.EncodeToString(bs))
		line("Integer to Base64", "%s", base64.StdEncoding.EncodeToString(bs))
	}
	if raw, err := hex.DecodeString(strings.TrimPrefix(arg, "0x")); err == nil {
		if len(raw) == hash.Uint160Size {
			u := hash.Uint160(raw)
			line("BE ScriptHash to Address", "%s", address.FromUint160(u))
			line("LE ScriptHash to Address", "%s", address.FromUint160(u.Reverse()))
		}
		pubLines(raw, "Public key to Base64", base64.StdEncoding.EncodeToString(raw))
		line("Hex to String", "%q", string(raw))
		line("Hex to Integer", "%s", bigint.FromBytes(raw))
		rev := slices.Clone(raw)
		slices.Reverse(rev)
		line("Swap Endianness", "%s", hex.EncodeToString(rev))
	}
	if u, err := address.ToUint160(arg); err == nil {
		line("Address to BE ScriptHash", "%s", be(u))
		line("Address to LE ScriptHash", "%s", be(u.Reverse()))
		line("Address to Base64 (BE)", "%s", base64.StdEncoding.EncodeToString(u[:]))
		line("Address to Base64 (LE)", "%s", base64.StdEncoding.EncodeToString(u.BytesLE()))
	}
	if raw, err := base64.StdEncoding.DecodeString(arg); err == nil {
		line("Base64 to String", "%q", string(raw))
		line("Base64 to BigInteger", "%s", bigint.FromBytes(raw))
		if len(raw) == hash.Uint160Size {
			u := hash.Uint160(raw)
			line("Base64 to BE ScriptHash", "%s", u.StringBE())
			line("Base64 to LE ScriptHash", "%s", u.StringLE())
			line("Base64 to Address (BE)", "%s", address.FromUint160(u))
			line("Base64 to Address (LE)", "%s", address.FromUint160(u.Reverse()))
		}
		if pub, err := keys.NewPublicKeyFromBytes(raw); err == nil {
			pubLines(raw, "Public key to Hex", pub.StringCompressed())
		} else if isInfinity(raw) {
			pubLines(raw, "Public key to Hex", hex.EncodeToString(raw))
		}
	}
	line("String to Hex", "%s", hex.EncodeToString([]byte(arg)))
	line("String to Base64", "%s", base64.StdEncoding.EncodeToString([]byte(arg)))

	var out bytes.Buffer
	w := tabwriter.NewWriter(&out, 0, 4, 4, '\t', 0)
	_, _ = w.Write([]byte(b.String()))
	_ = w.Flush()
	return out.String()
}

// isInfinity reports whether raw is the single byte 00, which neo-go's
// keys decode as the point at infinity (n3node's keys refuse it).
func isInfinity(raw []byte) bool { return len(raw) == 1 && raw[0] == 0 }

// pubScriptHash returns the script hash of the signature verification
// script of the public key raw. The point at infinity is read as neo-go
// reads it: its script pushes the one byte 00 (PUSHDATA1 1 00 SYSCALL
// System.Crypto.CheckSig).
func pubScriptHash(raw []byte) (hash.Uint160, bool) {
	if isInfinity(raw) {
		script := append([]byte{byte(opcode.PUSHDATA1), 1, 0, byte(opcode.SYSCALL)}, keys.CheckSigSyscall[:]...)
		return hash.Hash160(script), true
	}
	pub, err := keys.NewPublicKeyFromBytes(raw)
	if err != nil {
		return hash.Uint160{}, false
	}
	return pub.ScriptHash(), true
}

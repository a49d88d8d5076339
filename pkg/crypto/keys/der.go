package keys

import "golang.org/x/crypto/cryptobyte"

// appendDERSignature appends the ASN.1 DER encoding of the r‖s signature
// sig (64 bytes) to dst. It returns nil if r or s is zero, which no valid
// signature has. dst needs room for 72 bytes to avoid allocation.
func appendDERSignature(dst, sig []byte) []byte {
	r := trimInt(sig[:32])
	s := trimInt(sig[32:])
	if r == nil || s == nil {
		return nil
	}
	rl := len(r) + int(r[0]>>7)
	sl := len(s) + int(s[0]>>7)
	dst = append(dst, 0x30, byte(4+rl+sl))
	dst = appendDERInt(dst, r, rl)
	return appendDERInt(dst, s, sl)
}

func trimInt(b []byte) []byte {
	for len(b) > 0 && b[0] == 0 {
		b = b[1:]
	}
	if len(b) == 0 {
		return nil
	}
	return b
}

func appendDERInt(dst, v []byte, l int) []byte {
	dst = append(dst, 0x02, byte(l))
	if l > len(v) {
		dst = append(dst, 0)
	}
	return append(dst, v...)
}

// derToRS converts an ASN.1 DER signature into 64-byte r‖s.
func derToRS(der []byte) ([]byte, bool) {
	var inner cryptobyte.String
	in := cryptobyte.String(der)
	var r, s []byte
	if !in.ReadASN1(&inner, 0x30) || !in.Empty() ||
		!inner.ReadASN1Integer(&r) || !inner.ReadASN1Integer(&s) || !inner.Empty() {
		return nil, false
	}
	r, s = trimLeadingZeros(r), trimLeadingZeros(s)
	if len(r) > 32 || len(s) > 32 {
		return nil, false
	}
	out := make([]byte, SignatureLen)
	copy(out[32-len(r):32], r)
	copy(out[64-len(s):], s)
	return out, true
}

func trimLeadingZeros(b []byte) []byte {
	for len(b) > 0 && b[0] == 0 {
		b = b[1:]
	}
	return b
}

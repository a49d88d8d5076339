package neogotext

import (
	"crypto/elliptic"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math/big"
)

// PublicKey decodes a hex public key of an invokefunction argument
// as neo-go's keys.NewPublicKeyFromString does (the point at infinity
// "00" included, uncompressed keys accepted, neo-go's error texts) and
// returns its compressed encoding, which the script pushes.
func PublicKey(s string) ([]byte, error) {
	b, err := hex.DecodeString(s)
	if err != nil {
		return nil, err
	}
	if len(b) == 0 {
		return nil, io.EOF
	}
	params := elliptic.P256().Params()
	var x, y *big.Int
	switch prefix := b[0]; prefix {
	case 0x00:
		if len(b) != 1 {
			return nil, errors.New("extra data")
		}
		return []byte{0}, nil
	case 0x02, 0x03:
		if err := needBytes(b[1:], 32); err != nil {
			return nil, err
		}
		x = new(big.Int).SetBytes(b[1:33])
		// y² = x³ - 3x + b (mod p)
		y2 := new(big.Int).Exp(x, big.NewInt(3), params.P)
		y2.Sub(y2, new(big.Int).Mod(new(big.Int).Mul(x, big.NewInt(3)), params.P))
		y2.Add(y2, params.B)
		y2.Mod(y2, params.P)
		y = new(big.Int).ModSqrt(y2, params.P)
		if y == nil {
			return nil, errors.New("error computing Y for compressed point")
		}
		if y.Bit(0) != uint(prefix&1) {
			y.Neg(y)
			y.Mod(y, params.P)
		}
		b = b[33:]
	case 0x04:
		if err := needBytes(b[1:], 32); err != nil {
			return nil, err
		}
		if err := needBytes(b[33:], 32); err != nil {
			return nil, err
		}
		x = new(big.Int).SetBytes(b[1:33])
		y = new(big.Int).SetBytes(b[33:65])
		if !onP256(x, y) {
			return nil, errors.New("encoded point is not on the P256 curve")
		}
		b = b[65:]
	default:
		return nil, fmt.Errorf("invalid prefix %d", prefix)
	}
	if x.Cmp(params.P) >= 0 || y.Cmp(params.P) >= 0 {
		return nil, errors.New("enccoded point is not correct (X or Y is bigger than P")
	}
	if len(b) != 0 {
		return nil, errors.New("extra data")
	}
	res := make([]byte, 33)
	res[0] = 0x02 | byte(y.Bit(0))
	x.FillBytes(res[1:])
	return res, nil
}

// needBytes reports a short read of n bytes from b as neo-go's reader
// does (io.EOF if b is empty, io.ErrUnexpectedEOF if it is short).
func needBytes(b []byte, n int) error {
	switch {
	case len(b) == 0:
		return io.EOF
	case len(b) < n:
		return io.ErrUnexpectedEOF
	}
	return nil
}

// onP256 reports whether (x, y) satisfies the P-256 equation (coordinates
// below p).
func onP256(x, y *big.Int) bool {
	params := elliptic.P256().Params()
	if x.Sign() < 0 || x.Cmp(params.P) >= 0 || y.Sign() < 0 || y.Cmp(params.P) >= 0 {
		return false
	}
	y2 := new(big.Int).Mul(y, y)
	y2.Mod(y2, params.P)
	r := new(big.Int).Exp(x, big.NewInt(3), params.P)
	r.Sub(r, new(big.Int).Mul(x, big.NewInt(3)))
	r.Add(r, params.B)
	r.Mod(r, params.P)
	return r.Cmp(y2) == 0
}

package nep17

import (
	"context"
	"errors"
	"math/big"
	"testing"

	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/rpcclient"
	"github.com/n3node/n3node/pkg/rpcclient/rpctest"
	"github.com/n3node/n3node/pkg/smartcontract/manifest"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

func TestParseAmount(t *testing.T) {
	cases := []struct {
		in   string
		dec  int
		want string // "" means an error
	}{
		{"1", 8, "100000000"},
		{"1.5", 8, "150000000"},
		{"0.00000001", 8, "1"},
		{"12345678901234567890.12345678", 8, "1234567890123456789012345678"},
		{"-1.5", 8, "-150000000"},
		{"-0.5", 1, "-5"},
		{"0", 0, "0"},
		{"10", 0, "10"},
		{"007", 2, "700"},
		{"1.0", 0, ""},
		{"0.000000001", 8, ""},
		{"1.", 8, ""},
		{".5", 8, ""},
		{"", 8, ""},
		{"-", 8, ""},
		{"1e5", 8, ""},
		{"+1", 8, ""},
		{"1,5", 8, ""},
		{" 1", 8, ""},
		{"--1", 8, ""},
		{"1.-5", 8, ""},
		{"1", -1, ""},
	}
	for _, c := range cases {
		got, err := ParseAmount(c.in, c.dec)
		if c.want == "" {
			if err == nil {
				t.Errorf("ParseAmount(%q, %d) = %s, want an error", c.in, c.dec, got)
			} else if !errors.Is(err, ErrAmountFormat) {
				t.Errorf("ParseAmount(%q): error %v is not ErrAmountFormat", c.in, err)
			}
			continue
		}
		if err != nil || got.String() != c.want {
			t.Errorf("ParseAmount(%q, %d) = %v, %v; want %s", c.in, c.dec, got, err, c.want)
		}
	}
}

func TestFormatAmount(t *testing.T) {
	cases := []struct {
		v    int64
		dec  int
		want string
	}{
		{150000000, 8, "1.5"},
		{100000000, 8, "1"},
		{1, 8, "0.00000001"},
		{0, 8, "0"},
		{-1, 8, "-0.00000001"},
		{-150000000, 8, "-1.5"},
		{123, 0, "123"},
		{-123, 0, "-123"},
		{120, 2, "1.2"},
		{5, 1, "0.5"},
	}
	for _, c := range cases {
		if got := FormatAmount(big.NewInt(c.v), c.dec); got != c.want {
			t.Errorf("FormatAmount(%d, %d) = %q, want %q", c.v, c.dec, got, c.want)
		}
		if back, err := ParseAmount(c.want, c.dec); err != nil || back.Int64() != c.v {
			t.Errorf("ParseAmount(FormatAmount(%d)) = %v, %v", c.v, back, err)
		}
	}
}

func FuzzAmountRoundTrip(f *testing.F) {
	for _, s := range []string{"1", "1.5", "-0.00000001", "100", "0.1"} {
		f.Add(s, 8)
	}
	f.Fuzz(func(t *testing.T, s string, dec int) {
		dec = ((dec % 20) + 20) % 20
		v, err := ParseAmount(s, dec)
		if err != nil {
			return
		}
		back, err := ParseAmount(FormatAmount(v, dec), dec)
		if err != nil || back.Cmp(v) != 0 {
			t.Fatalf("%q (%d decimals): %s -> %q -> %v, %v", s, dec, v, FormatAmount(v, dec), back, err)
		}
	})
}

func TestInfo(t *testing.T) {
	srv := rpctest.NewServer()
	defer srv.Close()
	tok := hash.Uint160{9, 9, 9}
	m := manifest.DefaultManifest("MyToken")
	m.SupportedStandards = []string{manifest.NEP17StandardName}
	srv.Result("getcontractstate", state.Contract{ContractBase: state.ContractBase{ID: 5, Hash: tok, Manifest: *m}})
	srv.Result("invokescript", rpcclient.InvokeResult{State: "HALT", Stack: []stackitem.Item{
		stackitem.NewByteString([]byte("MTK")), stackitem.NewBigInteger(big.NewInt(6))}})
	c, err := rpcclient.New(srv.URL, rpcclient.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	got, err := Info(context.Background(), c, tok)
	if err != nil {
		t.Fatal(err)
	}
	if *got != (Token{Hash: tok, Name: "MyToken", Symbol: "MTK", Decimals: 6}) {
		t.Errorf("Info = %+v", got)
	}
	m.SupportedStandards = nil
	srv.Result("getcontractstate", state.Contract{ContractBase: state.ContractBase{ID: 5, Hash: tok, Manifest: *m}})
	if _, err := Info(context.Background(), c, tok); !errors.Is(err, ErrNotNEP17) || !errors.Is(err, ErrNotStandard) ||
		err.Error() != tok.StringLE()+" is not a NEP-17 token" {
		t.Errorf("non-NEP-17: %v", err)
	}
	if _, err := InfoStandard(context.Background(), c, tok, "NEP-11"); errors.Is(err, ErrNotNEP17) || !errors.Is(err, ErrNotStandard) {
		t.Errorf("non-NEP-11: %v", err)
	}
	if NEO.Hash != nativenames.NeoHash || GAS.Decimals != 8 {
		t.Error("native token descriptions")
	}
}

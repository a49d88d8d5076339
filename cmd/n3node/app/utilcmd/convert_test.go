package utilcmd

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/urfave/cli/v3"
)

func find(rs []reading, as, label string) (string, bool) {
	for _, r := range rs {
		if r.as != as {
			continue
		}
		for _, f := range r.forms {
			if f[0] == label {
				return f[1], true
			}
		}
	}
	return "", false
}

func TestInterpret(t *testing.T) {
	cases := []struct {
		in, as, label, want string
	}{
		// GAS contract hash: display form, base64 from application logs, address.
		{"0xd2a4cff31913016155e38e474a2c06d08be276cf", "script hash, display (little-endian) order", "base64 (as in application logs)", "z3bii9AGLEpHjuNVYQETGfPPpNI="},
		{"z3bii9AGLEpHjuNVYQETGfPPpNI=", "base64 bytes", "as script hash (display, LE)", "0xd2a4cff31913016155e38e474a2c06d08be276cf"},
		{"d2a4cff31913016155e38e474a2c06d08be276cf", "script hash, serialized (big-endian hex) order", "script hash (display, LE)", "0xcf76e28bd0062c4a478ee35561011319f3cfa4d2"},
		{"NepwUjd9GhqgNkrfXaxj9mmsFhFzGoFuWM", "address", "script hash (display, LE)", "0xd2a4cff31913016155e38e474a2c06d08be276cf"},
		// neo-go's single-node privnet validator key and its WIF.
		{"02b3622bf4017bdfe317c58aed5f4c753f206b7db896046fa7d774bbc4bf7f8dc2", "public key", "address", "Nhfg3TbpwogLvDGVvAvqyThbsHgoSUKwtn"},
		{"KxyjQ8eUa4FHt3Gvioyt1Wz29cTUrE4eTqX3yFSk1YFCsPL8uNsY", "WIF private key", "address", "Nhfg3TbpwogLvDGVvAvqyThbsHgoSUKwtn"},
		{"100000000", "decimal integer", "hex (Neo integer, little-endian)", "00e1f505"},
		{"-1", "decimal integer", "hex (Neo integer, little-endian)", "ff"},
		{"128", "decimal integer", "hex (Neo integer, little-endian)", "8000"},
		{"150000000", "decimal integer", "as GAS/NEO fraction (8 decimals)", "1.5"},
		{"68656c6c6f", "hex bytes", "UTF-8 string", "hello"},
		{"aGVsbG8=", "base64 bytes", "UTF-8 string", "hello"},
		{"AOH1BQ==", "base64 bytes", "integer (Neo little-endian)", "100000000"},
	}
	for _, c := range cases {
		got, ok := find(interpret(c.in), c.as, c.label)
		if !ok || got != c.want {
			t.Errorf("%s as %s / %s = %q (found %v), want %q", c.in, c.as, c.label, got, ok, c.want)
		}
	}
	if rs := interpret("not a value!"); len(rs) != 0 {
		t.Errorf("garbage gave %d readings", len(rs))
	}
}

func TestConvertCommand(t *testing.T) {
	var out bytes.Buffer
	cmd := testRoot()
	cmd.Writer = &out
	if err := cmd.Run(context.Background(), []string{"n3node", "util", "convert", "NepwUjd9GhqgNkrfXaxj9mmsFhFzGoFuWM"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "Address to LE ScriptHash\td2a4cff31913016155e38e474a2c06d08be276cf\n") {
		t.Fatalf("output: %s", out.String())
	}
	out.Reset()
	cmd = testRoot()
	cmd.Writer = &out
	if err := cmd.Run(context.Background(), []string{"n3node", "util", "convert", "--explain", "NepwUjd9GhqgNkrfXaxj9mmsFhFzGoFuWM"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "0xd2a4cff31913016155e38e474a2c06d08be276cf") {
		t.Fatalf("--explain output: %s", out.String())
	}
	if err := testRoot().Run(context.Background(), []string{"n3node", "util", "convert", "--explain", "???"}); err == nil {
		t.Fatal("garbage must be an error with --explain")
	}
}

// testRoot is the n3node root command with this family only.
func testRoot() *cli.Command {
	return &cli.Command{Name: "n3node", Commands: []*cli.Command{Command()}}
}

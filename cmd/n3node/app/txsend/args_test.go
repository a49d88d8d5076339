package txsend

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/urfave/cli/v3"

	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/smartcontract"
)

func TestParamFileBytes(t *testing.T) {
	p := filepath.Join(t.TempDir(), "data.bin")
	if err := os.WriteFile(p, []byte{1, 2, 3}, 0o600); err != nil {
		t.Fatal(err)
	}
	par, err := smartcontract.ParseParameter("filebytes:" + p)
	if err != nil {
		t.Fatal(err)
	}
	if b, ok := par.Value.([]byte); !ok || string(b) != "\x01\x02\x03" {
		t.Errorf("filebytes: %+v", par)
	}
	if _, err := smartcontract.ParseParameter("filebytes:" + p + ".missing"); err == nil {
		t.Error("missing file accepted")
	}
}

func TestParseParams(t *testing.T) {
	cases := []struct {
		args []string
		n    int
		json string // "" means an error
	}{
		{[]string{"a", "b"}, 2, `[{"type":"String","value":"a"},{"type":"String","value":"b"}]`},
		{[]string{"[", "a", "b", "[", "1", "]", "]", "c"}, 8,
			`[{"type":"Array","value":[{"type":"String","value":"a"},{"type":"String","value":"b"},{"type":"Array","value":[{"type":"Integer","value":"1"}]}]},{"type":"String","value":"c"}]`},
		{[]string{"[", "]"}, 2, `[{"type":"Array","value":[]}]`},
		{[]string{"1", "--", "NSiVJYZej4XsxG5CUpdwn7VRQk8iiiDMPM"}, 2, `[{"type":"Integer","value":"1"}]`},
		{[]string{"--", "x"}, 1, `[]`},
		{[]string{}, 0, `[]`},
		// "-- addr:scope" arrives without the "--": a signer-like first word.
		{[]string{"NSiVJYZej4XsxG5CUpdwn7VRQk8iiiDMPM:Global"}, 0, `[]`},
		{[]string{"[", "a"}, 0, ""},
		{[]string{"]"}, 0, ""},
		{[]string{"[", "a", "--", "]"}, 0, ""},
		{[]string{"int:x"}, 0, ""},
	}
	for _, c := range cases {
		n, ps, err := ParseParams(c.args, true)
		if c.json == "" {
			if err == nil {
				t.Errorf("%q: no error", c.args)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", c.args, err)
			continue
		}
		if ps == nil {
			ps = []smartcontract.Parameter{}
		}
		got, _ := json.Marshal(ps)
		if n != c.n || string(got) != c.json {
			t.Errorf("%q: %d %s, want %d %s", c.args, n, got, c.n, c.json)
		}
	}
}

func TestParseCosigner(t *testing.T) {
	const addr = "NSiVJYZej4XsxG5CUpdwn7VRQk8iiiDMPM"
	acc, err := ParseAddress(addr)
	if err != nil {
		t.Fatal(err)
	}
	h := hash.Uint160{1, 2, 3}
	cases := []struct {
		in   string
		want string // JSON of the signer, "" for an error
	}{
		{addr, `{"account":"` + acc.String() + `","scopes":"CalledByEntry"}`},
		{addr + ":Global", `{"account":"` + acc.String() + `","scopes":"Global"}`},
		{addr + ":None", `{"account":"` + acc.String() + `","scopes":"None"}`},
		{h.StringLE() + ":CalledByEntry,CustomContracts:" + h.StringLE() + ":0x" + h.StringLE(),
			`{"account":"` + h.String() + `","scopes":"CalledByEntry, CustomContracts","allowedcontracts":["` + h.String() + `","` + h.String() + `"]}`},
		{"0x" + h.StringLE() + ":CustomGroups:03b209fd4f53a7170ea4444e0cb0a6bb6a53c2bd016926989cf85f9b0fba17a70c",
			`{"account":"` + h.String() + `","scopes":"CustomGroups","allowedgroups":["03b209fd4f53a7170ea4444e0cb0a6bb6a53c2bd016926989cf85f9b0fba17a70c"]}`},
		{addr + ":Global,CalledByEntry", ""},
		{addr + ":CalledByEntry,Global", ""},
		{addr + ":CustomContracts", ""},
		{addr + ":CustomGroups", ""},
		{addr + ":Bogus", ""},
		{"notanaddress", ""},
	}
	for _, c := range cases {
		s, err := parseCosigner(c.in)
		if c.want == "" {
			if err == nil {
				t.Errorf("%q: no error", c.in)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		got, _ := json.Marshal(s)
		if string(got) != c.want {
			t.Errorf("%q:\n got %s\nwant %s", c.in, got, c.want)
		}
	}
	ss, err := ParseSigners([]string{addr, addr + ":Global"})
	if err != nil || len(ss) != 2 || ss[1].Scopes != transaction.Global {
		t.Errorf("parseSigners: %v %v", ss, err)
	}
	if _, err := ParseSigners([]string{"x"}); err == nil || !strings.Contains(err.Error(), "signer #0") {
		t.Errorf("bad signer: %v", err)
	}
}

// TestCLIArgsSeparator checks that the "--" urfave/cli drops is put back
// where it was typed.
func TestCLIArgsSeparator(t *testing.T) {
	one := 1
	cases := []struct {
		args []string
		want []string
	}{
		{[]string{"-w", "x", "a", "--", "s"}, []string{"a", "--", "s"}},
		{[]string{"-w", "x", "--", "s", "t"}, []string{"--", "s", "t"}},
		{[]string{"a", "b", "--", "s"}, []string{"a", "b", "--", "s"}},
		{[]string{"a", "b", "c"}, []string{"a", "b", "c"}},
		{[]string{"a", "--", "--", "s"}, []string{"a", "--", "--", "s"}},
		{[]string{"-5", "--", "s"}, []string{"-5", "--", "s"}},
		{[]string{"a", "--"}, []string{"a", "--"}},
		{[]string{}, []string{}},
	}
	for _, c := range cases {
		var got []string
		root := &cli.Command{Name: "r", Commands: []*cli.Command{{Name: "g", Commands: []*cli.Command{{
			Name: "leaf", StopOnNthArg: &one,
			Flags:  []cli.Flag{&cli.StringFlag{Name: "w"}},
			Action: func(_ context.Context, cmd *cli.Command) error { got = CLIArgs(cmd); return nil },
		}}}}}
		if err := root.Run(context.Background(), append([]string{"r", "g", "leaf"}, c.args...)); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, c.want) && !(len(got) == 0 && len(c.want) == 0) {
			t.Errorf("%q: %q, want %q", c.args, got, c.want)
		}
	}
}

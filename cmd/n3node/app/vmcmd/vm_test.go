package vmcmd

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/n3node/n3node/pkg/config"
	"github.com/urfave/cli/v3"
)

// The NEF of UT_Helper.TestGetContractHash (compiler "test", script 010203),
// from the protocol vectors.
const nefHex = "4e45463374657374000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000003010203a747fb73"

func TestNEF(t *testing.T) {
	data, _ := hex.DecodeString(nefHex)
	script, err := nefScript(data)
	if err != nil || hex.EncodeToString(script) != "010203" {
		t.Fatalf("script %x, %v", script, err)
	}
	bad := bytes.Clone(data)
	bad[len(bad)-1] ^= 1
	if _, err := nefScript(bad); err == nil {
		t.Error("bad checksum accepted")
	}
	if _, err := nefScript(data[:len(data)-1]); err == nil {
		t.Error("truncated NEF accepted")
	}
}

func TestVMRun(t *testing.T) {
	dir := t.TempDir()
	data, _ := hex.DecodeString(nefHex)
	nefPath := filepath.Join(dir, "c.nef")
	if err := os.WriteFile(nefPath, data, 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args  []string
		state string
		stack string
		exc   string
	}{
		{[]string{"vm", "run", "12139e"}, "HALT", `[{"type":"Integer","value":"5"}]`, ""},
		{[]string{"vm", "run", "EhOe"}, "HALT", `[{"type":"Integer","value":"5"}]`, ""},
		{[]string{"vm", "run", nefPath}, "HALT", `[{"type":"Integer","value":"770"}]`, ""},
		{[]string{"vm", "run", "--gas", "0.00000089", "12139e"}, "FAULT", `[]`, "insufficient GAS"},
		{[]string{"vm", "run", "41cfe74738"}, "FAULT", `[]`, "not available"},
		{[]string{"vm", "run", "0c056865726f21" + "4156e7b327"}, "FAULT", `[]`, "System.Crypto.CheckSig"},
		{[]string{"vm", "run", "--rules", "pre-gorgon", "0c026162" + "10a8"}, "HALT", `[{"type":"ByteString","value":"YWI="}]`, ""},
		{[]string{"vm", "run", "0c026162" + "10a8"}, "HALT", `[{"type":"Integer","value":"25185"}]`, ""},
	}
	for _, c := range cases {
		var out bytes.Buffer
		cmd := testRoot()
		cmd.Writer = &out
		if err := cmd.Run(context.Background(), append([]string{"n3node"}, c.args...)); err != nil {
			t.Fatalf("%v: %v", c.args, err)
		}
		var res runResult
		if err := json.Unmarshal(out.Bytes(), &res); err != nil {
			t.Fatalf("%v: %v\n%s", c.args, err, out.String())
		}
		stack, _ := json.Marshal(res.Stack)
		if res.State != c.state || string(stack) != c.stack {
			t.Errorf("%v: %s %s", c.args, res.State, stack)
		}
		if c.exc != "" && (res.Exception == nil || !strings.Contains(*res.Exception, c.exc)) {
			t.Errorf("%v: exception %v, want %q", c.args, res.Exception, c.exc)
		}
	}
	if err := testRoot().Run(context.Background(), []string{"n3node", "vm", "run", "zz!"}); err == nil {
		t.Error("garbage accepted")
	}
}

// testRoot is the n3node root command with this family only.
func testRoot() *cli.Command {
	return &cli.Command{Name: "n3node", Commands: []*cli.Command{Command()}}
}

// TestVMNetworkFlags: `n3node vm --config-path DIR -p` opens the database
// of DIR/protocol.privnet.yml, as neo-go's vm does.
func TestVMNetworkFlags(t *testing.T) {
	yml, err := config.EmbeddedConfig("privnet")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	yml = bytes.Replace(yml, []byte(`"./data/privnet"`), []byte(`"`+filepath.Join(dir, "db")+`"`), 1)
	if err := os.WriteFile(filepath.Join(dir, "protocol.privnet.yml"), yml, 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errw bytes.Buffer
	cmd := testRoot()
	cmd.Reader, cmd.Writer, cmd.ErrWriter = strings.NewReader("env\nexit\n"), &out, &errw
	if err := cmd.Run(context.Background(), []string{"n3node", "vm", "--config-path", dir, "-p"}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "DB type: pebble") || errw.Len() != 0 {
		t.Errorf("%s\n%s", out.String(), errw.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "db")); err != nil {
		t.Errorf("no database: %v", err)
	}
	if err := testRoot().Run(context.Background(), []string{"n3node", "vm", "-p", "-m"}); err == nil {
		t.Error("two networks accepted")
	}
}

package app

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/n3node/n3node/internal/refchain/neogo"
	"github.com/n3node/n3node/pkg/wallet"
)

// TestWalletKeyCommandsNeoGo runs the offline wallet commands (export,
// strip-keys, nep17 info/remove, nep11 info) with neo-go
// 0.120.0's binary and with n3node on copies of the same wallet and
// compares the outputs and the resulting accounts. Run with
// N3NODE_NEOGO=1 (make wallet-e2e).
func TestWalletKeyCommandsNeoGo(t *testing.T) {
	if os.Getenv("N3NODE_NEOGO") == "" {
		t.Skip("set N3NODE_NEOGO=1 to compare with neo-go 0.120.0 (make wallet-e2e)")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	bin, err := neogo.Binary(ctx)
	if err != nil {
		t.Fatal(err)
	}
	e := newCLIEnv(t)
	k1, k2 := testKey(t, 1), testKey(t, 2)
	base, _ := e.wallet("base", "secret", k1, k2)
	w, err := wallet.NewWalletFromFile(base)
	if err != nil {
		t.Fatal(err)
	}
	w.AddToken(wallet.NewToken(k2.ScriptHash(), "Tok", "TOK", 2, "NEP-17"))
	if err := w.Save(); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(base)
	// copyOf makes a fresh copy of the base wallet (and a config for it).
	n := 0
	copyOf := func() (string, string) {
		n++
		p := filepath.Join(e.dir, fmt.Sprintf("c%d.json", n))
		cfg := filepath.Join(e.dir, fmt.Sprintf("c%d.yml", n))
		os.WriteFile(p, data, 0o600)
		os.WriteFile(cfg, []byte("Path: "+p+"\nPassword: secret\n"), 0o600)
		return p, cfg
	}
	neoGo := func(stdin string, args ...string) (string, error) {
		cmd := exec.CommandContext(ctx, bin, args...)
		cmd.Stdin = strings.NewReader(stdin)
		var out, errb strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		if err != nil {
			err = fmt.Errorf("neo-go %s: %w\n%s", strings.Join(args, " "), err, errb.String())
		}
		return out.String(), err
	}
	// both runs a command on two copies; {w} and {cfg} in args name them.
	both := func(stdin string, args ...string) (ours, theirs string, wOurs, wTheirs string) {
		t.Helper()
		subst := func(p, cfg string) []string {
			r := make([]string, len(args))
			for i, a := range args {
				r[i] = strings.NewReplacer("{w}", p, "{cfg}", cfg).Replace(a)
			}
			return r
		}
		p1, c1 := copyOf()
		p2, c2 := copyOf()
		var err error
		if ours, err = cliRun(ctx, stdin, subst(p1, c1)...); err != nil {
			t.Fatal(err)
		}
		if theirs, err = neoGo(stdin, subst(p2, c2)...); err != nil {
			t.Fatal(err)
		}
		return ours, theirs, p1, p2
	}
	accountsOf := func(p string) string {
		w, err := wallet.NewWalletFromFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var sb strings.Builder
		for _, a := range w.Accounts {
			fmt.Fprintf(&sb, "%s %s %q %x %v\n", a.Address, a.EncryptedWIF, a.Label, a.Contract.Script, a.Default)
		}
		for _, tk := range w.Extra.Tokens {
			fmt.Fprintf(&sb, "token %s %s\n", tk.Hash.StringLE(), tk.Standard)
		}
		return sb.String()
	}
	for _, args := range [][]string{
		{"wallet", "export", "-w", "{w}"},
		{"wallet", "export", "--wallet-config", "{cfg}", "--format", "wif", k2.Address()},
		{"wallet", "export", "--wallet-config", "{cfg}", "-d", k1.Address()},
		{"wallet", "export", "--wallet-config", "{cfg}", "--format", "pem", k1.Address()},
		{"wallet", "nep17", "info", "-w", "{w}"},
		{"wallet", "nep17", "info", "-w", "{w}", "--token", "TOK"},
		{"wallet", "nep11", "info", "-w", "{w}"},
		{"wallet", "nep17", "remove", "-w", "{w}", "--token", "TOK", "--force"},
		{"wallet", "strip-keys", "-w", "{w}", "--force"},
	} {
		ours, theirs, p1, p2 := both("", args...)
		if ours != theirs {
			t.Errorf("%s:\n n3node:\n%s\n neo-go:\n%s", strings.Join(args, " "), ours, theirs)
		}
		if a, b := accountsOf(p1), accountsOf(p2); a != b {
			t.Errorf("%s: wallets differ:\n n3node:\n%s\n neo-go:\n%s", strings.Join(args, " "), a, b)
		}
	}
	// change-password and convert are not compared: neo-go reads their
	// passwords from /dev/tty only, so they cannot be scripted.
}

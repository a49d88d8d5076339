package chaingen

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/n3node/n3node/internal/refchain"
	"github.com/n3node/n3node/pkg/crypto/hash"
)

var fixtureDir = filepath.Join("..", "..", "..", "testdata", "refchain")

func mustHash160(t *testing.T, s string) hash.Uint160 {
	t.Helper()
	h, err := hash.Uint160DecodeStringLE(strings.TrimPrefix(s, "0x"))
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// Native hashes are the same on every network.
const (
	gasHash  = "0xd2a4cff31913016155e38e474a2c06d08be276cf"
	mgmtHash = "0xfffdc93764dbaddd97c48f252a53ea4643faa3fd"
)

func TestSyscallID(t *testing.T) {
	// SYSCALL operands as they appear in neo-go's scripts.
	for name, want := range map[string]uint32{
		"System.Contract.Call":   0x525b7d62,
		"System.Crypto.CheckSig": 0x27b3e756,
	} {
		if got := SyscallID(name); got != want {
			t.Errorf("%s: %#x, want %#x", name, got, want)
		}
	}
}

func TestPushInt(t *testing.T) {
	big2to64, _ := new(big.Int).SetString("18446744073709551616", 10)
	for _, tc := range []struct {
		v    *big.Int
		want string
	}{
		{big.NewInt(-1), "0f"},
		{big.NewInt(0), "10"},
		{big.NewInt(16), "20"},
		{big.NewInt(17), "0011"},
		{big.NewInt(127), "007f"},
		{big.NewInt(128), "018000"},
		{big.NewInt(-128), "0080"},
		{big.NewInt(-129), "017fff"},
		{big.NewInt(65536), "0200000100"},
		{big.NewInt(999999), "023f420f00"},
		{big.NewInt(1<<63 - 1), "03ffffffffffffff7f"},
		{big2to64, "0400000000000000000100000000000000"},
	} {
		b := NewBuilder()
		b.BigInt(tc.v)
		s, err := b.Script()
		if err != nil {
			t.Fatal(err)
		}
		if got := hex.EncodeToString(s); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.v, got, tc.want)
		}
	}
}

func TestJumps(t *testing.T) {
	b := NewBuilder()
	b.Label("top")
	b.Op(NOP)
	b.Jump(JMPIF, "end")
	b.Jump(JMP, "top")
	b.Label("end")
	b.Op(RET)
	s, err := b.Script()
	if err != nil {
		t.Fatal(err)
	}
	// NOP; JMPIF_L +10; JMP_L -6; RET
	if got := hex.EncodeToString(s); got != "21250a000000"+"23faffffff"+"40" {
		t.Errorf("script %s", got)
	}
	b = NewBuilder()
	b.Jump(JMP, "nowhere")
	if _, err := b.Script(); err == nil {
		t.Error("undefined label accepted")
	}
}

func TestNEF(t *testing.T) {
	// neo-go's compiled test contract: our checksum rule must agree.
	helper, err := os.ReadFile(filepath.Join(fixtureDir, ContractsDir, helperNEF))
	if err != nil {
		t.Fatal(err)
	}
	sum := hash.Checksum(helper[:len(helper)-4])
	if !bytes.Equal(sum[:], helper[len(helper)-4:]) {
		t.Fatal("management_helper1.nef checksum rule mismatch")
	}
	nef, err := NEF("c", "s", []byte{byte(RET)})
	if err != nil {
		t.Fatal(err)
	}
	// magic, 64-byte compiler, var-string source, reserved, no tokens,
	// reserved u16, var-bytes script, checksum
	if len(nef) != 4+64+2+1+1+2+2+4 || string(nef[:4]) != "NEF3" {
		t.Fatalf("nef %x", nef)
	}
	sum = hash.Checksum(nef[:len(nef)-4])
	if NEFChecksum(nef) != uint32(sum[0])|uint32(sum[1])<<8|uint32(sum[2])<<16|uint32(sum[3])<<24 {
		t.Fatal("checksum")
	}
}

// TestContractsMatchFixture: the assembler reproduces the committed contract
// files and the contract state neo-go recorded, and ContractHash the hashes.
func TestContractsMatchFixture(t *testing.T) {
	f, err := refchain.Load(fixtureDir)
	if err != nil {
		t.Fatal(err)
	}
	mgmt := mustHash160(t, mgmtHash)
	v1, err := RefChainContract(RefChainName, 1, mgmt)
	if err != nil {
		t.Fatal(err)
	}
	v2, err := RefChainContract(RefChainName, 2, mgmt)
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]Contract{"refchain": v1, "refchain_v2": v2} {
		nef, err := os.ReadFile(filepath.Join(fixtureDir, ContractsDir, name+".nef"))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(nef, c.NEF) {
			t.Errorf("%s.nef differs from the assembler's output", name)
		}
	}
	accs, err := loadAccounts(filepath.Join(fixtureDir, AccountsFile))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for _, c := range f.Scenario.Contracts {
		want[c.Name] = c.Hash
	}
	if got := ContractHash(accs["A"].Hash, NEFChecksum(v1.NEF), RefChainName).String(); got != want[RefChainName] {
		t.Errorf("RefChain hash %s, scenario says %s", got, want[RefChainName])
	}
	r, err := f.Find("getcontractstate", want[RefChainName])
	if err != nil {
		t.Fatal(err)
	}
	var cs struct {
		UpdateCounter int `json:"updatecounter"`
		NEF           struct {
			Script   string `json:"script"`
			Checksum uint32 `json:"checksum"`
		} `json:"nef"`
		Manifest struct {
			ABI json.RawMessage `json:"abi"`
		} `json:"manifest"`
	}
	if err := json.Unmarshal(r.Result, &cs); err != nil {
		t.Fatal(err)
	}
	if cs.UpdateCounter != 1 || cs.NEF.Checksum != NEFChecksum(v2.NEF) {
		t.Errorf("recorded state: update counter %d, checksum %d; want 1, %d", cs.UpdateCounter, cs.NEF.Checksum, NEFChecksum(v2.NEF))
	}
	script, _ := base64.StdEncoding.DecodeString(cs.NEF.Script)
	if !bytes.Contains(v2.NEF, script) || len(script) < 100 {
		t.Error("recorded script is not version 2's")
	}
	var m struct {
		ABI json.RawMessage `json:"abi"`
	}
	if err := json.Unmarshal(v2.Manifest, &m); err != nil {
		t.Fatal(err)
	}
	var a, b any
	_ = json.Unmarshal(m.ABI, &a)
	_ = json.Unmarshal(cs.Manifest.ABI, &b)
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if !bytes.Equal(ja, jb) {
		t.Errorf("ABI differs:\nassembled %s\nrecorded  %s", ja, jb)
	}
}

// TestUnsentTxMatchesFixture: transaction encoding and RFC 6979 signing are
// deterministic, so the calculatenetworkfee request rebuilds byte for byte.
func TestUnsentTxMatchesFixture(t *testing.T) {
	f, err := refchain.Load(fixtureDir)
	if err != nil {
		t.Fatal(err)
	}
	accs, err := loadAccounts(filepath.Join(fixtureDir, AccountsFile))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := unsentTx(f.Scenario.Network, mustHash160(t, gasHash), accs["A"], accs["B"])
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Find("calculatenetworkfee", base64.StdEncoding.EncodeToString(raw)); err != nil {
		t.Fatalf("rebuilt transaction is not the recorded one: %v", err)
	}
}

func TestAccountsMatchScenario(t *testing.T) {
	accs, err := loadAccounts(filepath.Join(fixtureDir, AccountsFile))
	if err != nil {
		t.Fatal(err)
	}
	f, err := refchain.Load(fixtureDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range f.Scenario.Accounts {
		if got := accs[a.Name].Address(); got != a.Address {
			t.Errorf("account %s: %s, scenario says %s", a.Name, got, a.Address)
		}
	}
}

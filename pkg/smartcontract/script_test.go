package smartcontract_test

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/vm/emit"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/encoding/address"
	"github.com/n3node/n3node/pkg/smartcontract"
)

const vectorsDir = "../../testdata/vectors"

func loadJSON(t testing.TB, name string, v any) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(vectorsDir, name))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatal(err)
	}
}

func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

type contractsFile struct {
	Natives []struct {
		Name    string `json:"name"`
		Hash    string `json:"hash"`
		LE      string `json:"hash_le_bytes_hex"`
		Address string `json:"address"`
		Script  string `json:"deploy_script_hex"`
	} `json:"native_contracts"`
	Deployed []struct {
		Sender   string `json:"sender"`
		Checksum uint32 `json:"nef_checksum"`
		Name     string `json:"name"`
		Hash     string `json:"hash"`
		Script   string `json:"script_hex"`
	} `json:"deployed_contract_hashes"`
	Keys []struct {
		Pub          string `json:"public_key_compressed"`
		Verification string `json:"verification_script_hex"`
		ScriptHash   string `json:"script_hash"`
	} `json:"key_vectors"`
	Syscalls []struct {
		Name string `json:"name"`
		ID   string `json:"id_u32"`
	} `json:"interop_syscalls"`
}

func contractScript(sender hash.Uint160, sum uint32, name string) []byte {
	w := nio.NewBufBinWriter()
	w.WriteU8(0x38)
	emit.Bytes(w, sender[:])
	emit.Int(w, int64(sum))
	emit.String(w, name)
	return w.Bytes()
}

func TestContractHashes(t *testing.T) {
	var f contractsFile
	loadJSON(t, "contracts_addresses.json", &f)
	if len(f.Natives) != 11 || len(f.Deployed) == 0 {
		t.Fatalf("%d natives, %d deployed vectors", len(f.Natives), len(f.Deployed))
	}
	for _, v := range f.Natives {
		h := smartcontract.GetContractHash(hash.Uint160{}, 0, v.Name)
		if h.String() != v.Hash || h.StringBE() != v.LE {
			t.Errorf("%s: %s, want %s", v.Name, h, v.Hash)
		}
		if got := hex.EncodeToString(contractScript(hash.Uint160{}, 0, v.Name)); got != v.Script {
			t.Errorf("%s: script %s, want %s", v.Name, got, v.Script)
		}
		if address.FromUint160(h) != v.Address {
			t.Errorf("%s: address %s", v.Name, address.FromUint160(h))
		}
	}
	for _, v := range f.Deployed {
		sender, err := hash.Uint160DecodeStringLE(v.Sender)
		if err != nil {
			t.Fatal(err)
		}
		if h := smartcontract.GetContractHash(sender, v.Checksum, v.Name); h.String() != v.Hash {
			t.Errorf("%s/%d: %s, want %s", v.Sender, v.Checksum, h, v.Hash)
		}
		if got := hex.EncodeToString(contractScript(sender, v.Checksum, v.Name)); got != v.Script {
			t.Errorf("script %s, want %s", got, v.Script)
		}
	}
}

func TestInteropIDs(t *testing.T) {
	var f contractsFile
	loadJSON(t, "contracts_addresses.json", &f)
	if len(f.Syscalls) < 41 {
		t.Fatalf("%d syscalls", len(f.Syscalls))
	}
	for _, s := range f.Syscalls {
		var want uint32
		b := unhex(t, s.ID[2:])
		want = uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])
		if got := smartcontract.InteropID(s.Name); got != want {
			t.Errorf("%s: %08x, want %s", s.Name, got, s.ID)
		}
	}
}

func TestSignatureContract(t *testing.T) {
	var f contractsFile
	loadJSON(t, "contracts_addresses.json", &f)
	for _, v := range f.Keys {
		pub, err := keys.NewPublicKeyFromString(v.Pub)
		if err != nil {
			t.Fatal(err)
		}
		s := smartcontract.CreateSignatureRedeemScript(pub)
		if hex.EncodeToString(s) != v.Verification {
			t.Errorf("script %x", s)
		}
		if !smartcontract.IsSignatureContract(s) || !smartcontract.IsStandardContract(s) || smartcontract.IsMultiSigContract(s) {
			t.Error("classification")
		}
		k, ok := smartcontract.ParseSignatureContract(s)
		if !ok || hex.EncodeToString(k) != v.Pub {
			t.Error("ParseSignatureContract")
		}
		if hash.Hash160(s).String() != v.ScriptHash {
			t.Error("script hash")
		}
		for i := range s {
			bad := bytes.Clone(s)
			bad[i] ^= 0x80
			if i >= 2 && i < 35 {
				continue // key bytes are not checked
			}
			if smartcontract.IsSignatureContract(bad) {
				t.Errorf("mutation at %d accepted", i)
			}
		}
		if smartcontract.IsSignatureContract(s[:39]) || smartcontract.IsSignatureContract(append(s, 0)) {
			t.Error("wrong length accepted")
		}
	}
}

type genesisFile struct {
	Networks map[string]struct {
		Validators []string `json:"standby_validators"`
		Committee  []string `json:"standby_committee"`
		M          int      `json:"bft_required_signatures_m"`
		BFT        string   `json:"bft_verification_script_hex"`
		NextHash   string   `json:"next_consensus_script_hash"`
		NextAddr   string   `json:"next_consensus_address"`
	} `json:"networks"`
}

func parseKeys(t *testing.T, ss []string) []*keys.PublicKey {
	var ks []*keys.PublicKey
	for _, s := range ss {
		k, err := keys.NewPublicKeyFromString(s)
		if err != nil {
			t.Fatal(err)
		}
		ks = append(ks, k)
	}
	return ks
}

func TestMultiSigContract(t *testing.T) {
	var g genesisFile
	loadJSON(t, "genesis.json", &g)
	if len(g.Networks) != 2 {
		t.Fatal("networks missing")
	}
	for name, n := range g.Networks {
		vals := parseKeys(t, n.Validators)
		if m := smartcontract.GetDefaultHonestNodeCount(len(vals)); m != n.M {
			t.Errorf("%s: m = %d, want %d", name, m, n.M)
		}
		s, err := smartcontract.CreateDefaultMultiSigRedeemScript(vals)
		if err != nil {
			t.Fatal(err)
		}
		if hex.EncodeToString(s) != n.BFT {
			t.Errorf("%s: BFT script %x", name, s)
		}
		if h := hash.Hash160(s); h.String() != n.NextHash || address.FromUint160(h) != n.NextAddr {
			t.Errorf("%s: next consensus %s", name, h)
		}
		if !smartcontract.IsMultiSigContract(s) || smartcontract.IsSignatureContract(s) {
			t.Errorf("%s: classification", name)
		}
		m, pubs, ok := smartcontract.ParseMultiSigContract(s)
		if !ok || m != n.M || len(pubs) != len(vals) {
			t.Fatalf("%s: parse m=%d n=%d ok=%v", name, m, len(pubs), ok)
		}
		m2, n2, ok := smartcontract.ParseMultiSigContractMN(s)
		if !ok || m2 != m || n2 != len(vals) {
			t.Errorf("%s: MN parse", name)
		}
		// Committee: 21 keys, majority 11, PUSHINT8 21 for n.
		com := parseKeys(t, n.Committee)
		cs, err := smartcontract.CreateMajorityMultiSigRedeemScript(com)
		if err != nil {
			t.Fatal(err)
		}
		if m, pubs, ok := smartcontract.ParseMultiSigContract(cs); !ok || m != 11 || len(pubs) != 21 {
			t.Errorf("%s: committee script parse m=%d ok=%v", name, m, ok)
		}
		if cs[len(cs)-7] != 0x00 || cs[len(cs)-6] != 21 {
			t.Errorf("%s: n=21 not pushed with PUSHINT8", name)
		}
		// Mutations break the script.
		bad := bytes.Clone(s)
		bad[0] = 0x10 // PUSH0: m = 0
		if smartcontract.IsMultiSigContract(bad) {
			t.Error("m=0 accepted")
		}
		bad = bytes.Clone(s)
		bad[len(bad)-6] = 0x16 // n = 6 != 7
		if smartcontract.IsMultiSigContract(bad) {
			t.Error("wrong n accepted")
		}
		if smartcontract.IsMultiSigContract(s[:len(s)-1]) || smartcontract.IsMultiSigContract(append(bytes.Clone(s), 0)) {
			t.Error("wrong length accepted")
		}
		// An invalid key passes the shape check but not the parse.
		bad = bytes.Clone(s)
		bad[3] = 0x05
		if !smartcontract.IsMultiSigContract(bad) {
			t.Error("shape check decodes keys")
		}
		if _, _, ok := smartcontract.ParseMultiSigContract(bad); ok {
			t.Error("invalid key accepted by ParseMultiSigContract")
		}
	}
	if _, err := smartcontract.CreateMultiSigRedeemScript(0, nil); err == nil {
		t.Error("m=0 accepted")
	}
}

func TestInvocationScripts(t *testing.T) {
	sig := bytes.Repeat([]byte{7}, 64)
	inv := append([]byte{0x0c, 64}, sig...)
	if s, ok := smartcontract.ParseSignatureInvocation(inv); !ok || !bytes.Equal(s, sig) {
		t.Fatal("single invocation")
	}
	multi := append(bytes.Clone(inv), inv...)
	if ss, ok := smartcontract.ParseMultiSigInvocation(2, multi); !ok || len(ss) != 2 {
		t.Fatal("multi invocation")
	}
	if _, ok := smartcontract.ParseMultiSigInvocation(3, multi); ok {
		t.Fatal("wrong m accepted")
	}
	if _, ok := smartcontract.ParseSignatureInvocation(inv[:65]); ok {
		t.Fatal("short invocation accepted")
	}
}

// The integer pushes of the standard scripts (emit.Int, C# EmitPush).
func TestPushInt(t *testing.T) {
	cases := map[int64]string{
		-1: "0f", 0: "10", 16: "20", 17: "0011", -2: "00fe", 127: "007f", 128: "018000",
		-129: "017fff", 32767: "01ff7f", 32768: "0200800000", 0x73fb47a7: "02a747fb73",
		0x80000000: "030000008000000000",
	}
	for v, want := range cases {
		w := nio.NewBufBinWriter()
		emit.Int(w, v)
		if got := hex.EncodeToString(w.Bytes()); got != want {
			t.Errorf("%d: %s, want %s", v, got, want)
		}
	}
}

// FuzzParseMultiSigContract: the parsers never panic, agree with each
// other, and a parsed script rebuilds byte for byte when its keys are
// sorted and its counts minimal.
func FuzzParseMultiSigContract(f *testing.F) {
	var g genesisFile
	loadJSON(f, "genesis.json", &g)
	for _, n := range g.Networks {
		f.Add(unhex(f, n.BFT))
	}
	f.Add(unhex(f, "0c2102028a99826edc0c97d18e22b6932373d908d323aa7f92656a77ec26e8861699ef4156e7b327"))
	f.Fuzz(func(t *testing.T, s []byte) {
		m, n, okShape := smartcontract.ParseMultiSigContractMN(s)
		m2, pubs, ok := smartcontract.ParseMultiSigContract(s)
		if ok && (!okShape || m2 != m || len(pubs) != n) {
			t.Fatal("parsers disagree")
		}
		if smartcontract.IsSignatureContract(s) && okShape {
			t.Fatal("both single and multi")
		}
		if !ok {
			return
		}
		rebuilt, err := smartcontract.CreateMultiSigRedeemScript(m, pubs)
		if err != nil {
			t.Fatal(err)
		}
		if len(rebuilt) == len(s) && !bytes.Equal(rebuilt, s) {
			sorted := true
			for i := 1; i < len(pubs); i++ {
				if pubs[i-1].Cmp(pubs[i]) > 0 {
					sorted = false
				}
			}
			if sorted && m <= 16 && n <= 16 {
				t.Fatalf("sorted script rebuilds differently: %x vs %x", s, rebuilt)
			}
		}
	})
}

package keys_test

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/encoding/address"
)

const vectorsDir = "../../../testdata/vectors"

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

type keyVector struct {
	Priv         string `json:"private_key_hex"`
	Pub          string `json:"public_key_compressed"`
	WIF          string `json:"wif"`
	Passphrase   string `json:"nep2_passphrase"`
	NEP2         string `json:"nep2_encrypted"`
	Verification string `json:"verification_script_hex"`
	ScriptHash   string `json:"script_hash"`
	Address      string `json:"address"`
}

type contractsFile struct {
	Keys      []keyVector `json:"key_vectors"`
	Addresses []struct {
		Address    string `json:"address"`
		ScriptHash string `json:"script_hash"`
	} `json:"address_vectors"`
	Invalid []struct {
		Input string `json:"input"`
	} `json:"invalid_addresses"`
	Syscalls []struct {
		Name    string `json:"name"`
		Operand string `json:"syscall_operand_bytes_hex"`
	} `json:"interop_syscalls"`
}

func TestKeyVectors(t *testing.T) {
	var f contractsFile
	loadJSON(t, "contracts_addresses.json", &f)
	if len(f.Keys) == 0 {
		t.Fatal("no key vectors")
	}
	for i, v := range f.Keys {
		t.Run(v.Address, func(t *testing.T) {
			t.Parallel() // scrypt (N=16384, r=8, p=8) dominates
			k, err := keys.NewPrivateKeyFromHex(v.Priv)
			if err != nil {
				t.Fatal(err)
			}
			if got := k.PublicKey().StringCompressed(); got != v.Pub {
				t.Errorf("public key %s, want %s", got, v.Pub)
			}
			if got := k.WIF(); got != v.WIF {
				t.Errorf("WIF %s, want %s", got, v.WIF)
			}
			kw, err := keys.NewPrivateKeyFromWIF(v.WIF)
			if err != nil {
				t.Fatal(err)
			}
			if hex.EncodeToString(kw.Bytes()) != v.Priv {
				t.Errorf("WIF decodes to %x", kw.Bytes())
			}
			if got := hex.EncodeToString(k.PublicKey().VerificationScript()); got != v.Verification {
				t.Errorf("verification script %s, want %s", got, v.Verification)
			}
			if got := k.ScriptHash().String(); got != v.ScriptHash {
				t.Errorf("script hash %s, want %s", got, v.ScriptHash)
			}
			if got := k.Address(); got != v.Address {
				t.Errorf("address %s, want %s", got, v.Address)
			}
			if testing.Short() {
				return
			}
			dec, err := keys.NEP2Decrypt(v.NEP2, v.Passphrase, keys.NEP2ScryptParams())
			if err != nil {
				t.Fatal(err)
			}
			if hex.EncodeToString(dec.Bytes()) != v.Priv {
				t.Errorf("NEP-2 decrypts to %x", dec.Bytes())
			}
			if i > 0 {
				return // encryption is deterministic; one vector checks it
			}
			enc, err := keys.NEP2Encrypt(k, v.Passphrase, keys.NEP2ScryptParams())
			if err != nil {
				t.Fatal(err)
			}
			if enc != v.NEP2 {
				t.Errorf("NEP-2 %s, want %s", enc, v.NEP2)
			}
		})
	}
}

func TestNEP2WrongPassphrase(t *testing.T) {
	var f contractsFile
	loadJSON(t, "contracts_addresses.json", &f)
	// Cheap parameters keep the test fast; the format is the same.
	p := keys.ScryptParams{N: 2, R: 1, P: 1}
	k, err := keys.NewPrivateKeyFromHex(f.Keys[0].Priv)
	if err != nil {
		t.Fatal(err)
	}
	enc, err := keys.NEP2Encrypt(k, "right", p)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := keys.NEP2Decrypt(enc, "wrong", p); err == nil {
		t.Fatal("wrong passphrase accepted")
	}
	d, err := keys.NEP2Decrypt(enc, "right", p)
	if err != nil || d.Address() != k.Address() {
		t.Fatalf("round trip: %v", err)
	}
	for _, bad := range []string{"", "6PYUUUFei9PBBfVkSn8q7hFCnewWFRBKPxcn6Kz6Bmk3FqWyLyuTQE2XF", f.Keys[0].WIF} {
		if _, err := keys.NEP2Decrypt(bad, "x", p); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestAddressVectors(t *testing.T) {
	var f contractsFile
	loadJSON(t, "contracts_addresses.json", &f)
	if len(f.Addresses) == 0 || len(f.Invalid) == 0 {
		t.Fatal("no address vectors")
	}
	for _, v := range f.Addresses {
		u, err := hash.Uint160DecodeStringLE(v.ScriptHash)
		if err != nil {
			t.Fatal(err)
		}
		if got := address.FromUint160(u); got != v.Address {
			t.Errorf("%s: address %s, want %s", v.ScriptHash, got, v.Address)
		}
		back, err := address.ToUint160(v.Address)
		if err != nil || back != u {
			t.Errorf("%s: decodes to %s, %v", v.Address, back, err)
		}
	}
	for _, v := range f.Invalid {
		if _, err := address.ToUint160(v.Input); err == nil {
			t.Errorf("invalid address %q accepted", v.Input)
		}
	}
}

func TestCheckSigSyscallID(t *testing.T) {
	var f contractsFile
	loadJSON(t, "contracts_addresses.json", &f)
	found := false
	for _, s := range f.Syscalls {
		if s.Name == "System.Crypto.CheckSig" {
			found = true
			if got := hex.EncodeToString(keys.CheckSigSyscall[:]); got != s.Operand {
				t.Errorf("CheckSig operand %s, want %s", got, s.Operand)
			}
		}
	}
	if !found {
		t.Fatal("CheckSig not in vectors")
	}
}

type genesisFile struct {
	Networks map[string]struct {
		Validators []string `json:"standby_validators"`
		Sorted     []string `json:"standby_validators_sorted"`
		Committee  []string `json:"standby_committee"`
	} `json:"networks"`
}

func TestValidatorOrdering(t *testing.T) {
	var g genesisFile
	loadJSON(t, "genesis.json", &g)
	if len(g.Networks) == 0 {
		t.Fatal("no networks")
	}
	for name, n := range g.Networks {
		var ks []*keys.PublicKey
		for _, s := range n.Validators {
			k, err := keys.NewPublicKeyFromString(s)
			if err != nil {
				t.Fatal(err)
			}
			ks = append(ks, k)
		}
		keys.SortPublicKeys(ks)
		for i, k := range ks {
			if k.StringCompressed() != n.Sorted[i] {
				t.Errorf("%s: sorted[%d] = %s, want %s", name, i, k, n.Sorted[i])
			}
		}
		for _, s := range n.Committee {
			if _, err := keys.NewPublicKeyFromString(s); err != nil {
				t.Errorf("%s: committee key %s: %v", name, s, err)
			}
		}
	}
}

type txFile struct {
	Vectors []struct {
		Name     string   `json:"name"`
		SignData string   `json:"sign_data_hex"`
		Keys     []string `json:"verified_signer_keys_in_invocation_order"`
		JSON     struct {
			Witnesses []struct {
				Invocation []byte `json:"invocation"`
			} `json:"witnesses"`
		} `json:"json"`
	} `json:"vectors"`
}

// TestMainNetBlock1Signatures verifies the five consensus signatures of
// MainNet block 1 over magic || hash.
func TestMainNetBlock1Signatures(t *testing.T) {
	var f txFile
	loadJSON(t, "transactions_blocks.json", &f)
	n := 0
	for _, v := range f.Vectors {
		if v.Name != "mainnet_block_1" {
			continue
		}
		msg := unhex(t, v.SignData)
		inv := v.JSON.Witnesses[0].Invocation
		for i, ks := range v.Keys {
			// Each signature is PUSHDATA1 0x40 <64 bytes>.
			sig := inv[i*66+2 : i*66+66]
			k, err := keys.NewPublicKeyFromString(ks)
			if err != nil {
				t.Fatal(err)
			}
			if !k.VerifyMessage(sig, msg) {
				t.Errorf("signature %d does not verify", i)
			}
			bad := append([]byte(nil), msg...)
			bad[0] ^= 1
			if k.VerifyMessage(sig, bad) {
				t.Errorf("signature %d verifies a different message", i)
			}
			n++
		}
	}
	if n != 5 {
		t.Fatalf("checked %d signatures, want 5", n)
	}
}

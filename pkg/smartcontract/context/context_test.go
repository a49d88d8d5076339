package context

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"math/big"
	"os"
	"slices"
	"strings"
	"testing"

	nio "github.com/n3node/n3node/pkg/io"

	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/wallet"
)

const magic = 860833102

func newKeys(t *testing.T, n int) ([]*keys.PrivateKey, []*keys.PublicKey) {
	t.Helper()
	privs := make([]*keys.PrivateKey, n)
	pubs := make([]*keys.PublicKey, n)
	for i := range privs {
		k, err := keys.NewPrivateKey()
		if err != nil {
			t.Fatal(err)
		}
		privs[i], pubs[i] = k, k.PublicKey()
	}
	return privs, pubs
}

// roundTrip sends the context "to another machine".
func roundTrip(t *testing.T, c *ParameterContext) *ParameterContext {
	t.Helper()
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	var r ParameterContext
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	b2, err := json.Marshal(&r)
	if err != nil || !bytes.Equal(b, b2) {
		t.Fatalf("unstable JSON:\n%s\n%s", b, b2)
	}
	return &r
}

// checkMultisigWitness verifies w as CheckMultisig would: signatures in
// key order, each valid for a later key than the previous one.
func checkMultisigWitness(t *testing.T, w *transaction.Witness, tx *transaction.Transaction) {
	t.Helper()
	m, pubs, ok := smartcontract.ParseMultiSigContract(w.VerificationScript)
	if !ok {
		t.Fatal("not a multisig script")
	}
	sigs, ok := smartcontract.ParseMultiSigInvocation(m, w.InvocationScript)
	if !ok {
		t.Fatalf("invocation %x", w.InvocationScript)
	}
	msg := tx.SignData(magic)
	k := 0
	for _, s := range sigs {
		for k < len(pubs) && !pubs[k].VerifyMessage(s, msg[:]) {
			k++
		}
		if k == len(pubs) {
			t.Fatal("signatures out of key order or invalid")
		}
		k++
	}
}

func TestMultisigAcrossMachines(t *testing.T) {
	privs, pubs := newKeys(t, 4)
	// Every holder has the 3-of-4 account in its own wallet.
	accs := make([]*wallet.Account, 4)
	for i := range privs {
		a, err := wallet.NewMultisigAccount(privs[i], 3, pubs)
		if err != nil {
			t.Fatal(err)
		}
		accs[i] = a
	}
	single, err := wallet.NewAccount()
	if err != nil {
		t.Fatal(err)
	}
	tx := transaction.New([]byte{0x11}, 42, 100, 200, 1000)
	tx.Signers = []transaction.Signer{
		{Account: accs[0].ScriptHash(), Scopes: transaction.CalledByEntry},
		{Account: single.ScriptHash(), Scopes: transaction.CalledByEntry},
	}
	c := NewParameterContext(magic, tx)
	for n, i := range []int{3, 0, 2} { // signing order differs from key order
		c = roundTrip(t, c)
		if c.IsComplete() {
			t.Fatalf("complete after %d signatures", n)
		}
		if err := c.Sign(accs[i]); err != nil {
			t.Fatal(err)
		}
		if err := c.Sign(accs[i]); !errors.Is(err, ErrAlreadySigned) {
			t.Fatalf("twice: %v", err)
		}
	}
	c = roundTrip(t, c)
	if c.IsComplete() {
		t.Fatal("complete without the single signer")
	}
	if _, err := c.GetCompleteTransaction(); !errors.Is(err, ErrWitnessNotFound) {
		t.Fatal(err)
	}
	if err := c.Sign(single); err != nil {
		t.Fatal(err)
	}
	c = roundTrip(t, c)
	if !c.IsComplete() {
		t.Fatal("not complete")
	}
	done, err := c.GetCompleteTransaction()
	if err != nil {
		t.Fatal(err)
	}
	if done.Hash() != tx.Hash() || len(done.Witnesses) != 2 {
		t.Fatal("transaction")
	}
	checkMultisigWitness(t, &done.Witnesses[0], done)
	sig, ok := smartcontract.ParseSignatureInvocation(done.Witnesses[1].InvocationScript)
	msg := done.SignData(magic)
	if !ok || !single.PublicKey().VerifyMessage(sig, msg[:]) || !bytes.Equal(done.Witnesses[1].VerificationScript, single.Contract.Script) {
		t.Fatal("single witness")
	}
	// The fourth key arriving late changes nothing.
	if err := c.Sign(accs[1]); err != nil {
		t.Fatal(err)
	}
	done2, err := c.GetCompleteTransaction()
	if err != nil {
		t.Fatal(err)
	}
	checkMultisigWitness(t, &done2.Witnesses[0], done2)
	// The complete transaction decodes as a whole.
	if _, err := transaction.NewTransactionFromBytes(done2.Bytes()); err != nil {
		t.Fatal(err)
	}
}

func TestAddSignatureErrors(t *testing.T) {
	privs, pubs := newKeys(t, 3)
	acc, _ := wallet.NewMultisigAccount(privs[0], 2, pubs[:2])
	tx := transaction.New([]byte{0x11}, 1, 0, 0, 10)
	tx.Signers = []transaction.Signer{{Account: acc.ScriptHash()}}
	c := NewParameterContext(magic, tx)
	sig := privs[2].Sign([]byte("x"))
	if err := c.AddSignature(acc.ScriptHash(), acc.Contract, pubs[2], sig); !errors.Is(err, ErrKeyNotInScript) {
		t.Fatal(err)
	}
	stranger, _ := wallet.NewAccount()
	if err := c.Sign(stranger); !errors.Is(err, ErrNotSigner) {
		t.Fatal(err)
	}
	stranger.Close()
	if err := c.Sign(stranger); !errors.Is(err, ErrCannotSign) {
		t.Fatal(err)
	}
	if _, err := c.GetWitness(hash.Uint160{1}); !errors.Is(err, ErrWitnessNotFound) {
		t.Fatal(err)
	}
	if err := c.Sign(acc); err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetWitness(acc.ScriptHash()); !errors.Is(err, ErrNotSigned) {
		t.Fatal(err)
	}
	// Two signature parameters in a non-multisig contract.
	odd := &wallet.Contract{Script: []byte{0x40}, Parameters: []wallet.ContractParam{
		{Type: smartcontract.SignatureType}, {Type: smartcontract.SignatureType}}}
	if err := c.AddSignature(hash.Hash160(odd.Script), odd, pubs[0], sig); !errors.Is(err, ErrManySignatures) {
		t.Fatal(err)
	}
	none := &wallet.Contract{Script: []byte{0x40}, Parameters: []wallet.ContractParam{{Type: smartcontract.IntegerType}}}
	tx.Signers = append(tx.Signers, transaction.Signer{Account: hash.Hash160(none.Script)})
	if err := c.AddSignature(hash.Hash160(none.Script), none, pubs[0], sig); !errors.Is(err, ErrNoSignatureParam) {
		t.Fatal(err)
	}
}

func TestDeployedContractParameters(t *testing.T) {
	h := hash.Uint160{5}
	ctr := &wallet.Contract{Deployed: true, Parameters: []wallet.ContractParam{
		{Name: "a", Type: smartcontract.IntegerType}, {Name: "b", Type: smartcontract.BoolType},
		{Name: "c", Type: smartcontract.StringType}, {Name: "d", Type: smartcontract.ByteArrayType}}}
	tx := transaction.New([]byte{0x11}, 1, 0, 0, 10)
	tx.Signers = []transaction.Signer{{Account: h}}
	c := NewParameterContext(magic, tx)
	err := c.Add(h, ctr,
		smartcontract.NewIntParameter(-129),
		smartcontract.NewBoolParameter(true),
		smartcontract.NewStringParameter("hi"),
		smartcontract.NewBytesParameter([]byte{1, 2}))
	if err != nil {
		t.Fatal(err)
	}
	c = roundTrip(t, c)
	w, err := c.GetWitness(h)
	if err != nil {
		t.Fatal(err)
	}
	// Pushed last to first: bytes, string, true, -129 (PUSHINT16 7f ff).
	want := "0c0201020c0268690801" + "7fff"
	if hex.EncodeToString(w.InvocationScript) != want || w.VerificationScript != nil {
		t.Fatalf("invocation %x", w.InvocationScript)
	}
}

func TestPushInt(t *testing.T) {
	for _, c := range []struct {
		v    string
		want string
	}{
		{"-1", "0f"}, {"0", "10"}, {"16", "20"}, {"17", "0011"}, {"127", "007f"}, {"128", "018000"},
		{"-128", "0080"}, {"-129", "017fff"}, {"65536", "0200000100"}, {"2147483648", "030000008000000000"},
		{"-9223372036854775808", "030000000000000080"},
		{"9223372036854775808", "0400000000000000800000000000000000"},
	} {
		v, _ := new(big.Int).SetString(c.v, 10)
		w := nio.NewBufBinWriter()
		if err := emitPush(w, smartcontract.NewBigIntParameter(v)); err != nil {
			t.Fatal(err)
		}
		if got := hex.EncodeToString(w.Bytes()); got != c.want {
			t.Errorf("%s: %s, want %s", c.v, got, c.want)
		}
	}
	big33 := `"` + new(big.Int).Lsh(big.NewInt(1), 256).String() + `"`
	var p smartcontract.Parameter
	if err := json.Unmarshal([]byte(`{"type":"Integer","value":`+big33+`}`), &p); err == nil {
		t.Fatal("a 33-byte integer accepted")
	}
}

func TestCSharpContext(t *testing.T) {
	// A context written by C# (from neo-go's tests): 4 of 11 signatures.
	data, err := os.ReadFile("testdata/csharp_context.json")
	if err != nil {
		t.Fatal(err)
	}
	var c ParameterContext
	if err := json.Unmarshal(data, &c); err != nil {
		t.Fatal(err)
	}
	if c.Network != 877933390 || c.Tx.Hash().StringLE() != "71b519998f41bbc1d37e383e01e2e6efe84d65abf3c7279820cc7c63daa29448" {
		t.Fatal("header")
	}
	h, _ := hash.Uint160DecodeStringLE("39a4bf76564eee64695f95d270ae2b4552e83b41")
	it := c.Items[h]
	if it == nil || len(it.Parameters) != 11 || len(it.Signatures) != 4 || hash.Hash160(it.Script) != h || c.IsComplete() {
		t.Fatal("item")
	}
	msg := c.Tx.SignData(c.Network)
	for pk, sig := range it.Signatures {
		pub, err := keys.NewPublicKeyFromString(pk)
		if err != nil || !pub.VerifyMessage(sig, msg[:]) {
			t.Fatalf("signature of %s does not verify", pk)
		}
	}
	out, err := json.Marshal(&c)
	if err != nil {
		t.Fatal(err)
	}
	var back ParameterContext
	if err := json.Unmarshal(out, &back); err != nil || back.Tx.Hash() != c.Tx.Hash() {
		t.Fatal(err)
	}
}

func TestCSharpUnitVectors(t *testing.T) {
	// C# UT_ContractParameterContext.TestToString / TestParse.
	const data = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAFmUJDLobcPtqo9vZKIdjXsd8fVGwEAARI="
	js := `{"type":"Neo.Network.P2P.Payloads.Transaction","data":"` + data + `","items":{"0xbecaad15c0ea585211faf99738a4354014f177f2":{"script":"IQJv8DuUkkHOHa3UNRnmlg4KhbQaaaBcMoEDqivOFZTKFmh0dHaq","parameters":[{"type":"Signature","value":"AQ=="}],"signatures":{"03b209fd4f53a7170ea4444e0cb0a6bb6a53c2bd016926989cf85f9b0fba17a70c":"AQ=="}}},"network":5195086}`
	var c ParameterContext
	if err := json.Unmarshal([]byte(js), &c); err != nil {
		t.Fatal(err)
	}
	if c.Tx.Hash().String() != "0x602c1fa1c08b041e4e6b87aa9a9f9c643166cd34bdd5215a3dd85778c59cce88" ||
		c.ScriptHashes()[0].String() != "0x1bd5c777ec35768892bd3daab60fb7a1cb905066" || !bytes.Equal(c.Tx.Script, []byte{0x12}) {
		t.Fatal("decoded differently")
	}
	// Our form: neo-go's field order, C#'s content.
	empty := NewParameterContext(5195086, c.Tx)
	out, _ := json.Marshal(empty)
	want := `{"type":"Neo.Network.P2P.Payloads.Transaction","network":5195086,"hash":"0x602c1fa1c08b041e4e6b87aa9a9f9c643166cd34bdd5215a3dd85778c59cce88","data":"` + data + `","items":{}}`
	if string(out) != want {
		t.Fatalf("%s", out)
	}
}

func TestBadContexts(t *testing.T) {
	good, _ := os.ReadFile("testdata/csharp_context.json")
	for name, js := range map[string]string{
		"wrong type":     strings.Replace(string(good), "Neo.Network.P2P.Payloads.Transaction", "wrongType", 1),
		"hash mismatch":  strings.Replace(string(good), "0x71b5", "0x71b6", 1),
		"bad data":       `{"type":"Neo.Network.P2P.Payloads.Transaction","data":"AAA=","items":{}}`,
		"bad item key":   strings.Replace(string(good), "0x39a4bf", "0xzz", 1),
		"bad value":      strings.Replace(string(good), `[{"type":"Signature"}`, `[{"type":"Signature","value":"%%"}`, 1),
		"bad param type": strings.Replace(string(good), `[{"type":"Signature"}`, `[{"type":"Nope"}`, 1),
		"bad sig key":    strings.Replace(string(good), `"03650a68`, `"zz650a68`, 1),
		"not json":       `{`,
	} {
		var c ParameterContext
		if err := json.Unmarshal([]byte(js), &c); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// TestParameterJSON: item parameters read and write neo-go's forms
// (an integer comes out as a decimal string, as neo-go writes it), a
// parameter without a value is not set, and parameters cannot nest
// without limit in a context file.
func TestParameterJSON(t *testing.T) {
	for _, c := range []struct{ in, out string }{
		{`{"type":"Signature"}`, ""},
		{`{"type":"Signature","value":"AQI="}`, ""},
		{`{"type":"PublicKey","value":"0102"}`, ""},
		{`{"type":"Integer","value":"123"}`, ""},
		{`{"type":"Integer","value":-5}`, `{"type":"Integer","value":"-5"}`},
		{`{"type":"Boolean","value":false}`, ""},
		{`{"type":"Hash160","value":"0x1bd5c777ec35768892bd3daab60fb7a1cb905066"}`, ""},
		{`{"type":"Array","value":[{"type":"String","value":"a"},{"type":"Array","value":[]}]}`, ""},
		{`{"type":"Map","value":[{"key":{"type":"String","value":"k"},"value":{"type":"Integer","value":"1"}}]}`, ""},
	} {
		var p smartcontract.Parameter
		if err := json.Unmarshal([]byte(c.in), &p); err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		want := c.out
		if want == "" {
			want = c.in
		}
		out, err := json.Marshal(p)
		if err != nil || string(out) != want {
			t.Fatalf("%s -> %s, %v", c.in, out, err)
		}
	}
	var p smartcontract.Parameter
	if err := json.Unmarshal([]byte(`{"type":"Any","value":"x"}`), &p); err != nil || p.Value != nil {
		t.Fatal("Any keeps no value")
	}
	good, _ := os.ReadFile("testdata/csharp_context.json")
	deep := strings.Repeat(`{"type":"Array","value":[`, 40) + strings.Repeat(`]}`, 40)
	js := strings.Replace(string(good), `[{"type":"Signature"}`, `[`+deep, 1)
	var ctx ParameterContext
	if err := json.Unmarshal([]byte(js), &ctx); !errors.Is(err, ErrInvalidParameter) {
		t.Fatalf("deep nesting accepted: %v", err)
	}
	sig := []byte{1, 2, 3}
	b, _ := json.Marshal(smartcontract.NewSignatureParameter(sig))
	if !strings.Contains(string(b), base64.StdEncoding.EncodeToString(sig)) || !slices.Equal(sig, []byte{1, 2, 3}) {
		t.Fatal(string(b))
	}
}

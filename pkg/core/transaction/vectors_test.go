package transaction_test

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/n3node/n3node/pkg/core/transaction"
	nio "github.com/n3node/n3node/pkg/io"
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

type txFields struct {
	Version uint8  `json:"version"`
	Nonce   uint32 `json:"nonce"`
	SysFee  int64  `json:"sysfee"`
	NetFee  int64  `json:"netfee"`
	VUB     uint32 `json:"validuntilblock"`
	Signers []struct {
		Account string `json:"account"`
		Scopes  byte   `json:"scopes"`
	} `json:"signers"`
	Attributes []json.RawMessage `json:"attributes"`
	Script     string            `json:"script"`
	Witnesses  []struct {
		Invocation   string `json:"invocation"`
		Verification string `json:"verification"`
	} `json:"witnesses"`
}

type vector struct {
	Name     string   `json:"name"`
	Kind     string   `json:"kind"`
	RawHex   string   `json:"raw_hex"`
	Hash     string   `json:"hash"`
	Size     int      `json:"size"`
	Unsigned string   `json:"unsigned_hex"`
	Fields   txFields `json:"fields"`
	JSONLit  struct {
		Script string `json:"script"`
		SysFee string `json:"sysfee"`
		NetFee string `json:"netfee"`
	} `json:"json_literals"`
	Expected string `json:"expected"`
}

type vectorsFile struct {
	Vectors []vector `json:"vectors"`
	Signers []struct {
		Case     string `json:"case"`
		Hex      string `json:"hex"`
		Expected string `json:"expected"`
	} `json:"signers"`
}

// CheckFields compares a decoded transaction with the vector fields.
func checkFields(t *testing.T, tx *transaction.Transaction, f txFields) {
	t.Helper()
	if tx.Version != f.Version || tx.Nonce != f.Nonce || tx.SystemFee != f.SysFee ||
		tx.NetworkFee != f.NetFee || tx.ValidUntilBlock != f.VUB {
		t.Errorf("fixed fields %d %d %d %d %d", tx.Version, tx.Nonce, tx.SystemFee, tx.NetworkFee, tx.ValidUntilBlock)
	}
	if len(tx.Signers) != len(f.Signers) || len(tx.Attributes) != len(f.Attributes) || len(tx.Witnesses) != len(f.Witnesses) {
		t.Fatalf("counts %d %d %d", len(tx.Signers), len(tx.Attributes), len(tx.Witnesses))
	}
	for i, s := range f.Signers {
		if tx.Signers[i].Account.String() != s.Account || byte(tx.Signers[i].Scopes) != s.Scopes {
			t.Errorf("signer %d: %s %s", i, tx.Signers[i].Account, tx.Signers[i].Scopes)
		}
	}
	if hex.EncodeToString(tx.Script) != f.Script {
		t.Errorf("script %x", tx.Script)
	}
	for i, w := range f.Witnesses {
		if hex.EncodeToString(tx.Witnesses[i].InvocationScript) != w.Invocation ||
			hex.EncodeToString(tx.Witnesses[i].VerificationScript) != w.Verification {
			t.Errorf("witness %d", i)
		}
	}
}

func TestTransactionVectors(t *testing.T) {
	var f vectorsFile
	loadJSON(t, "transactions_blocks.json", &f)
	ran, failed := 0, 0
	for _, v := range f.Vectors {
		switch v.Kind {
		case "transaction":
			t.Run(v.Name, func(t *testing.T) {
				raw := unhex(t, v.RawHex)
				tx, err := transaction.NewTransactionFromBytes(raw)
				if err != nil {
					t.Fatal(err)
				}
				checkFields(t, tx, v.Fields)
				if tx.Hash().String() != v.Hash {
					t.Errorf("hash %s, want %s", tx.Hash(), v.Hash)
				}
				if tx.Size() != v.Size || len(raw) != v.Size {
					t.Errorf("size %d, want %d", tx.Size(), v.Size)
				}
				if !bytes.Equal(tx.Bytes(), raw) {
					t.Errorf("re-encoding differs")
				}
				if v.Unsigned != "" {
					u, err := tx.EncodeHashableFields()
					if err != nil || hex.EncodeToString(u) != v.Unsigned {
						t.Errorf("unsigned part %x", u)
					}
				}
				// A copy recomputes the same hash from the fields.
				if cp := tx.Copy(); cp.Hash() != tx.Hash() || cp.Size() != tx.Size() {
					t.Errorf("copy hash %s", cp.Hash())
				}
				// DecodeBinary path.
				var tx2 transaction.Transaction
				if err := nio.FromBytes(raw, &tx2); err != nil || tx2.Hash() != tx.Hash() {
					t.Errorf("DecodeBinary: %v", err)
				}
				js, err := json.Marshal(tx)
				if err != nil {
					t.Fatal(err)
				}
				var m map[string]any
				if err := json.Unmarshal(js, &m); err != nil {
					t.Fatal(err)
				}
				if m["hash"] != v.Hash || m["size"] != float64(v.Size) {
					t.Errorf("JSON %s", js)
				}
				if v.JSONLit.Script != "" && (m["script"] != v.JSONLit.Script || m["sysfee"] != v.JSONLit.SysFee || m["netfee"] != v.JSONLit.NetFee) {
					t.Errorf("JSON literals: %s", js)
				}
				if m["script"] != base64.StdEncoding.EncodeToString(tx.Script) {
					t.Errorf("JSON script")
				}
				var back transaction.Transaction
				if err := json.Unmarshal(js, &back); err != nil {
					t.Fatalf("JSON decode: %v\n%s", err, js)
				}
				if back.Hash() != tx.Hash() || !bytes.Equal(back.Bytes(), raw) {
					t.Errorf("JSON round trip differs")
				}
			})
			ran++
		case "transaction_invalid":
			t.Run(v.Name, func(t *testing.T) {
				raw := unhex(t, v.RawHex)
				if _, err := transaction.NewTransactionFromBytes(raw); err == nil {
					t.Fatalf("decoded; want failure: %s", v.Expected)
				} else {
					t.Log(err)
				}
				var tx transaction.Transaction
				if err := nio.FromBytes(raw, &tx); err == nil {
					t.Fatal("DecodeBinary accepted it")
				}
			})
			failed++
		}
	}
	if ran < 3 || failed < 3 {
		t.Fatalf("ran %d valid and %d invalid vectors", ran, failed)
	}
}

func TestSignerVectors(t *testing.T) {
	var f vectorsFile
	loadJSON(t, "transactions_blocks.json", &f)
	if len(f.Signers) < 6 {
		t.Fatalf("%d signer vectors", len(f.Signers))
	}
	for _, v := range f.Signers {
		raw := unhex(t, v.Hex)
		var s transaction.Signer
		err := nio.FromBytes(raw, &s)
		if v.Expected == "ok" {
			if err != nil {
				t.Errorf("%s: %v", v.Case, err)
				continue
			}
			w := nio.NewBufBinWriter()
			s.EncodeBinary(w)
			if !bytes.Equal(w.Bytes(), raw) || s.Size() != len(raw) {
				t.Errorf("%s: re-encoding %x", v.Case, w.Bytes())
			}
			js, err := json.Marshal(&s)
			if err != nil {
				t.Fatal(err)
			}
			var back transaction.Signer
			if err := json.Unmarshal(js, &back); err != nil {
				t.Errorf("%s: JSON %s: %v", v.Case, js, err)
			}
			w.Reset()
			back.EncodeBinary(w)
			if !bytes.Equal(w.Bytes(), raw) {
				t.Errorf("%s: JSON round trip %s", v.Case, js)
			}
		} else if err == nil {
			t.Errorf("%s: decoded; want failure", v.Case)
		}
	}
}

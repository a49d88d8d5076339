package transaction_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/n3node/n3node/pkg/core/transaction"
)

// TestReservedAttribute: an attribute of a reserved type (0xe0..0xff)
// decodes as neo-go 0.120.0 decodes it (var-bytes value), re-encodes to the
// same bytes and prints neo-go's JSON ({"type":"AttrType(224)","value":
// base64}); whether a transaction may carry one is the ledger's check
// (ProtocolConfiguration.ReservedAttributes).
func TestReservedAttribute(t *testing.T) {
	raw := txBytes(0, 1, 2, oneSigner, []byte{2, 0xe0, 2, 0xab, 0xcd, 0xff, 0}, script, oneWitness)
	tx, err := transaction.NewTransactionFromBytes(raw)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(tx.Bytes(), raw) {
		t.Fatal("re-encoding differs")
	}
	if len(tx.Attributes) != 2 || !tx.Attributes[0].Type.IsReserved() || tx.Attributes[1].Type != transaction.ReservedUpperBound {
		t.Fatalf("attributes %+v", tx.Attributes)
	}
	got, err := json.Marshal(tx.Attributes)
	if err != nil {
		t.Fatal(err)
	}
	if want := `[{"type":"AttrType(224)","value":"q80="},{"type":"AttrType(255)","value":""}]`; string(got) != want {
		t.Fatalf("JSON %s, want %s", got, want)
	}
	cp := tx.Attributes[0].Copy()
	cp.Value.(*transaction.Reserved).Value[0] = 0
	if tx.Attributes[0].Value.(*transaction.Reserved).Value[0] != 0xab {
		t.Fatal("Copy shares the value")
	}
}

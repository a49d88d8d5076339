package nep11_test

// Differential tests of pkg/rpcclient/nep11 against neo-go 0.120.0.

import (
	"bytes"
	"math/big"
	"testing"

	ngsc "github.com/nspcc-dev/neo-go/pkg/smartcontract"
	ngutil "github.com/nspcc-dev/neo-go/pkg/util"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/rpcclient/nep11"
)

// TestTransferScriptsNeoGo checks the transfer scripts against neo-go's
// builder (InvokeWithAssert of transfer).
func TestTransferScriptsNeoGo(t *testing.T) {
	tok, from, to := hash.Uint160{9, 9}, hash.Uint160{1}, hash.Uint160{2}
	id := []byte{0xaa, 0xbb}
	got, err := nep11.TransferScript(tok, to, id, "data")
	if err != nil {
		t.Fatal(err)
	}
	b := ngsc.NewBuilder()
	b.InvokeWithAssert(ngutil.Uint160(tok), "transfer", ngutil.Uint160(to), id, "data")
	if want, _ := b.Script(); !bytes.Equal(got, want) {
		t.Errorf("non-divisible\n got %x\nwant %x", got, want)
	}
	got, err = nep11.TransferDScript(tok, from, to, big.NewInt(5), id, nil)
	if err != nil {
		t.Fatal(err)
	}
	b = ngsc.NewBuilder()
	b.InvokeWithAssert(ngutil.Uint160(tok), "transfer", ngutil.Uint160(from), ngutil.Uint160(to), big.NewInt(5), id, nil)
	if want, _ := b.Script(); !bytes.Equal(got, want) {
		t.Errorf("divisible\n got %x\nwant %x", got, want)
	}
}

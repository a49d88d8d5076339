package nep17_test

// Differential tests against neo-go 0.120.0 (test-only import).

import (
	"bytes"
	"math/big"
	"testing"

	ngsc "github.com/nspcc-dev/neo-go/pkg/smartcontract"
	ngutil "github.com/nspcc-dev/neo-go/pkg/util"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/rpcclient/nep17"
)

// TestTransferScriptNeoGo checks the script bytes against neo-go's nep17
// MultiTransfer script (InvokeWithAssert of transfer per recipient).
func TestTransferScriptNeoGo(t *testing.T) {
	from := hash.Uint160{1, 2, 3, 0xff}
	to := hash.Uint160{4, 5, 6}
	ts := []nep17.Transfer{
		{Token: nep17.GAS.Hash, From: from, To: to, Amount: big.NewInt(150000000)},
		{Token: nep17.NEO.Hash, From: from, To: to, Amount: big.NewInt(7), Data: []byte{0xaa}},
		{Token: nep17.GAS.Hash, From: to, To: from, Amount: new(big.Int).Lsh(big.NewInt(1), 70), Data: "text"},
		{Token: nep17.GAS.Hash, From: to, To: from, Amount: big.NewInt(-1), Data: big.NewInt(1000)},
	}
	got, err := nep17.TransferScript(ts...)
	if err != nil {
		t.Fatal(err)
	}
	b := ngsc.NewBuilder()
	for _, tr := range ts {
		b.InvokeWithAssert(ngutil.Uint160(tr.Token), "transfer", ngutil.Uint160(tr.From), ngutil.Uint160(tr.To), tr.Amount, tr.Data)
	}
	want, err := b.Script()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("script\n got %x\nwant %x", got, want)
	}
}

package rpctest

import (
	"testing"

	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/vm/emit"
	"github.com/n3node/n3node/pkg/vm/opcode"

	nio "github.com/n3node/n3node/pkg/io"
)

func key(t *testing.T, seed byte) *keys.PrivateKey {
	b := make([]byte, 32)
	for i := range b {
		b[i] = seed + byte(i)
	}
	k, err := keys.NewPrivateKeyFromBytes(b)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func invocation(t *testing.T, sigs ...[]byte) []byte {
	s, err := emit.Script(func(w *nio.BinWriter) {
		for _, sig := range sigs {
			emit.Bytes(w, sig)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestCheckWitnesses: the fake node must refuse what a real one refuses,
// or the CLI tests would prove nothing about signatures.
func TestCheckWitnesses(t *testing.T) {
	const magic = 42
	k1, k2, k3 := key(t, 1), key(t, 2), key(t, 3)
	pubs := []*keys.PublicKey{k1.PublicKey(), k2.PublicKey(), k3.PublicKey()}
	ms, err := smartcontract.CreateMultiSigRedeemScript(2, pubs)
	if err != nil {
		t.Fatal(err)
	}
	_, sorted, _ := smartcontract.ParseMultiSigContract(ms)
	byPub := map[string]*keys.PrivateKey{}
	for _, k := range []*keys.PrivateKey{k1, k2, k3} {
		byPub[k.PublicKey().StringCompressed()] = k
	}
	single := k1.PublicKey().VerificationScript()
	mk := func() *transaction.Transaction {
		tx := transaction.New([]byte{byte(opcode.RET)}, 1, 0, 0, 100)
		tx.Signers = []transaction.Signer{{Account: k1.ScriptHash()}, {Account: hash.Hash160(ms)}}
		return tx
	}
	tx := mk()
	sd := tx.SignData(magic)
	sign := func(k *keys.PrivateKey) []byte { return k.Sign(sd[:]) }
	first, second := byPub[sorted[0].StringCompressed()], byPub[sorted[1].StringCompressed()]
	tx.Witnesses = []transaction.Witness{
		{InvocationScript: invocation(t, sign(k1)), VerificationScript: single},
		{InvocationScript: invocation(t, sign(first), sign(second)), VerificationScript: ms},
	}
	if err := CheckWitnesses(tx, magic); err != nil {
		t.Fatalf("valid witnesses: %v", err)
	}
	bad := []struct {
		name string
		ws   []transaction.Witness
	}{
		{"wrong key", []transaction.Witness{
			{InvocationScript: invocation(t, sign(k2)), VerificationScript: single}, tx.Witnesses[1]}},
		{"multisig out of order", []transaction.Witness{tx.Witnesses[0],
			{InvocationScript: invocation(t, sign(second), sign(first)), VerificationScript: ms}}},
		{"multisig one signature", []transaction.Witness{tx.Witnesses[0],
			{InvocationScript: invocation(t, sign(first)), VerificationScript: ms}}},
		{"swapped scripts", []transaction.Witness{tx.Witnesses[1], tx.Witnesses[0]}},
		{"missing witness", tx.Witnesses[:1]},
	}
	for _, b := range bad {
		tx2 := mk()
		tx2.Witnesses = b.ws
		if err := CheckWitnesses(tx2, magic); err == nil {
			t.Errorf("%s: accepted", b.name)
		}
	}
	if err := CheckWitnesses(tx, magic+1); err == nil {
		t.Error("signatures of another network accepted")
	}
}

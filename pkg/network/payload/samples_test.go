package payload_test

import (
	"bytes"
	"net/netip"
	"testing"

	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/network/capability"
	"github.com/n3node/n3node/pkg/network/internal/fakechain"
	"github.com/n3node/n3node/pkg/network/payload"
)

func hashes(n int) []hash.Uint256 {
	hs := make([]hash.Uint256, n)
	for i := range hs {
		hs[i] = hash.Sha256([]byte{byte(i), byte(i >> 8)})
	}
	return hs
}

func sampleVersion() *payload.Version {
	return &payload.Version{
		Magic: 860833102, Timestamp: 1700000000, Nonce: 0xdeadbeef, UserAgent: "/n3node:0.1.0/",
		Capabilities: capability.Capabilities{capability.NewTCPServer(10333), capability.NewFullNode(42), {Type: capability.ArchivalNode}},
	}
}

func sampleAddrs() *payload.AddressList {
	return &payload.AddressList{Addrs: []payload.AddressAndTime{
		payload.NewAddressAndTime(netip.MustParseAddr("10.0.0.1"), 1700000000, capability.Capabilities{capability.NewTCPServer(20333)}),
		payload.NewAddressAndTime(netip.MustParseAddr("2001:db8::1"), 1700000001, capability.Capabilities{capability.NewTCPServer(10333), capability.NewFullNode(7)}),
	}}
}

func sampleHeaders(n int) *payload.Headers {
	chain := fakechain.Chain(n, 0)
	p := &payload.Headers{}
	for _, b := range chain {
		p.Hdrs = append(p.Hdrs, &b.Header)
	}
	return p
}

func sampleExtensible() *payload.Extensible {
	return &payload.Extensible{
		Category: payload.ConsensusCategory, ValidBlockStart: 0, ValidBlockEnd: 101,
		Sender: hash.Hash160([]byte("validator")), Data: []byte("dbft message"),
		Witness: transaction.Witness{InvocationScript: append([]byte{0x0c, 0x40}, make([]byte, 64)...), VerificationScript: bytes.Repeat([]byte{0x41}, 40)},
	}
}

func sampleMerkleBlock() *payload.MerkleBlock {
	b := fakechain.Chain(2, 3)[1]
	return &payload.MerkleBlock{Header: b.Header, TxCount: 3, Hashes: hashes(2), Flags: []byte{0x05}}
}

func sampleNotary(t testing.TB) *payload.P2PNotaryRequest {
	main := fakechain.Tx(1)
	main.Attributes = []transaction.Attribute{{Type: transaction.NotaryAssistedT, Value: &transaction.NotaryAssisted{NKeys: 2}}}
	main = decodeTx(t, main.Bytes())
	fb := fakechain.Tx(2)
	fb.Signers = []transaction.Signer{{Account: hash.Hash160([]byte("notary"))}, {Account: hash.Hash160([]byte("payer")), Scopes: transaction.None}}
	fb.Witnesses = []transaction.Witness{
		{InvocationScript: append([]byte{0x0c, 0x40}, make([]byte, 64)...)},
		{InvocationScript: []byte{1}, VerificationScript: []byte{2}},
	}
	fb.Attributes = []transaction.Attribute{
		{Type: transaction.NotValidBeforeT, Value: &transaction.NotValidBefore{Height: 5}},
		{Type: transaction.ConflictsT, Value: &transaction.Conflicts{Hash: main.Hash()}},
		{Type: transaction.NotaryAssistedT, Value: &transaction.NotaryAssisted{NKeys: 0}},
	}
	fb = decodeTx(t, fb.Bytes())
	return &payload.P2PNotaryRequest{MainTransaction: main, FallbackTransaction: fb,
		Witness: transaction.Witness{InvocationScript: []byte{3}, VerificationScript: []byte{4}}}
}

func decodeTx(t testing.TB, b []byte) *transaction.Transaction {
	t.Helper()
	tx, err := transaction.NewTransactionFromBytes(b)
	if err != nil {
		t.Fatal(err)
	}
	return tx
}

func encode(t testing.TB, v nio.Encodable) []byte {
	t.Helper()
	b, err := nio.ToBytes(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

var _ = block.MaxTransactionsPerBlock

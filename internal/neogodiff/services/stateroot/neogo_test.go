package stateroot_test

import (
	"bytes"
	"github.com/n3node/n3node/internal/stateroottest"
	"testing"

	"github.com/n3node/n3node/internal/testchain"
	coreroot "github.com/n3node/n3node/pkg/core/stateroot"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/network/payload"
	"github.com/n3node/n3node/pkg/services/stateroot"
	ngstate "github.com/nspcc-dev/neo-go/pkg/core/state"
	ngtx "github.com/nspcc-dev/neo-go/pkg/core/transaction"
	ngkeys "github.com/nspcc-dev/neo-go/pkg/crypto/keys"
	ngio "github.com/nspcc-dev/neo-go/pkg/io"
	ngpayload "github.com/nspcc-dev/neo-go/pkg/network/payload"
	ngsr "github.com/nspcc-dev/neo-go/pkg/services/stateroot"
	ngutil "github.com/nspcc-dev/neo-go/pkg/util"
	ngemit "github.com/nspcc-dev/neo-go/pkg/vm/emit"
	"github.com/stretchr/testify/require"
)

func ngKey(t *testing.T, k *keys.PrivateKey) *ngkeys.PrivateKey {
	nk, err := ngkeys.NewPrivateKeyFromBytes(k.Bytes())
	require.NoError(t, err)
	return nk
}

func ngEncode(t *testing.T, s ngio.Serializable) []byte {
	w := ngio.NewBufBinWriter()
	s.EncodeBinary(w.BinWriter)
	require.NoError(t, w.Err)
	return w.Bytes()
}

// TestMessagesNeoGo checks Vote and StateRoot messages byte for byte
// against neo-go 0.120.0's types, both ways.
func TestMessagesNeoGo(t *testing.T) {
	sig := bytes.Repeat([]byte{0x5a}, 64)
	for _, v := range []stateroot.Vote{
		{ValidatorIndex: 0, Height: 1, Signature: sig},
		{ValidatorIndex: 3, Height: 0xfffffffe, Signature: sig},
		{ValidatorIndex: -1, Height: 7, Signature: []byte{}},
	} {
		ours, err := (&stateroot.Message{Type: stateroot.VoteT, Vote: &v}).Bytes()
		require.NoError(t, err)
		theirs := ngEncode(t, ngsr.NewMessage(ngsr.VoteT, &ngsr.Vote{ValidatorIndex: v.ValidatorIndex, Height: v.Height, Signature: v.Signature}))
		require.Equal(t, theirs, ours)
		var nm ngsr.Message
		require.NoError(t, ngio.NewBinReaderFromBuf(ours).Err)
		r := ngio.NewBinReaderFromBuf(ours)
		nm.DecodeBinary(r)
		require.NoError(t, r.Err)
		nv := nm.Payload.(*ngsr.Vote)
		require.Equal(t, v.ValidatorIndex, nv.ValidatorIndex)
		require.Equal(t, v.Height, nv.Height)
		m, err := stateroot.DecodeMessage(theirs)
		require.NoError(t, err)
		require.Equal(t, v.Height, m.Vote.Height)
	}
	wit := transaction.Witness{InvocationScript: []byte{0x0c, 0x40, 1, 2}, VerificationScript: []byte{0x11, 0x41, 9}}
	for _, r := range []coreroot.Root{
		{Index: 5, RootHash: hash.Uint256{1, 2, 3}},
		{Version: 0, Index: 100500, RootHash: hash.Uint256{0xff, 31: 0xee}, Witness: []transaction.Witness{wit}},
	} {
		ours, err := (&stateroot.Message{Type: stateroot.RootT, Root: &r}).Bytes()
		require.NoError(t, err)
		nr := &ngstate.MPTRoot{Version: r.Version, Index: r.Index, Root: ngutil.Uint256(r.RootHash)}
		for _, w := range r.Witness {
			nr.Witness = append(nr.Witness, ngtx.Witness{InvocationScript: w.InvocationScript, VerificationScript: w.VerificationScript})
		}
		theirs := ngEncode(t, ngsr.NewMessage(ngsr.RootT, nr))
		require.Equal(t, theirs, ours)
		require.Equal(t, hash.Uint256(nr.Hash()), r.Hash())
		m, err := stateroot.DecodeMessage(theirs)
		require.NoError(t, err)
		back, err := m.Bytes()
		require.NoError(t, err)
		require.Equal(t, theirs, back)
	}
}

// TestSignaturesNeoGo checks what our service signs against neo-go: the
// vote signature verifies as neo-go's VerifyHashable of the root, the
// payload witness as neo-go's of the extensible payload; and a vote neo-go
// would make is accepted by our service.
func TestSignaturesNeoGo(t *testing.T) {
	c, svs := stateroottest.FourValidators(t)
	h := c.AddBlock()
	votes := append([]stateroottest.Msg(nil), c.Queue...)
	c.Queue = nil
	root, err := c.Chain(0).GetStateRoot(h)
	require.NoError(t, err)
	ngRoot := &ngstate.MPTRoot{Version: root.Version, Index: root.Index, Root: ngutil.Uint256(root.RootHash)}
	require.Len(t, votes, 4)
	for _, v := range votes {
		raw, err := nio.ToBytes(v.E)
		require.NoError(t, err)
		var ne ngpayload.Extensible
		r := ngio.NewBinReaderFromBuf(raw)
		ne.DecodeBinary(r)
		require.NoError(t, r.Err)
		require.Equal(t, raw, ngEncode(t, &ne))
		require.Equal(t, "StateService", ne.Category)
		pub := ngKey(t, svs[v.From]).PublicKey()
		require.Equal(t, ngutil.Uint160(v.E.Sender), pub.GetScriptHash())
		require.Equal(t, pub.GetVerificationScript(), ne.Witness.VerificationScript)
		require.True(t, pub.VerifyHashable(ne.Witness.InvocationScript[2:], testchain.Magic, &ne), "payload witness of %d", v.From)
		var nm ngsr.Message
		r = ngio.NewBinReaderFromBuf(ne.Data)
		nm.DecodeBinary(r)
		require.NoError(t, r.Err)
		vote := nm.Payload.(*ngsr.Vote)
		require.Equal(t, int32(v.From), vote.ValidatorIndex)
		require.True(t, pub.VerifyHashable(vote.Signature, testchain.Magic, ngRoot), "vote of %d", v.From)
	}

	// Votes made as neo-go's service makes them (validators 1..3) are
	// accepted by node 0, which is the sender of no height here but
	// collects them.
	for i := 1; i < 4; i++ {
		nk := ngKey(t, svs[i])
		sig := nk.SignHashable(testchain.Magic, ngRoot)
		w := ngio.NewBufBinWriter()
		ngsr.NewMessage(ngsr.VoteT, &ngsr.Vote{ValidatorIndex: int32(i), Height: h, Signature: sig}).EncodeBinary(w.BinWriter)
		ne := &ngpayload.Extensible{Category: ngsr.Category, ValidBlockStart: h, ValidBlockEnd: h + 10,
			Sender: nk.GetScriptHash(), Data: w.Bytes(),
			Witness: ngtx.Witness{VerificationScript: nk.PublicKey().GetVerificationScript()}}
		buf := ngio.NewBufBinWriter()
		ngemit.Bytes(buf.BinWriter, nk.SignHashable(testchain.Magic, ne))
		ne.Witness.InvocationScript = buf.Bytes()
		var e payload.Extensible
		require.NoError(t, nio.FromBytes(ngEncode(t, ne), &e))
		c.CheckPayload(&e)
		require.NoError(t, c.Nodes[0].Svc.OnPayload(&e))
	}
	st := c.Nodes[0].Svc.Stats()
	require.Equal(t, uint64(3), st.VotesAccepted)
	require.Zero(t, st.VotesRejected)
}

package message_test

import (
	"bytes"
	"testing"

	"github.com/n3node/n3node/pkg/consensus/message"
	"github.com/n3node/n3node/pkg/crypto/hash"
	nio "github.com/n3node/n3node/pkg/io"
	ngconsensus "github.com/nspcc-dev/neo-go/pkg/consensus"
	ngio "github.com/nspcc-dev/neo-go/pkg/io"
)

// benchPayloads returns signed encodings of a PrepareRequest with 512
// transaction hashes and of a 7-validator RecoveryMessage (request, 6
// responses, 7 commits, 5 change views).
func benchPayloads(b *testing.B) (req, rec []byte) {
	k := testKey(b, 1)
	hs := make([]hash.Uint256, 512)
	for i := range hs {
		hs[i] = h256(byte(i))
		hs[i][31], hs[i][30] = byte(i), byte(i>>8)
	}
	m := &message.Message{BlockIndex: 100, ValidatorIndex: 2, ViewNumber: 0, Body: &message.PrepareRequest{
		PrevHash: h256(1), Timestamp: 1_700_000_000_000, Nonce: 7, TransactionHashes: hs}}
	p := message.NewPayload(m, k.ScriptHash())
	p.Sign(testMagic, k)
	req, _ = nio.ToBytes(&p.Extensible)

	inv := bytes.Repeat([]byte{0x0c}, 66)
	rm := &message.RecoveryMessage{PrepareRequest: m}
	for i := range uint8(7) {
		if i != 2 {
			rm.Preparations = append(rm.Preparations, message.PreparationCompact{ValidatorIndex: i, InvocationScript: inv})
		}
		rm.Commits = append(rm.Commits, message.CommitCompact{ValidatorIndex: i, InvocationScript: inv})
		if i < 5 {
			rm.ChangeViews = append(rm.ChangeViews, message.ChangeViewCompact{ValidatorIndex: i, Timestamp: 5, InvocationScript: inv})
		}
	}
	rm.Preparations = append(rm.Preparations, message.PreparationCompact{ValidatorIndex: 2, InvocationScript: inv})
	q := message.NewPayload(&message.Message{BlockIndex: 100, ValidatorIndex: 3, Body: rm}, k.ScriptHash())
	q.Sign(testMagic, k)
	rec, _ = nio.ToBytes(&q.Extensible)
	return req, rec
}

func benchDecode(b *testing.B, raw []byte) {
	b.ReportAllocs()
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		var e message.Extensible
		r := nio.NewBinReaderFromBuf(raw)
		e.DecodeBinary(r)
		if r.Err != nil {
			b.Fatal(r.Err)
		}
		if _, err := message.FromExtensible(&e); err != nil {
			b.Fatal(err)
		}
	}
}

func benchNeoGoDecode(b *testing.B, raw []byte) {
	b.ReportAllocs()
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		p := ngconsensus.NewPayload(testMagic, false)
		r := ngio.NewBinReaderFromBuf(raw)
		p.DecodeBinary(r)
		if r.Err != nil {
			b.Fatal(r.Err)
		}
	}
}

func BenchmarkDecode(b *testing.B) {
	req, rec := benchPayloads(b)
	b.Run("PrepareRequest512", func(b *testing.B) { benchDecode(b, req) })
	b.Run("Recovery7", func(b *testing.B) { benchDecode(b, rec) })
	b.Run("NeoGo/PrepareRequest512", func(b *testing.B) { benchNeoGoDecode(b, req) })
	b.Run("NeoGo/Recovery7", func(b *testing.B) { benchNeoGoDecode(b, rec) })
}

func BenchmarkEncode(b *testing.B) {
	req, _ := benchPayloads(b)
	var e message.Extensible
	if err := nio.FromBytes(req, &e); err != nil {
		b.Fatal(err)
	}
	p, err := message.FromExtensible(&e)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("PrepareRequest512", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			p.Encode()
		}
	})
}

func BenchmarkSignVerify(b *testing.B) {
	k := testKey(b, 1)
	p := message.NewPayload(sampleMessages()["commit"], k.ScriptHash())
	b.Run("Sign", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			p.Sign(testMagic, k)
		}
	})
	p.Sign(testMagic, k)
	b.Run("VerifyWitness", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := p.VerifyWitness(testMagic, k.PublicKey()); err != nil {
				b.Fatal(err)
			}
		}
	})
	raw, _ := nio.ToBytes(&p.Extensible)
	np := ngconsensus.NewPayload(testMagic, false)
	np.DecodeBinary(ngio.NewBinReaderFromBuf(raw))
	nk := ngKey(b, k)
	b.Run("NeoGo/VerifyHashable", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if !nk.PublicKey().VerifyHashable(p.Witness.InvocationScript[2:], testMagic, &np.Extensible) {
				b.Fatal("invalid")
			}
		}
	})
}

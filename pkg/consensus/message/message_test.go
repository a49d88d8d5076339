package message_test

import (
	"bytes"
	"encoding/hex"
	"errors"
	"github.com/n3node/n3node/internal/consensustest"
	"reflect"
	"testing"

	"github.com/n3node/n3node/pkg/consensus/message"
	"github.com/n3node/n3node/pkg/crypto/hash"
	nio "github.com/n3node/n3node/pkg/io"
)

// The fixtures are internal/consensustest's.
const testMagic = consensustest.Magic

var (
	testKey        = consensustest.Key
	h256           = consensustest.Hash
	sampleMessages = consensustest.SampleMessages
)

func TestMessageRoundTrip(t *testing.T) {
	for name, m := range sampleMessages() {
		t.Run(name, func(t *testing.T) {
			b, err := m.Bytes()
			if err != nil {
				t.Fatal(err)
			}
			got, err := message.Decode(b)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, m) {
				t.Fatalf("decoded %+v, want %+v", got, m)
			}
			if m.Size() != len(b) {
				t.Fatalf("Size %d, encoded %d", m.Size(), len(b))
			}
			b2, _ := got.Bytes()
			if !bytes.Equal(b, b2) {
				t.Fatalf("re-encoding differs:\n%x\n%x", b, b2)
			}
			// Trailing bytes are ignored, as by C# and neo-go.
			if _, err := message.Decode(append(b, 0xAA)); err != nil && m.Type() != message.ChangeViewType {
				t.Fatalf("trailing byte: %v", err)
			}
			// Every strict prefix fails.
			for i := range len(b) {
				if _, err := message.Decode(b[:i]); err == nil {
					if cv := m.ChangeView(); cv != nil && cv.HasRejectedHashes && i >= message.HeaderSize+9 {
						continue // a 0.120.0-style ChangeView is a prefix of the 3.10 one
					}
					t.Fatalf("prefix of %d bytes decoded", i)
				}
			}
		})
	}
}

// TestMessageEncoding pins the layout of every message type.
func TestMessageEncoding(t *testing.T) {
	ms := sampleMessages()
	cases := map[string]string{
		"change-view":                 "00" + "07000000" + "01" + "00" + "0068e5cf8b010000" + "00",
		"change-view-txinvalid-0.120": "00" + "07000000" + "01" + "03" + "6300000000000000" + "04",
		"change-view-txinvalid-3.10":  "00" + "07000000" + "01" + "03" + "6300000000000000" + "04" + "01" + hexOf(h256(5)),
		"prepare-response":            "21" + "0c000000" + "03" + "01" + hexOf(h256(0x70)),
		"recovery-request":            "40" + "0c000000" + "03" + "00" + "e76be5cf8b010000",
		"recovery-empty":              "41" + "0c000000" + "00" + "00" + "00" + "00" + "00" + "00" + "00",
		"prepare-request-empty":       "20" + "01000000" + "00" + "00" + "00000000" + hexOf(h256(2)) + "0500000000000000" + "0000000000000000" + "00",
	}
	for name, want := range cases {
		b, err := ms[name].Bytes()
		if err != nil {
			t.Fatal(err)
		}
		if got := hex.EncodeToString(b); got != want {
			t.Errorf("%s:\n got %s\nwant %s", name, got, want)
		}
	}
}

func hexOf(h hash.Uint256) string { return hex.EncodeToString(h[:]) }

func TestDecodeErrors(t *testing.T) {
	enc := func(m *message.Message) []byte {
		b, err := m.Bytes()
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	dupReq := enc(&message.Message{Body: &message.PrepareRequest{TransactionHashes: []hash.Uint256{h256(1), h256(2), h256(1)}}})
	dupRec := enc(&message.Message{Body: &message.RecoveryMessage{Commits: []message.CommitCompact{{ValidatorIndex: 1}, {ValidatorIndex: 1}}}})
	wrongEmbedded := enc(&message.Message{Body: &message.RecoveryMessage{PrepareRequest: &message.Message{Body: &message.Commit{}}}})
	noReq := enc(&message.Message{Body: &message.RecoveryMessage{}})
	badFlag := bytes.Clone(noReq)
	badFlag[message.HeaderSize+1] = 2
	badHashLen := bytes.Clone(noReq)
	badHashLen[message.HeaderSize+2] = 31
	longInv := enc(&message.Message{Body: &message.RecoveryMessage{Preparations: []message.PreparationCompact{{InvocationScript: make([]byte, message.MaxCompactInvocationScript+1)}}}})
	manyHashes := append(enc(&message.Message{Body: &message.PrepareRequest{}})[:message.HeaderSize+4+32+16], 0xfe, 0, 0, 1, 0) // 65536 hashes

	cases := []struct {
		name string
		b    []byte
		err  error
	}{
		{"empty", nil, nio.ErrUnexpectedEOF},
		{"unknown type", []byte{0x31, 1, 0, 0, 0, 0, 0}, message.ErrUnknownType},
		{"duplicate tx hash", dupReq, message.ErrDuplicateHash},
		{"duplicate recovery index", dupRec, message.ErrDuplicateIndex},
		{"embedded not a request", wrongEmbedded, message.ErrEmbeddedType},
		{"bad bool", badFlag, nio.ErrFormat},
		{"bad preparation hash length", badHashLen, message.ErrPreparationHash},
		{"long invocation", longInv, nio.ErrTooLarge},
		{"too many hashes", manyHashes, nio.ErrTooLarge},
	}
	for _, c := range cases {
		_, err := message.Decode(c.b)
		if !errors.Is(err, c.err) {
			t.Errorf("%s: got %v, want %v", c.name, err, c.err)
		}
	}
}

func TestPayloadSignVerify(t *testing.T) {
	k := testKey(t, 1)
	other := testKey(t, 2)
	m := sampleMessages()["commit"]
	p := message.NewPayload(m, k.ScriptHash())
	p.Sign(testMagic, k)
	if p.Category != message.Category || p.ValidBlockStart != 0 || p.ValidBlockEnd != m.BlockIndex {
		t.Fatalf("envelope %+v", p.Extensible)
	}
	if err := p.VerifyWitness(testMagic, k.PublicKey()); err != nil {
		t.Fatal(err)
	}
	if err := p.VerifyWitness(testMagic+1, k.PublicKey()); !errors.Is(err, message.ErrSignature) {
		t.Fatalf("other magic: %v", err)
	}
	if err := p.VerifyWitness(testMagic, other.PublicKey()); !errors.Is(err, message.ErrSender) {
		t.Fatalf("other key: %v", err)
	}

	// Through the wire and back.
	b, err := nio.ToBytes(&p.Extensible)
	if err != nil {
		t.Fatal(err)
	}
	var e message.Extensible
	if err := nio.FromBytes(b, &e); err != nil {
		t.Fatal(err)
	}
	q, err := message.FromExtensible(&e)
	if err != nil {
		t.Fatal(err)
	}
	if q.Hash() != p.Hash() || !reflect.DeepEqual(q.Message, m) {
		t.Fatal("decoded payload differs")
	}
	if err := q.VerifyWitness(testMagic, k.PublicKey()); err != nil {
		t.Fatal(err)
	}

	// Tampering with the data breaks the signature.
	e.Data = bytes.Clone(e.Data)
	e.Data[len(e.Data)-1] ^= 1
	q, err = message.FromExtensible(&e)
	if err != nil {
		t.Fatal(err)
	}
	if err := q.VerifyWitness(testMagic, k.PublicKey()); !errors.Is(err, message.ErrSignature) {
		t.Fatalf("tampered: %v", err)
	}

	// Signed by another key, claiming to be k.
	r := message.NewPayload(m, k.ScriptHash())
	r.Sign(testMagic, other)
	if err := r.VerifyWitness(testMagic, k.PublicKey()); !errors.Is(err, message.ErrWitnessScript) {
		t.Fatalf("foreign witness: %v", err)
	}
	r.Witness.VerificationScript = k.PublicKey().VerificationScript()
	if err := r.VerifyWitness(testMagic, k.PublicKey()); !errors.Is(err, message.ErrSignature) {
		t.Fatalf("foreign signature: %v", err)
	}
	// A non-standard push of the right signature is refused.
	p.Witness.InvocationScript = append([]byte{0x0d, 64, 0}, p.Witness.InvocationScript[2:]...)
	if err := p.VerifyWitness(testMagic, k.PublicKey()); !errors.Is(err, message.ErrWitnessScript) {
		t.Fatalf("PUSHDATA2: %v", err)
	}

	e.Category = "StateService"
	if _, err := message.FromExtensible(&e); !errors.Is(err, message.ErrCategory) {
		t.Fatalf("category: %v", err)
	}
}

func TestExtensibleDecodeErrors(t *testing.T) {
	k := testKey(t, 1)
	p := message.NewPayload(sampleMessages()["commit"], k.ScriptHash())
	p.Sign(testMagic, k)
	good, _ := nio.ToBytes(&p.Extensible)
	var e message.Extensible
	if err := nio.FromBytes(good, &e); err != nil {
		t.Fatal(err)
	}
	if e.Size() != len(good) {
		t.Fatalf("size %d, encoded %d", e.Size(), len(good))
	}
	badRange := bytes.Clone(good)
	copy(badRange[5:9], []byte{0x0c, 0, 0, 0}) // ValidBlockStart = 12 = ValidBlockEnd
	if err := nio.FromBytes(badRange, &e); !errors.Is(err, message.ErrValidRange) {
		t.Fatalf("range: %v", err)
	}
	witnessAt := 1 + 4 + 4 + 4 + 20 + 1 + len(p.Data)
	badCount := bytes.Clone(good)
	badCount[witnessAt] = 2
	if err := nio.FromBytes(badCount, &e); !errors.Is(err, message.ErrWitnessCount) {
		t.Fatalf("witness count: %v", err)
	}
}

func TestPrimaryIndex(t *testing.T) {
	cases := []struct {
		h    uint32
		v    uint8
		n    int
		want uint8
	}{{0, 0, 4, 0}, {5, 0, 4, 1}, {5, 1, 4, 0}, {5, 2, 4, 3}, {1, 7, 4, 2}, {100, 0, 7, 2}, {3, 255, 1, 0}}
	for _, c := range cases {
		if got := message.PrimaryIndex(c.h, c.v, c.n); got != c.want {
			t.Errorf("PrimaryIndex(%d, %d, %d) = %d, want %d", c.h, c.v, c.n, got, c.want)
		}
	}
}

func TestHasDuplicateLarge(t *testing.T) {
	hs := make([]hash.Uint256, 600)
	for i := range hs {
		hs[i] = h256(byte(i))
		hs[i][31], hs[i][30] = byte(i), byte(i>>8)
		copy(hs[i][:8], make([]byte, 8)) // one table slot for all: probing must still work
	}
	m := &message.Message{Body: &message.PrepareRequest{TransactionHashes: hs}}
	b, _ := m.Bytes()
	if _, err := message.Decode(b); err != nil {
		t.Fatal(err)
	}
	hs[599] = hs[17]
	b, _ = m.Bytes()
	if _, err := message.Decode(b); !errors.Is(err, message.ErrDuplicateHash) {
		t.Fatalf("duplicate not found: %v", err)
	}
}

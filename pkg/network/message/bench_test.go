package message_test

import (
	"testing"

	"github.com/n3node/n3node/pkg/network/internal/fakechain"
	"github.com/n3node/n3node/pkg/network/message"
	"github.com/n3node/n3node/pkg/network/payload"
)

type benchCase struct {
	name string
	cmd  message.Command
	p    message.Payload
}

func benchCases() []benchCase {
	blk := fakechain.Chain(2, 1000)[1]
	return []benchCase{
		{"tx", message.CmdTransaction, fakechain.Tx(7)},
		{"block1000", message.CmdBlock, blk},
		// inv is never compressed (C# rule), so both variants are equal.
		{"inv500", message.CmdInv, &payload.Inventory{Type: payload.TXType, Hashes: hashes(payload.MaxHashesCount)}},
	}
}

func BenchmarkEncode(b *testing.B) {
	for _, c := range benchCases() {
		for _, comp := range []bool{false, true} {
			b.Run(c.name+"/compress="+boolStr(comp), func(b *testing.B) {
				b.ReportAllocs()
				var n int
				for b.Loop() {
					out, err := message.Encode(c.cmd, c.p, comp)
					if err != nil {
						b.Fatal(err)
					}
					n = len(out)
				}
				b.SetBytes(int64(n))
			})
		}
	}
}

func BenchmarkDecode(b *testing.B) {
	for _, c := range benchCases() {
		for _, comp := range []bool{false, true} {
			frame, err := message.Encode(c.cmd, c.p, comp)
			if err != nil {
				b.Fatal(err)
			}
			b.Run(c.name+"/compress="+boolStr(comp), func(b *testing.B) {
				b.SetBytes(int64(len(frame)))
				b.ReportAllocs()
				for b.Loop() {
					if _, err := message.Decode(frame); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

func boolStr(v bool) string {
	if v {
		return "on"
	}
	return "off"
}

// BenchmarkReadMessage reads frames from a stream, as a peer's reader
// does (one buffer per message, owned by the decoded payload).
func BenchmarkReadMessage(b *testing.B) {
	for _, c := range benchCases() {
		for _, comp := range []bool{false, true} {
			frame, err := message.Encode(c.cmd, c.p, comp)
			if err != nil {
				b.Fatal(err)
			}
			b.Run(c.name+"/compress="+boolStr(comp), func(b *testing.B) {
				src := &repeatReader{frame: frame}
				r := message.NewReader(src)
				b.SetBytes(int64(len(frame)))
				b.ReportAllocs()
				for b.Loop() {
					if _, err := r.ReadMessage(); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// repeatReader returns the same frame over and over.
type repeatReader struct {
	frame []byte
	off   int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	n := copy(p, r.frame[r.off:])
	r.off = (r.off + n) % len(r.frame)
	return n, nil
}

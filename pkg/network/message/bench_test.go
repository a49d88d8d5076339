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

package neogotext

import (
	"encoding/binary"
	"errors"
	"io"
	"strings"

	nio "github.com/n3node/n3node/pkg/io"
)

// neo-go reads binary input field by field with io.ReadFull semantics: a
// read that finds no byte left fails with io.EOF ("EOF"), one that finds
// some but too few with io.ErrUnexpectedEOF ("unexpected EOF"). n3node's
// decoders read larger chunks, so which of the two texts neo-go would
// print for a truncated transaction or block is found by walking the
// input with neo-go's reads (eofWalker); the walk stops at the first
// structural error it cannot follow.

var errWalk = errors.New("walk stopped")

type eofWalker struct {
	b   []byte
	off int
	eof string // the neo-go text of the first short read
}

// read takes n bytes; a short read records its text and stops the walk.
func (w *eofWalker) read(n int) []byte {
	if w.eof != "" {
		panic(errWalk)
	}
	left := len(w.b) - w.off
	if left < n {
		if left == 0 {
			w.eof = io.EOF.Error()
		} else {
			w.eof = io.ErrUnexpectedEOF.Error()
		}
		panic(errWalk)
	}
	res := w.b[w.off : w.off+n]
	w.off += n
	return res
}

func (w *eofWalker) u8() byte { return w.read(1)[0] }

// varUint reads neo-go's var-int: a first byte, then 2, 4 or 8 bytes.
func (w *eofWalker) varUint() uint64 {
	switch b := w.u8(); b {
	case 0xfd:
		return uint64(binary.LittleEndian.Uint16(w.read(2)))
	case 0xfe:
		return uint64(binary.LittleEndian.Uint32(w.read(4)))
	case 0xff:
		return binary.LittleEndian.Uint64(w.read(8))
	default:
		return uint64(b)
	}
}

// count reads an array length; beyond max neo-go fails without reading.
func (w *eofWalker) count(max uint64) int {
	n := w.varUint()
	if n > max {
		panic(errWalk)
	}
	return int(n)
}

func (w *eofWalker) varBytes(max uint64) {
	n := w.varUint()
	if n > max {
		panic(errWalk)
	}
	w.read(int(n))
}

func (w *eofWalker) publicKey() {
	switch w.u8() {
	case 0x00:
	case 0x02, 0x03:
		w.read(32)
	case 0x04:
		w.read(64)
	default:
		panic(errWalk)
	}
}

func (w *eofWalker) condition(depth int) {
	if depth <= 0 {
		panic(errWalk)
	}
	switch w.u8() {
	case 0x00: // Boolean
		w.u8()
	case 0x01: // Not
		w.condition(depth - 1)
	case 0x02, 0x03: // And, Or
		n := w.count(16)
		for range n {
			w.condition(depth - 1)
		}
	case 0x18, 0x28: // ScriptHash, CalledByContract
		w.read(20)
	case 0x19, 0x29: // Group, CalledByGroup
		w.publicKey()
	case 0x20: // CalledByEntry
	default:
		panic(errWalk)
	}
}

func (w *eofWalker) transaction() {
	w.read(1) // version
	w.read(4) // nonce
	w.read(8) // system fee
	w.read(8) // network fee
	w.read(4) // ValidUntilBlock
	signers := w.count(16)
	for range signers {
		w.read(20)
		scopes := w.u8()
		if scopes&0x10 != 0 {
			for range w.count(16) {
				w.read(20)
			}
		}
		if scopes&0x20 != 0 {
			for range w.count(16) {
				w.publicKey()
			}
		}
		if scopes&0x40 != 0 {
			for range w.count(16) {
				w.u8()
				w.condition(3)
			}
		}
	}
	for range w.count(16) {
		switch t := w.u8(); {
		case t == 0x01: // HighPriority
		case t == 0x11: // OracleResponse
			w.read(8)
			w.u8()
			w.varBytes(0xffff)
		case t == 0x20: // NotValidBefore
			w.read(4)
		case t == 0x21: // Conflicts
			w.read(32)
		case t == 0x22: // NotaryAssisted
			w.u8()
		case t >= 0xe0: // reserved
			w.varBytes(0xffff)
		default:
			panic(errWalk)
		}
	}
	w.varBytes(0xffff)
	for range w.count(16) {
		w.varBytes(1024)
		w.varBytes(1024)
	}
}

func (w *eofWalker) block() {
	for _, n := range []int{4, 32, 32, 8, 8, 4, 1, 20} { // header fields
		w.read(n)
	}
	if w.varUint() != 1 { // witness count
		panic(errWalk)
	}
	w.varBytes(1024)
	w.varBytes(1024)
	for range w.count(0xffff) {
		w.transaction()
	}
}

// EOFText replaces the text of a truncated-input error of decoding b
// (a transaction, or a block if isBlock) with the one neo-go would print.
func EOFText(err error, b []byte, isBlock bool) error {
	if !errors.Is(err, nio.ErrUnexpectedEOF) {
		return err
	}
	w := &eofWalker{b: b}
	func() {
		defer func() {
			if r := recover(); r != nil && r != errWalk {
				panic(r)
			}
		}()
		if isBlock {
			w.block()
		} else {
			w.transaction()
		}
	}()
	word := w.eof
	if word == "" {
		word = io.ErrUnexpectedEOF.Error()
	}
	return errors.New(strings.ReplaceAll(err.Error(), nio.ErrUnexpectedEOF.Error(), word))
}

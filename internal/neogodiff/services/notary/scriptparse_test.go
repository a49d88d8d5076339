package notary_test

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"math/big"
	"testing"

	"github.com/stretchr/testify/require"

	ngnotary "github.com/nspcc-dev/neo-go/pkg/services/notary"
	ngscparser "github.com/nspcc-dev/neo-go/pkg/smartcontract/scparser"

	"github.com/n3node/n3node/internal/testchain"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/encoding/bigint"
	"github.com/n3node/n3node/pkg/services/notary"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/vm"
	"github.com/n3node/n3node/pkg/vm/emit"
	"github.com/n3node/n3node/pkg/vm/opcode"

	nio "github.com/n3node/n3node/pkg/io"
)

// neoGo runs f, reporting a panic as ok=false.
func neoGo(f func()) (panicked bool) {
	defer func() {
		if r := recover(); r != nil {
			panicked = true
		}
	}()
	f()
	return false
}

// hugeInts reports whether script pushes an integer beyond the PACK count
// our readers accept (1<<16) before its first undecodable instruction:
// neo-go allocates such counts as given and runs out of memory, so the
// comparison skips those scripts.
func hugeInts(script []byte) bool {
	ins, _ := vm.Instructions(script)
	limit := big.NewInt(1 << 16)
	for _, in := range ins {
		switch {
		case in.Op >= opcode.PUSHINT128 && in.Op <= opcode.PUSHINT256:
			return true
		case in.Op >= opcode.PUSHINT8 && in.Op <= opcode.PUSHINT64:
			if bigint.FromBytes(in.Operand).CmpAbs(limit) > 0 {
				return true
			}
		}
	}
	return false
}

// compareParsers checks every static reader against neo-go 0.120.0's
// scparser on script. Inputs on which neo-go panics are skipped.
func compareParsers(t *testing.T, script []byte) {
	if hugeInts(script) {
		// neo-go allocates PACK counts as given (and runs out of
		// memory); ours refuses counts above its bound.
		_, _, _ = notary.ParseAppCall(script)
		_, _ = notary.CountPushes(script)
		return
	}
	var (
		wm    int
		wpubs [][]byte
		wok   bool
	)
	if neoGo(func() { wm, wpubs, wok = ngscparser.ParseMultiSigContract(script) }) {
		return
	}
	m, pubs, ok := notary.ParseMultiSig(script)
	require.Equal(t, wok, ok, "multisig %x", script)
	if ok {
		require.Equal(t, wm, m)
		require.Equal(t, wpubs, pubs)
	}

	wkey, wok := ngscparser.ParseSignatureContract(script)
	key, ok := notary.ParseSignature(script)
	require.Equal(t, wok, ok, "signature %x", script)
	require.Equal(t, wkey, key)

	var (
		wn, wmm int
		werr    error
	)
	if !neoGo(func() { wn, wmm, werr = ngnotary.ParseAppCallContract(script) }) {
		n, mm, err := notary.ParseAppCall(script)
		require.Equal(t, werr == nil, err == nil, "appcall %x: neo-go %v, ours %v", script, werr, err)
		if err == nil {
			require.Equal(t, wn, n, "appcall %x", script)
			require.Equal(t, wmm, mm, "appcall %x", script)
		}
	}

	var wres []ngscparser.PushedItem
	if !neoGo(func() { wres, werr = ngscparser.ParseSomething(script, true) }) {
		cnt, err := notary.CountPushes(script)
		require.Equal(t, werr == nil, err == nil, "something %x: neo-go %v, ours %v", script, werr, err)
		if err == nil {
			require.Equal(t, len(wres), cnt, "something %x", script)
		}
	}
}

func seedScripts(t testing.TB) [][]byte {
	ks := testchain.Keys(t, 1, 4)
	var pubs = make([][]byte, 0)
	_ = pubs
	multi, err := smartcontract.CreateMultiSigRedeemScript(2, testchain.Pubs(ks))
	require.NoError(t, err)
	sig := ks[0].PublicKey().VerificationScript()
	contract := hash.Hash160([]byte("c"))
	appCall := func(f func(w *nio.BinWriter)) []byte {
		w := nio.NewBufBinWriter()
		f(w)
		emit.Int(w, int64(callflag.All))
		emit.String(w, "verify")
		emit.Bytes(w, contract[:])
		emit.Syscall(w, "System.Contract.Call")
		return w.Bytes()
	}
	return [][]byte{
		multi, sig, nil, {0x40},
		// AppCall: 3 arguments, 1 present (non-strict PACK).
		appCall(func(w *nio.BinWriter) { emit.Int(w, 5); emit.Int(w, 3); emit.Opcodes(w, opcode.PACK) }),
		appCall(func(w *nio.BinWriter) { emit.Opcodes(w, opcode.NEWARRAY0) }),
		appCall(func(w *nio.BinWriter) {
			emit.Bytes(w, []byte{1})
			emit.Int(w, 1)
			emit.Opcodes(w, opcode.PACK, opcode.DUP, opcode.REVERSEITEMS)
		}),
		appCall(func(w *nio.BinWriter) {
			emit.Int(w, 1)
			emit.Int(w, 2)
			emit.Int(w, 1)
			emit.Opcodes(w, opcode.PACKMAP)
		}),
		appCall(func(w *nio.BinWriter) {
			emit.Int(w, 1)
			emit.Int(w, 2)
			emit.Opcodes(w, opcode.SWAP)
			emit.Int(w, 2)
			emit.Opcodes(w, opcode.PACK)
		}),
		// Invocation scripts.
		bytes.Repeat(append([]byte{byte(opcode.PUSHDATA1), 64}, make([]byte, 64)...), 2),
		{byte(opcode.PUSH1), byte(opcode.PUSH2), byte(opcode.RET)},
		{byte(opcode.DUP)},
		{byte(opcode.PUSHINT64), 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f, byte(opcode.PACK)},
	}
}

func TestScriptParsersNeoGo(t *testing.T) {
	n := 0
	for _, s := range seedScripts(t) {
		compareParsers(t, s)
		n++
	}
	n1, m1, err := notary.ParseAppCall(seedScripts(t)[4])
	require.NoError(t, err)
	require.Equal(t, [2]int{3, 1}, [2]int{n1, m1})
	require.Greater(t, n, 10)
}

// FuzzScriptParsers compares the static script readers with neo-go's.
func FuzzScriptParsers(f *testing.F) {
	for _, s := range seedScripts(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, script []byte) {
		compareParsers(t, script)
	})
}

var _ = fmt.Sprint
var _ = hex.EncodeToString

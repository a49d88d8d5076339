package native_test

import (
	"encoding/hex"
	"testing"

	"github.com/n3node/n3node/internal/chaintest"
	"github.com/n3node/n3node/pkg/core/interop"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/fee"
	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/vm/emit"
	"github.com/n3node/n3node/pkg/vm/opcode"
	"github.com/stretchr/testify/require"
)

func signTx(c *chaintest.Chain, tx *transaction.Transaction, k *keys.PrivateKey) []byte {
	sd := tx.SignData(uint32(c.Cfg.Magic))
	return k.Sign(sd[:])
}

func sigInvocation(sig []byte) []byte {
	return append([]byte{byte(opcode.PUSHDATA1), 64}, sig...)
}

func TestVerifyWitnessStandard(t *testing.T) {
	c := chaintest.New(t)
	k := chaintest.CommitteeKey
	acc := k.PublicKey().ScriptHash()
	tx := c.NewTx([]byte{byte(opcode.PUSH1)}, transaction.Signer{Account: acc})
	w := transaction.Witness{InvocationScript: sigInvocation(signTx(c, tx, k)), VerificationScript: k.PublicKey().VerificationScript()}
	want := (2*fee.Opcode(opcode.PUSHDATA1) + fee.CheckSigPrice) * interop.DefaultExecFeeFactor
	gas, err := c.Natives.VerifyWitness(c, c.DAO, nil, tx, acc, &w, interop.MaxVerificationGas)
	require.NoError(t, err)
	require.Equal(t, want, gas)

	// The same witness through the VM (an equivalent but non-standard
	// invocation: PUSHDATA1 with the signature, then the key and CheckSig
	// in the verification script are what the fast path prices).
	bad := w
	bad.InvocationScript = sigInvocation(make([]byte, 64))
	gas, err = c.Natives.VerifyWitness(c, c.DAO, nil, tx, acc, &bad, interop.MaxVerificationGas)
	require.ErrorIs(t, err, interop.ErrInvalidSignature)
	require.Equal(t, want, gas)

	// Not enough GAS.
	_, err = c.Natives.VerifyWitness(c, c.DAO, nil, tx, acc, &w, want-1)
	require.ErrorIs(t, err, interop.ErrVerificationFailed)
	// Hash mismatch.
	_, err = c.Natives.VerifyWitness(c, c.DAO, nil, tx, hash.Uint160{1}, &w, interop.MaxVerificationGas)
	require.ErrorIs(t, err, interop.ErrWitnessHashMismatch)
	// A native hash cannot be witnessed by a script.
	nativeScript, err := hex.DecodeString("380c140000000000000000000000000000000000000000100c12436f6e74726163744d616e6167656d656e74")
	require.NoError(t, err)
	nw := transaction.Witness{InvocationScript: []byte{}, VerificationScript: nativeScript}
	require.Equal(t, nativenames.ManagementHash, nw.ScriptHash())
	_, err = c.Natives.VerifyWitness(c, c.DAO, nil, tx, nativenames.ManagementHash, &nw, interop.MaxVerificationGas)
	require.ErrorIs(t, err, interop.ErrNativeContractWitness)
	// Invalid invocation script.
	iw := transaction.Witness{InvocationScript: []byte{byte(opcode.JMP), 0x20}, VerificationScript: w.VerificationScript}
	_, err = c.Natives.VerifyWitness(c, c.DAO, nil, tx, acc, &iw, interop.MaxVerificationGas)
	require.ErrorIs(t, err, interop.ErrInvalidInvocationScript)
	// Unknown contract for an empty verification script.
	_, err = c.Natives.VerifyWitness(c, c.DAO, nil, tx, hash.Uint160{1}, &transaction.Witness{}, interop.MaxVerificationGas)
	require.ErrorIs(t, err, interop.ErrUnknownVerificationContract)
}

// TestVerifyWitnessVMMatchesFastPath: the standard single-signature fast
// path prices exactly what the VM charges for the same scripts.
func TestVerifyWitnessVMMatchesFastPath(t *testing.T) {
	c := chaintest.New(t)
	k := chaintest.CommitteeKey
	acc := k.PublicKey().ScriptHash()
	tx := c.NewTx([]byte{byte(opcode.PUSH1)}, transaction.Signer{Account: acc})
	sig := signTx(c, tx, k)
	// Run "PUSHDATA1 sig" + "PUSHDATA1 key SYSCALL CheckSig" as one script in
	// a Verification context: the same instructions the VM runs.
	script := append(sigInvocation(sig), k.PublicKey().VerificationScript()...)
	ic := c.Natives.NewContext(0x20, c, c.DAO, nil, tx)
	ic.SpawnVM()
	require.NoError(t, ic.LoadScript(script, 0x05))
	require.NoError(t, ic.Run())
	w := transaction.Witness{InvocationScript: sigInvocation(sig), VerificationScript: k.PublicKey().VerificationScript()}
	gas, err := c.Natives.VerifyWitness(c, c.DAO, nil, tx, acc, &w, interop.MaxVerificationGas)
	require.NoError(t, err)
	require.Equal(t, ic.VM.GasConsumed(), gas)
}

func TestVerifyWitnessMultisig(t *testing.T) {
	keysList := []*keys.PrivateKey{chaintest.CommitteeKey, mustKey(t), mustKeyHex(t, "3edee7036b8fd9cef91de47386b191dd76db2888a553e7736bb02808932a915b")}
	c := chaintest.New(t, chaintest.Options{Committee: keysList, ValidatorsCount: 3})
	pubs := make([]*keys.PublicKey, len(keysList))
	for i, k := range keysList {
		pubs[i] = k.PublicKey()
	}
	verif, err := smartcontract.CreateMultiSigRedeemScript(2, pubs)
	require.NoError(t, err)
	acc := hash.Hash160(verif)
	tx := c.NewTx([]byte{byte(opcode.PUSH1)}, transaction.Signer{Account: acc})
	sorted := append([]*keys.PublicKey(nil), pubs...)
	keys.SortPublicKeys(sorted)
	byPub := map[string]*keys.PrivateKey{}
	for _, k := range keysList {
		byPub[k.PublicKey().StringCompressed()] = k
	}
	inv := chaintest.Script(func(w *nio.BinWriter) {
		for _, p := range sorted[:2] {
			emit.Bytes(w, signTx(c, tx, byPub[p.StringCompressed()]))
		}
	})
	w := transaction.Witness{InvocationScript: inv, VerificationScript: verif}
	gas, err := c.Natives.VerifyWitness(c, c.DAO, nil, tx, acc, &w, interop.MaxVerificationGas)
	require.NoError(t, err)
	require.Greater(t, gas, int64(3*fee.CheckSigPrice*interop.DefaultExecFeeFactor))
	// Signatures in the wrong order fail.
	inv = chaintest.Script(func(w *nio.BinWriter) {
		for _, p := range []*keys.PublicKey{sorted[1], sorted[0]} {
			emit.Bytes(w, signTx(c, tx, byPub[p.StringCompressed()]))
		}
	})
	w.InvocationScript = inv
	_, err = c.Natives.VerifyWitness(c, c.DAO, nil, tx, acc, &w, interop.MaxVerificationGas)
	require.ErrorIs(t, err, interop.ErrInvalidSignature)
}

func mustKeyHex(t *testing.T, h string) *keys.PrivateKey {
	k, err := keys.NewPrivateKeyFromHex(h)
	require.NoError(t, err)
	return k
}

func TestVerifyWitnessContract(t *testing.T) {
	c := chaintest.New(t)
	b := managedBuilder("Verifier", func(b *chaintest.ContractBuilder) {
		// verify(ok Boolean): returns ok.
		b.SafeMethod("verify", nil, smartcontract.BoolType, func(w *nio.BinWriter) {
			emit.Syscall(w, interop.SystemRuntimeGetTrigger)
			emit.Int(w, 0x20)
			emit.Opcodes(w, opcode.NUMEQUAL)
		})
	})
	cs := c.DeployBuilder(b)
	tx := c.NewTx([]byte{byte(opcode.PUSH1)}, transaction.Signer{Account: cs.Hash})
	w := transaction.Witness{InvocationScript: []byte{}, VerificationScript: []byte{}}
	gas, err := c.Natives.VerifyWitness(c, c.DAO, nil, tx, cs.Hash, &w, interop.MaxVerificationGas)
	require.NoError(t, err)
	require.Positive(t, gas)

	// A contract whose verify does not return Boolean.
	b2 := managedBuilder("BadVerifier", func(b *chaintest.ContractBuilder) {
		b.SafeMethod("verify", nil, smartcontract.IntegerType, func(w *nio.BinWriter) { emit.Int(w, 1) })
	})
	cs2 := c.DeployBuilder(b2)
	_, err = c.Natives.VerifyWitness(c, c.DAO, nil, tx, cs2.Hash, &w, interop.MaxVerificationGas)
	require.ErrorIs(t, err, interop.ErrInvalidVerificationContract)
	// A contract without verify.
	_, err = c.Natives.VerifyWitness(c, c.DAO, nil, tx, c.DeployBuilder(managedBuilder("NoVerify")).Hash, &w, interop.MaxVerificationGas)
	require.ErrorIs(t, err, interop.ErrInvalidVerificationContract)
}

package native_test

import (
	"testing"

	"github.com/n3node/n3node/internal/chaintest"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/smartcontract/trigger"
	"github.com/n3node/n3node/pkg/vm"
	"github.com/n3node/n3node/pkg/vm/stackitem"
	"github.com/n3node/n3node/pkg/vm/vmstate"
)

// benchScript executes script as an Application transaction on c's state
// the way the block executor does (a context and a private DAO layer per
// run, one reused VM), without persisting. The figures include the
// transaction's entry script and the System.Contract.Call of the native
// (about 3 µs, see BenchmarkNativeCall in pkg/core/interop).
func benchScript(b *testing.B, c *chaintest.Chain, script []byte) {
	tx := c.NewTx(script)
	blk := c.NextBlock(tx)
	v := vm.New()
	b.ReportAllocs()
	for b.Loop() {
		ic := c.Natives.NewContext(trigger.Application, c, c.DAO.GetPrivate(), blk, tx)
		ic.InitVM(v)
		v.SetGasLimit(tx.SystemFee)
		aer := ic.Execute(tx.Hash(), script, callflag.All)
		if aer.VMState != vmstate.Halt {
			b.Fatal(aer.FaultException)
		}
	}
}

// BenchmarkCryptoLib: hashes of 1 KiB, a secp256r1 verifyWithECDsa, an
// Ed25519 verification and a BLS12-381 pairing, each through a transaction.
func BenchmarkCryptoLib(b *testing.B) {
	c := chaintest.New(b)
	data := make([]byte, 1024)
	for i := range data {
		data[i] = byte(i)
	}
	b.Run("sha256_1KiB", func(b *testing.B) { benchScript(b, c, callScript(b, cryptoHash, "sha256", data)) })
	b.Run("ripemd160_1KiB", func(b *testing.B) { benchScript(b, c, callScript(b, cryptoHash, "ripemd160", data)) })
	b.Run("keccak256_1KiB", func(b *testing.B) { benchScript(b, c, callScript(b, cryptoHash, "keccak256", data)) })
	b.Run("murmur32_1KiB", func(b *testing.B) { benchScript(b, c, callScript(b, cryptoHash, "murmur32", data, 0)) })
	k, err := keys.NewPrivateKeyFromHex(privR1)
	if err != nil {
		b.Fatal(err)
	}
	msg := []byte("HelloWorld")
	b.Run("verifyWithECDsa_secp256r1", func(b *testing.B) {
		benchScript(b, c, callScript(b, cryptoHash, "verifyWithECDsa", msg, k.PublicKey().Bytes(), k.Sign(msg), 23))
	})
	b.Run("verifyWithECDsa_secp256k1", func(b *testing.B) {
		benchScript(b, c, callScript(b, cryptoHash, "verifyWithECDsa", msg, compressed(b, unhex(b, pubK1)), signK1(b, msg, false), 22))
	})
	b.Run("verifyWithEd25519", func(b *testing.B) {
		benchScript(b, c, callScript(b, cryptoHash, "verifyWithEd25519", []byte{}, unhex(b, ed25519Pub), unhex(b, ed25519Sig)))
	})
	v := loadBLSVectors(b)
	b.Run("bls12381Pairing", func(b *testing.B) {
		benchScript(b, c, blsScript(b, blsCall("bls12381Pairing", blsDeser(unhex(b, v.G1)), blsDeser(unhex(b, v.G2)))))
	})
}

// BenchmarkStdLib: serialize and deserialize of a small structure, JSON,
// base64 and itoa through a transaction.
func BenchmarkStdLib(b *testing.B) {
	c := chaintest.New(b)
	m := stackitem.NewMap()
	for i := range 8 {
		_ = m.Set(stackitem.NewInt(int64(i)), stackitem.NewByteString(make([]byte, 32)))
	}
	item := stackitem.NewArray([]stackitem.Item{stackitem.NewInt(1 << 40), stackitem.NewByteString([]byte("value")), m})
	data, err := stackitem.Serialize(item)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("serialize", func(b *testing.B) { benchScript(b, c, callScript(b, nativenames.StdLibHash, "serialize", item)) })
	b.Run("deserialize", func(b *testing.B) { benchScript(b, c, callScript(b, nativenames.StdLibHash, "deserialize", data)) })
	b.Run("jsonDeserialize", func(b *testing.B) {
		benchScript(b, c, callScript(b, nativenames.StdLibHash, "jsonDeserialize", `{"a":[1,2,3],"b":"text","c":true}`))
	})
	b.Run("base64Encode_1KiB", func(b *testing.B) {
		benchScript(b, c, callScript(b, nativenames.StdLibHash, "base64Encode", make([]byte, 1024)))
	})
	b.Run("itoa", func(b *testing.B) { benchScript(b, c, callScript(b, nativenames.StdLibHash, "itoa", int64(1)<<62, 16)) })
}

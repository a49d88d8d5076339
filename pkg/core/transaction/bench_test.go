package transaction_test

import (
	"encoding/base64"
	"testing"

	"github.com/n3node/n3node/pkg/core/transaction"
	nio "github.com/n3node/n3node/pkg/io"
)

// benchTxB64 is a typical MainNet NEP-17 transfer (the same transaction
// neo-go benchmarks with, so figures compare directly).
const benchTxB64 = "AK9KzFu0P5gAAAAAAIjOEgAAAAAA7jAAAAGIDdjSt7aj2J+dktSobkC9j0/CJwEAWwsCAMLrCwwUtXfkIuockX9HAVMNeEuQMxMlYkMMFIgN2NK3tqPYn52S1KhuQL2PT8InFMAfDAh0cmFuc2ZlcgwUz3bii9AGLEpHjuNVYQETGfPPpNJBYn1bUjkBQgxAUiZNae4OTSu2EOGW+6fwslLIpVsczOAR9o6R796tFf2KG+nLzs709tCQ7NELZOQ7zUzfF19ADLvH/efNT4v9LygMIQNT96/wFdPSBO7NUI9Kpn9EffTRXsS6ZJ9PqRvbenijVEFW57Mn"

func benchTx(b *testing.B) []byte {
	raw, err := base64.StdEncoding.DecodeString(benchTxB64)
	if err != nil {
		b.Fatal(err)
	}
	return raw
}

func BenchmarkDecodeFromBytes(b *testing.B) {
	raw := benchTx(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := transaction.NewTransactionFromBytes(raw); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeOwnedBytes(b *testing.B) {
	raw := benchTx(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := transaction.NewTransactionFromOwnedBytes(raw); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeBinary(b *testing.B) {
	raw := benchTx(b)
	b.ReportAllocs()
	for b.Loop() {
		r := nio.NewBinReaderFromBuf(raw)
		tx := &transaction.Transaction{}
		tx.DecodeBinary(r)
		if r.Err != nil {
			b.Fatal(r.Err)
		}
	}
}

func BenchmarkTransaction_Bytes(b *testing.B) {
	tx, err := transaction.NewTransactionFromBytes(benchTx(b))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = tx.Bytes()
	}
}

// BenchmarkHashFromFields measures hashing a transaction built in code
// (encoding the unsigned part, then SHA-256).
func BenchmarkHashFromFields(b *testing.B) {
	tx, err := transaction.NewTransactionFromBytes(benchTx(b))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		fresh := transaction.New(tx.Script, tx.Nonce, tx.SystemFee, tx.NetworkFee, tx.ValidUntilBlock)
		fresh.Signers, fresh.Witnesses = tx.Signers, tx.Witnesses
		_ = fresh.Hash()
	}
}

func BenchmarkEncodeJSON(b *testing.B) {
	tx, err := transaction.NewTransactionFromBytes(benchTx(b))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := tx.MarshalJSON(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeJSON(b *testing.B) {
	tx, err := transaction.NewTransactionFromBytes(benchTx(b))
	if err != nil {
		b.Fatal(err)
	}
	js, err := tx.MarshalJSON()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		var t transaction.Transaction
		if err := t.UnmarshalJSON(js); err != nil {
			b.Fatal(err)
		}
	}
}

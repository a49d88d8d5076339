package transaction_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"testing"

	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	nio "github.com/n3node/n3node/pkg/io"
)

// txBytes assembles a transaction from encoded parts.
func txBytes(version byte, sys, net int64, signers, attrs, script, witnesses []byte) []byte {
	b := []byte{version, 4, 3, 2, 1}
	b = binary.LittleEndian.AppendUint64(b, uint64(sys))
	b = binary.LittleEndian.AppendUint64(b, uint64(net))
	b = binary.LittleEndian.AppendUint32(b, 100)
	b = append(b, signers...)
	b = append(b, attrs...)
	b = append(b, script...)
	return append(b, witnesses...)
}

func signer(account byte, scope byte, extra ...byte) []byte {
	s := make([]byte, 20)
	s[0] = account
	return append(append(s, scope), extra...)
}

func cat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

var (
	oneSigner  = cat([]byte{1}, signer(1, 0x01))
	noAttrs    = []byte{0}
	script     = []byte{2, 0x11, 0x40}
	oneWitness = []byte{1, 0, 1, 0x11}
)

func good() []byte { return txBytes(0, 1, 2, oneSigner, noAttrs, script, oneWitness) }

func rule(action byte, cond ...byte) []byte { return append([]byte{action}, cond...) }

func rulesSigner(rules ...[]byte) []byte {
	return cat([]byte{1}, signer(1, 0x40, byte(len(rules))), cat(rules...))
}

func TestMalformed(t *testing.T) {
	if _, err := transaction.NewTransactionFromBytes(good()); err != nil {
		t.Fatalf("base transaction: %v", err)
	}
	key := keys.CompressedSize
	_ = key
	k, _ := keys.NewPrivateKey()
	group := k.PublicKey().Bytes()
	boolean := func(v byte) []byte { return []byte{0x00, v} }
	and := func(items ...[]byte) []byte { return cat([]byte{0x02, byte(len(items))}, cat(items...)) }
	not := func(c []byte) []byte { return append([]byte{0x01}, c...) }
	many := func(n int, item []byte) [][]byte {
		r := make([][]byte, n)
		for i := range r {
			r[i] = item
		}
		return r
	}
	twoSigners := cat([]byte{2}, signer(1, 1), signer(2, 1))
	twoWitnesses := []byte{2, 0, 0, 0, 0}
	cases := []struct {
		name string
		b    []byte
		err  error
	}{
		{"version 1", txBytes(1, 1, 2, oneSigner, noAttrs, script, oneWitness), transaction.ErrInvalidVersion},
		{"negative system fee", txBytes(0, -1, 2, oneSigner, noAttrs, script, oneWitness), transaction.ErrNegativeFee},
		{"negative network fee", txBytes(0, 1, -2, oneSigner, noAttrs, script, oneWitness), transaction.ErrNegativeFee},
		{"fee overflow", txBytes(0, 1<<62, 1<<62, oneSigner, noAttrs, script, oneWitness), transaction.ErrFeeOverflow},
		{"no signers", txBytes(0, 1, 2, []byte{0}, noAttrs, script, []byte{0}), transaction.ErrNoSigners},
		{"17 signers", txBytes(0, 1, 2, []byte{17}, noAttrs, script, oneWitness), transaction.ErrTooManySigners},
		{"unknown scope bit", txBytes(0, 1, 2, cat([]byte{1}, signer(1, 0x02)), noAttrs, script, oneWitness), transaction.ErrInvalidScope},
		{"global combined", txBytes(0, 1, 2, cat([]byte{1}, signer(1, 0x81)), noAttrs, script, oneWitness), transaction.ErrInvalidScope},
		{"17 contracts", txBytes(0, 1, 2, cat([]byte{1}, signer(1, 0x10, 17), make([]byte, 17*20)), noAttrs, script, oneWitness), nio.ErrTooLarge},
		{"17 groups", txBytes(0, 1, 2, cat([]byte{1}, signer(1, 0x20, 17), bytes.Repeat(group, 17)), noAttrs, script, oneWitness), nio.ErrTooLarge},
		{"bad group key", txBytes(0, 1, 2, cat([]byte{1}, signer(1, 0x20, 1), append([]byte{0x05}, group[1:]...)), noAttrs, script, oneWitness), keys.ErrInvalidKey},
		{"duplicate signer", txBytes(0, 1, 2, cat([]byte{2}, signer(1, 1), signer(1, 0x80)), noAttrs, script, twoWitnesses), transaction.ErrDuplicateSigner},
		{"too many attributes", txBytes(0, 1, 2, twoSigners, cat([]byte{15}, bytes.Repeat([]byte{0x21}, 15)), script, twoWitnesses), transaction.ErrTooManyAttrs},
		{"reserved attribute cut short", txBytes(0, 1, 2, oneSigner, []byte{1, 0xe0, 0xfe, 0x01, 0x90, 0x01, 0x00}, script, oneWitness), nio.ErrTooLarge},
		{"duplicate reserved attribute", txBytes(0, 1, 2, oneSigner, []byte{2, 0xe0, 0, 0xe0, 1, 7}, script, oneWitness), transaction.ErrDuplicateAttribute},
		{"unknown attribute", txBytes(0, 1, 2, oneSigner, []byte{1, 0x02}, script, oneWitness), transaction.ErrInvalidAttributeType},
		{"duplicate HighPriority", txBytes(0, 1, 2, oneSigner, []byte{2, 1, 1}, script, oneWitness), transaction.ErrDuplicateAttribute},
		{"duplicate NotaryAssisted", txBytes(0, 1, 2, oneSigner, []byte{2, 0x22, 1, 0x22, 2}, script, oneWitness), transaction.ErrDuplicateAttribute},
		{"duplicate NotValidBefore", txBytes(0, 1, 2, oneSigner, []byte{2, 0x20, 1, 0, 0, 0, 0x20, 2, 0, 0, 0}, script, oneWitness), transaction.ErrDuplicateAttribute},
		{"oracle bad code", txBytes(0, 1, 2, oneSigner, cat([]byte{1, 0x11}, make([]byte, 8), []byte{0x01, 0}), script, oneWitness), transaction.ErrInvalidOracle},
		{"oracle result on failure", txBytes(0, 1, 2, oneSigner, cat([]byte{1, 0x11}, make([]byte, 8), []byte{0x14, 1, 7}), script, oneWitness), transaction.ErrInvalidOracle},
		{"duplicate oracle", txBytes(0, 1, 2, oneSigner, cat([]byte{2, 0x11}, make([]byte, 8), []byte{0, 0, 0x11}, make([]byte, 8), []byte{0, 0}), script, oneWitness), transaction.ErrDuplicateAttribute},
		{"empty script", txBytes(0, 1, 2, oneSigner, noAttrs, []byte{0}, oneWitness), transaction.ErrEmptyScript},
		{"script too long", txBytes(0, 1, 2, oneSigner, noAttrs, cat([]byte{0xfe}, binary.LittleEndian.AppendUint32(nil, 65536), make([]byte, 65536)), oneWitness), nio.ErrTooLarge},
		{"no witness", txBytes(0, 1, 2, oneSigner, noAttrs, script, []byte{0}), transaction.ErrWitnessCount},
		{"two witnesses", txBytes(0, 1, 2, oneSigner, noAttrs, script, twoWitnesses), transaction.ErrWitnessCount},
		{"invocation too long", txBytes(0, 1, 2, oneSigner, noAttrs, script, cat([]byte{1, 0xfd, 0x01, 0x04}, make([]byte, 1025), []byte{0})), nio.ErrTooLarge},
		{"verification too long", txBytes(0, 1, 2, oneSigner, noAttrs, script, cat([]byte{1, 0, 0xfd, 0x01, 0x04}, make([]byte, 1025))), nio.ErrTooLarge},
		{"rule action 2", txBytes(0, 1, 2, rulesSigner(rule(2, boolean(1)...)), noAttrs, script, oneWitness), transaction.ErrInvalidRule},
		{"condition type 4", txBytes(0, 1, 2, rulesSigner(rule(1, 0x04)), noAttrs, script, oneWitness), transaction.ErrInvalidRule},
		{"boolean byte 2", txBytes(0, 1, 2, rulesSigner(rule(1, boolean(2)...)), noAttrs, script, oneWitness), nio.ErrFormat},
		{"empty And", txBytes(0, 1, 2, rulesSigner(rule(1, 0x02, 0)), noAttrs, script, oneWitness), transaction.ErrInvalidRule},
		{"And of 17", txBytes(0, 1, 2, rulesSigner(rule(1, and(many(17, boolean(1))...)...)), noAttrs, script, oneWitness), nio.ErrTooLarge},
		{"nesting 4", txBytes(0, 1, 2, rulesSigner(rule(1, not(not(not(boolean(1))))...)), noAttrs, script, oneWitness), transaction.ErrInvalidRule},
		{"17 rules", txBytes(0, 1, 2, rulesSigner(many(17, rule(1, boolean(1)...))...), noAttrs, script, oneWitness), nio.ErrTooLarge},
		{"trailing byte", append(good(), 0), transaction.ErrTrailingBytes},
	}
	for _, c := range cases {
		_, err := transaction.NewTransactionFromBytes(c.b)
		if err == nil {
			t.Errorf("%s: accepted", c.name)
			continue
		}
		if !errors.Is(err, c.err) {
			t.Errorf("%s: error %v, want %v", c.name, err, c.err)
		}
	}
	// Depth 3 and 16 subitems are allowed.
	okRules := rulesSigner(rule(1, not(and(boolean(1), boolean(0)))...), rule(0, and(many(16, boolean(1))...)...))
	if _, err := transaction.NewTransactionFromBytes(txBytes(0, 1, 2, okRules, noAttrs, script, oneWitness)); err != nil {
		t.Errorf("depth 3 rules rejected: %v", err)
	}
	// 16 Conflicts attributes minus one signer: 15 allowed.
	conf := cat([]byte{15}, bytes.Repeat(append([]byte{0x21}, make([]byte, 32)...), 15))
	if _, err := transaction.NewTransactionFromBytes(txBytes(0, 1, 2, oneSigner, conf, script, oneWitness)); err != nil {
		t.Errorf("15 conflicts rejected: %v", err)
	}
}

// TestTruncated cuts valid transactions at every length: each prefix must
// fail cleanly.
func TestTruncated(t *testing.T) {
	var f neogoVectors
	loadJSON(t, "neogo/json_vectors.json", &f)
	for _, v := range f.Transactions {
		raw := unhex(t, v.RawHex)
		for i := range raw {
			if _, err := transaction.NewTransactionFromBytes(raw[:i]); err == nil {
				t.Fatalf("%s: prefix of %d bytes accepted", v.Name, i)
			}
		}
	}
}

// TestNonCanonical checks that non-minimal var-ints and uncompressed keys
// are accepted as C# does, with the hash and size of the canonical form.
func TestNonCanonical(t *testing.T) {
	k, _ := keys.NewPrivateKey()
	canonSigner := cat([]byte{1}, signer(1, 0x20, 1), k.PublicKey().Bytes())
	canon := txBytes(0, 1, 2, canonSigner, noAttrs, script, oneWitness)
	want, err := transaction.NewTransactionFromBytes(canon)
	if err != nil {
		t.Fatal(err)
	}
	variants := [][]byte{
		txBytes(0, 1, 2, cat([]byte{0xfd, 1, 0}, canonSigner[1:]), noAttrs, script, oneWitness),
		txBytes(0, 1, 2, canonSigner, []byte{0xfe, 0, 0, 0, 0}, script, oneWitness),
		txBytes(0, 1, 2, canonSigner, noAttrs, []byte{0xfd, 2, 0, 0x11, 0x40}, oneWitness),
		txBytes(0, 1, 2, cat([]byte{1}, signer(1, 0x20, 1), k.PublicKey().UncompressedBytes()), noAttrs, script, oneWitness),
		txBytes(0, 1, 2, canonSigner, noAttrs, script, []byte{1, 0xfd, 0, 0, 1, 0x11}),
	}
	for i, b := range variants {
		tx, err := transaction.NewTransactionFromBytes(b)
		if err != nil {
			t.Fatalf("variant %d: %v", i, err)
		}
		if tx.Hash() != want.Hash() || tx.Size() != want.Size() || !bytes.Equal(tx.Bytes(), canon) {
			t.Errorf("variant %d: hash %s size %d, want %s %d", i, tx.Hash(), tx.Size(), want.Hash(), want.Size())
		}
	}
}

func TestValidateAndBuild(t *testing.T) {
	tx := transaction.New([]byte{0x11}, 7, 10, 20, 30)
	if err := tx.Validate(); !errors.Is(err, transaction.ErrNoSigners) {
		t.Fatalf("no signers: %v", err)
	}
	tx.Signers = []transaction.Signer{{Account: hash.Uint160{1}, Scopes: transaction.CalledByEntry}}
	tx.Witnesses = []transaction.Witness{{InvocationScript: []byte{}, VerificationScript: []byte{0x11}}}
	if err := tx.Validate(); err != nil {
		t.Fatal(err)
	}
	back, err := transaction.NewTransactionFromBytes(tx.Bytes())
	if err != nil || back.Hash() != tx.Hash() {
		t.Fatalf("round trip: %v", err)
	}
	sd := tx.SignData(860833102)
	h := tx.Hash()
	if !bytes.Equal(sd[:4], []byte("NEO3")) || !bytes.Equal(sd[4:], h[:]) {
		t.Fatalf("sign data %x", sd)
	}
	if tx.Sender() != (hash.Uint160{1}) || !tx.HasSigner(hash.Uint160{1}) || tx.HasSigner(hash.Uint160{2}) {
		t.Fatal("signer helpers")
	}
	if err := tx.CheckSize(); err != nil {
		t.Fatal(err)
	}
	big := transaction.New(make([]byte, transaction.MaxTransactionSize), 0, 0, 0, 0)
	big.Signers, big.Witnesses = tx.Signers, tx.Witnesses
	if err := big.CheckSize(); !errors.Is(err, transaction.ErrOversized) {
		t.Fatal("oversized accepted")
	}
	tx.Signers = append(tx.Signers, tx.Signers[0])
	if err := tx.Copy().Validate(); !errors.Is(err, transaction.ErrDuplicateSigner) {
		t.Fatalf("duplicate signer: %v", err)
	}
}

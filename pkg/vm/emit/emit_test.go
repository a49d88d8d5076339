package emit

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"math/big"
	"os"
	"strings"
	"testing"

	"github.com/n3node/n3node/pkg/crypto/hash"
	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/vm/opcode"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

func script(t *testing.T, f func(w *nio.BinWriter)) string {
	t.Helper()
	b, err := Script(f)
	if err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}

func TestInt(t *testing.T) {
	bi := func(s string) *big.Int {
		x, _ := new(big.Int).SetString(s, 10)
		return x
	}
	cases := []struct {
		v    *big.Int
		want string
	}{
		{bi("-1"), "0f"},
		{bi("0"), "10"},
		{bi("16"), "20"},
		{bi("17"), "0011"},
		{bi("-2"), "00fe"},
		{bi("127"), "007f"},
		{bi("128"), "018000"},
		{bi("-128"), "0080"},
		{bi("-129"), "017fff"},
		{bi("255"), "01ff00"},
		{bi("32768"), "0200800000"},
		{bi("65535"), "02ffff0000"},
		{bi("-65536"), "020000ffff"},
		{bi("2147483648"), "030000008000000000"},
		{bi("9223372036854775807"), "03ffffffffffffff7f"},
		{bi("-9223372036854775808"), "030000000000000080"},
		{bi("9223372036854775808"), "0400000000000000800000000000000000"},
		{bi("-9223372036854775809"), "04ffffffffffffff7fffffffffffffffff"},
		{bi("57896044618658097711785492504343953926634992332820282019728792003956564819967"), "05ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"},
		{bi("-57896044618658097711785492504343953926634992332820282019728792003956564819968"), "050000000000000000000000000000000000000000000000000000000000000080"},
	}
	for _, c := range cases {
		if got := script(t, func(w *nio.BinWriter) { BigInt(w, c.v) }); got != c.want {
			t.Errorf("BigInt(%s) = %s, want %s", c.v, got, c.want)
		}
		if c.v.IsInt64() {
			if got := script(t, func(w *nio.BinWriter) { Int(w, c.v.Int64()) }); got != c.want {
				t.Errorf("Int(%s) = %s, want %s", c.v, got, c.want)
			}
		}
	}
	_, err := Script(func(w *nio.BinWriter) { BigInt(w, new(big.Int).Lsh(big.NewInt(1), 255)) })
	if !errors.Is(err, ErrTooBig) {
		t.Errorf("2^255: %v", err)
	}
}

func TestBytesAndJumps(t *testing.T) {
	for n, prefix := range map[int]string{0: "0c00", 255: "0cff", 256: "0d0001", 65535: "0dffff", 65536: "0e00000100"} {
		got := script(t, func(w *nio.BinWriter) { Bytes(w, make([]byte, n)) })
		if !strings.HasPrefix(got, prefix) || len(got) != len(prefix)+2*n {
			t.Errorf("Bytes(%d) prefix %s", n, got[:min(len(got), 12)])
		}
	}
	cases := []struct {
		op   opcode.Opcode
		off  int32
		want string
	}{
		{opcode.JMP, 5, "2205"},
		{opcode.JMP, -128, "2280"},
		{opcode.JMP, 128, "2380000000"},
		{opcode.JMPIFNOT, -200, "2738ffffff"},
		{opcode.CALL, 3, "3403"},
		{opcode.CALL, 300, "352c010000"},
		{opcode.JMPL, 1, "2301000000"},
		{opcode.ENDTRY, 200, "3ec8000000"},
	}
	for _, c := range cases {
		if got := script(t, func(w *nio.BinWriter) { Jmp(w, c.op, c.off) }); got != c.want {
			t.Errorf("Jmp(%s, %d) = %s, want %s", c.op, c.off, got, c.want)
		}
	}
	if _, err := Script(func(w *nio.BinWriter) { Jmp(w, opcode.ADD, 1) }); err == nil {
		t.Error("Jmp(ADD) accepted")
	}
	if got := script(t, func(w *nio.BinWriter) { Try(w, 3, 0) }); got != "3b0300" {
		t.Errorf("Try = %s", got)
	}
	if got := script(t, func(w *nio.BinWriter) { Try(w, 300, 0) }); got != "3c2c01000000000000" {
		t.Errorf("Try_L = %s", got)
	}
}

func TestCompounds(t *testing.T) {
	if got := script(t, func(w *nio.BinWriter) { Array(w) }); got != "c2" {
		t.Errorf("empty array %s", got)
	}
	// [1, "a", true] pushes true, "a", 1, then 3 and PACK.
	if got := script(t, func(w *nio.BinWriter) { Array(w, 1, "a", true) }); got != "080c01611113c0" {
		t.Errorf("array %s", got)
	}
	if got := script(t, func(w *nio.BinWriter) { Map(w, KeyValue{"k", 2}) }); got != "120c016b11be" {
		t.Errorf("map %s", got)
	}
	if got := script(t, func(w *nio.BinWriter) { Struct(w, nil) }); got != "0b11bf" {
		t.Errorf("struct %s", got)
	}
	item := stackitem.NewArray([]stackitem.Item{stackitem.NewBuffer([]byte{1}), stackitem.NewStruct(nil)})
	if got := script(t, func(w *nio.BinWriter) { StackItem(w, item) }); got != "c50c0101db3012c0" {
		t.Errorf("stack item %s", got)
	}
	if _, err := Script(func(w *nio.BinWriter) { Any(w, struct{}{}) }); !errors.Is(err, ErrUnsupported) {
		t.Errorf("struct{}: %v", err)
	}
}

func TestAppCall(t *testing.T) {
	var h hash.Uint160
	for i := range h {
		h[i] = byte(i)
	}
	got := script(t, func(w *nio.BinWriter) { AppCall(w, h, "transfer", uint8(15), 7) })
	want := "17" + "11c0" + "1f" + "0c087472616e73666572" + "0c14" + hex.EncodeToString(h[:]) + "41627d5b52"
	if got != want {
		t.Errorf("AppCall\n got %s\nwant %s", got, want)
	}
}

// Native contract hashes come from scripts built with EmitPush.
func TestReferenceScripts(t *testing.T) {
	data, err := os.ReadFile("testdata/scripts.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Natives []struct {
			Name   string `json:"name"`
			Hash   string `json:"hash_le_bytes_hex"`
			Deploy string `json:"deploy_script_hex"`
		} `json:"native_contracts"`
		Keys []struct {
			Key    string `json:"public_key_compressed"`
			Script string `json:"verification_script_hex"`
			Hash   string `json:"script_hash_le_bytes_hex"`
		} `json:"key_vectors"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	if len(f.Natives) == 0 || len(f.Keys) == 0 {
		t.Fatal("no vectors")
	}
	for _, n := range f.Natives {
		b, err := Script(func(w *nio.BinWriter) {
			Opcodes(w, opcode.ABORT)
			Bytes(w, make([]byte, 20))
			Int(w, 0)
			String(w, n.Name)
		})
		if err != nil {
			t.Fatal(err)
		}
		if hex.EncodeToString(b) != n.Deploy {
			t.Errorf("%s: script %x, want %s", n.Name, b, n.Deploy)
		}
		if h := hash.Hash160(b); hex.EncodeToString(h[:]) != n.Hash {
			t.Errorf("%s: hash %x, want %s", n.Name, h, n.Hash)
		}
	}
	for _, k := range f.Keys {
		key, _ := hex.DecodeString(k.Key)
		b, _ := Script(func(w *nio.BinWriter) { CheckSig(w, key) })
		if hex.EncodeToString(b) != k.Script {
			t.Errorf("CheckSig script %x, want %s", b, k.Script)
		}
		if h := hash.Hash160(b); hex.EncodeToString(h[:]) != k.Hash {
			t.Errorf("CheckSig hash %x", h)
		}
	}
}

// IntNeoGo differs from Int only at 16 (neo-go's PUSHINT8 16).
func TestIntNeoGo(t *testing.T) {
	for _, v := range []int64{-129, -1, 0, 15, 16, 17, 127, 128, 1 << 40} {
		a, b := nio.NewBufBinWriter(), nio.NewBufBinWriter()
		Int(a, v)
		IntNeoGo(b, v)
		want := a.Bytes()
		if v == 16 {
			want = []byte{byte(opcode.PUSHINT8), 16}
		}
		if !bytes.Equal(b.Bytes(), want) {
			t.Errorf("%d: %x, want %x", v, b.Bytes(), want)
		}
	}
}

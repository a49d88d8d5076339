package interopid

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"strconv"
	"testing"
)

// testdata/syscalls.json lists every syscall of the C# node with its id.
func TestFromName(t *testing.T) {
	data, err := os.ReadFile("testdata/syscalls.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Syscalls []struct {
			Name    string `json:"name"`
			ID      string `json:"id_u32"`
			Operand string `json:"syscall_operand_bytes_hex"`
		} `json:"interop_syscalls"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	if len(f.Syscalls) == 0 {
		t.Fatal("no syscalls")
	}
	for _, s := range f.Syscalls {
		want, err := strconv.ParseUint(s.ID[2:], 16, 32)
		if err != nil {
			t.Fatal(err)
		}
		if got := FromName(s.Name); got != uint32(want) {
			t.Errorf("%s: %08x, want %s", s.Name, got, s.ID)
		}
		if b := Bytes(s.Name); hex.EncodeToString(b[:]) != s.Operand {
			t.Errorf("%s: operand %x, want %s", s.Name, b, s.Operand)
		}
	}
	t.Logf("%d syscall ids", len(f.Syscalls))
}

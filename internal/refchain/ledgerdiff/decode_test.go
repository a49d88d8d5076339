package ledgerdiff_test

import (
	"errors"
	"testing"

	"github.com/n3node/n3node/internal/refchain/ledgerdiff"
	"github.com/n3node/n3node/internal/testchain"
	"github.com/n3node/n3node/pkg/core"
	"github.com/n3node/n3node/pkg/core/storage"
)

// A block that does not decode stops the import and is reported, not
// dropped.
func TestCompareReportsDecodeError(t *testing.T) {
	c := testchain.New(t)
	b1 := c.AddBlock()
	g, err := c.BC.GetBlockByIndex(0)
	if err != nil {
		t.Fatal(err)
	}
	blocks := [][]byte{g.Bytes(), b1.Bytes(), {0xde, 0xad}}
	rep, err := ledgerdiff.Compare(c.Cfg, blocks, nil, nil, storage.NewMemoryStore(), core.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !errors.Is(rep.Err, ledgerdiff.ErrDecode) {
		t.Fatalf("Err = %v, want ErrDecode", rep.Err)
	}
	if rep.Imported != 1 {
		t.Fatalf("imported %d blocks, want 1", rep.Imported)
	}
}

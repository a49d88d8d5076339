package dbcmd

import (
	"fmt"
	"os"

	"github.com/n3node/n3node/pkg/core"
	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/chaindump"
)

// storageDumper returns the callback of `db restore --dump DIR`: after
// each committed block it adds the block's storage batch to the dump in
// dir (chaindump.StorageDumper: neo-go's layout and JSON lines); called
// with nil at the end, it writes what is pending.
func storageDumper(bc *core.Blockchain, dir string) (func(*block.Block) error, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	d := chaindump.NewStorageDumper(dir)
	// A chain created by this command has the genesis batch (neo-go's
	// dump starts with it too).
	if g := bc.LastStorageBatch(); g != nil && g.Index == 0 {
		if err := d.Add(g); err != nil {
			return nil, err
		}
	}
	return func(b *block.Block) error {
		if b == nil {
			return d.Flush()
		}
		batch := bc.LastStorageBatch()
		if batch == nil || batch.Index != b.Index {
			return fmt.Errorf("no storage batch for block %d", b.Index)
		}
		return d.Add(batch)
	}, nil
}

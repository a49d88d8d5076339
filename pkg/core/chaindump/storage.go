package chaindump

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Storage change states of a StorageChange (neo-go's dboper.Operation).
const (
	StorageAdded   = "Added"
	StorageChanged = "Changed"
	StorageDeleted = "Deleted"
)

// StorageChange is one contract-storage change of a block: Key is the
// storage key without the 0x70 prefix byte (contract ID LE, then the
// item's key), Value the new value (none for StorageDeleted).
type StorageChange struct {
	State string `json:"state"`
	Key   []byte `json:"key"`
	Value []byte `json:"value,omitzero"`
}

// StorageBatch is the contract-storage change set of one block (the
// ledger keeps it with SaveStorageBatch). Its JSON form is one line of a
// storage dump: {"block":N,"size":len(storage),"storage":[...]}.
type StorageBatch struct {
	Index   uint32          `json:"block"`
	Size    int             `json:"size"`
	Changes []StorageChange `json:"storage"`
}

// Storage dump layout (neo-go's `db restore --dump DIR`): the batches of
// blocks [F, F+999] are JSON lines of DIR/BlockStorage_D/dump-block-F.dump,
// D = F rounded down to a multiple of 100000.
const (
	storageDumpFile = 1000
	storageDumpDir  = 100000
)

// StorageDumper collects storage batches and writes them to a storage
// dump directory. Flush writes what it holds; it is called by Add at
// the end of every file's range and must be called at the end.
type StorageDumper struct {
	dir     string
	pending []*StorageBatch
}

// NewStorageDumper returns a dumper writing under dir.
func NewStorageDumper(dir string) *StorageDumper { return &StorageDumper{dir: dir} }

// StorageDumpPath returns the file holding the batch of block index.
func StorageDumpPath(dir string, index uint32) string {
	return filepath.Join(dir, fmt.Sprintf("BlockStorage_%d", index/storageDumpDir*storageDumpDir),
		fmt.Sprintf("dump-block-%d.dump", index/storageDumpFile*storageDumpFile))
}

// Add takes the batch of the next block (b.Size is set here).
func (d *StorageDumper) Add(b *StorageBatch) error {
	b.Size = len(b.Changes)
	d.pending = append(d.pending, b)
	if (b.Index+1)%storageDumpFile == 0 {
		return d.Flush()
	}
	return nil
}

// Flush appends the pending batches to their file (one file: the pending
// batches never span two, as Add flushes at each file's end).
func (d *StorageDumper) Flush() error {
	if len(d.pending) == 0 {
		return nil
	}
	path := StorageDumpPath(d.dir, d.pending[0].Index)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(f)
	for _, b := range d.pending {
		if err := enc.Encode(b); err != nil {
			_ = f.Close()
			return err
		}
	}
	if err := f.Close(); err != nil {
		return err
	}
	d.pending = d.pending[:0]
	return nil
}

// ReadStorageDump reads the batches of one storage dump file.
func ReadStorageDump(r io.Reader) ([]StorageBatch, error) {
	dec := json.NewDecoder(r)
	var out []StorageBatch
	for {
		var b StorageBatch
		if err := dec.Decode(&b); errors.Is(err, io.EOF) {
			return out, nil
		} else if err != nil {
			return out, fmt.Errorf("storage dump entry %d: %w", len(out), err)
		}
		out = append(out, b)
	}
}

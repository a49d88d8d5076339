package chaindump

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/crypto/hash"
)

// Chain is the ledger Restore imports into; *core.Blockchain implements it.
type Chain interface {
	// BlockHeight is the index of the latest committed block.
	BlockHeight() uint32
	// GetHeaderHash returns the hash of the block at index (at most the
	// height).
	GetHeaderHash(index uint32) hash.Uint256
	// AddBlocks adds the blocks read from in, in order, until in is
	// closed, ctx ends or a block fails; every block before a failing one
	// is committed.
	AddBlocks(ctx context.Context, in <-chan *block.Block) error
}

// RestoreOptions tune Restore.
type RestoreOptions struct {
	// Count, when not 0, is the most blocks imported.
	Count uint32
	// StateRootInHeader reads blocks in that header format (the
	// network's setting).
	StateRootInHeader bool
	// Added, when set, is called after each block is committed, in order;
	// bc must then be a StreamChain. An error from it ends the import.
	Added func(*block.Block) error
}

// StreamChain is a Chain that reports each committed block
// (core.Blockchain.AddBlockStream).
type StreamChain interface {
	AddBlockStream(ctx context.Context, in <-chan *block.Block, added func(*block.Block)) error
}

// ErrOtherChain is wrapped by Restore's error when a block of the dump
// that the chain already has differs from the chain's: the dump is of
// another chain.
var ErrOtherChain = errors.New("another chain")

// restoreReadAhead is the number of decoded blocks waiting for the chain:
// with the chain's own lookahead it keeps the pipeline fed while bounding
// the memory held by blocks in flight (docs/ledger.md, "Memory").
const restoreReadAhead = 16

// headerIndexOffset is where a serialized block's index sits: version (4),
// previous hash, merkle root, timestamp (8), nonce (8).
const headerIndexOffset = 4 + hash.Uint256Size + hash.Uint256Size + 8 + 8

// Restore imports the blocks of a dump into bc, from the one after bc's
// height: the dump's blocks the chain already has are skipped after their
// hashes are checked (ErrOtherChain), so a restore that was interrupted or
// limited by Count continues when run again. Blocks are decoded on a
// goroutine of their own, a few ahead of the chain.
//
// When ctx ends, Restore stops with what has been committed and returns an
// error wrapping ctx's. A block the chain refuses ends the import with an
// error naming the block's index; a damaged record (ErrFormat, a block
// that does not decode) ends it after the blocks before it are imported.
// The caller owns r and bc (Restore closes neither).
func Restore(ctx context.Context, bc Chain, r *Reader, o RestoreOptions) error {
	sc, ok := bc.(StreamChain)
	if o.Added != nil && !ok {
		return errors.New("chaindump: RestoreOptions.Added needs a StreamChain")
	}
	height := bc.BlockHeight()
	rctx, stopReading := context.WithCancel(ctx)
	defer stopReading()
	blocks := make(chan *block.Block, restoreReadAhead)
	readErr := make(chan error, 1)
	go func() {
		defer close(blocks)
		readErr <- feedBlocks(rctx, bc, r, height, o, blocks)
	}()
	var err error
	if o.Added == nil {
		err = bc.AddBlocks(ctx, blocks)
	} else {
		actx, stopAdding := context.WithCancelCause(ctx)
		err = sc.AddBlockStream(actx, blocks, func(b *block.Block) {
			if aerr := o.Added(b); aerr != nil {
				stopAdding(aerr)
			}
		})
		if cause := context.Cause(actx); cause != nil && !errors.Is(cause, context.Canceled) {
			err = cause
		}
		stopAdding(nil)
	}
	if err != nil {
		err = fmt.Errorf("block %d: %w", bc.BlockHeight()+1, err)
	}
	// The reader may wait on a full channel the chain no longer reads.
	stopReading()
	for range blocks {
	}
	// With the chain done without error, the reader ended on its own:
	// its error is the import's.
	if rErr := <-readErr; err == nil {
		err = rErr
	}
	if err != nil && ctx.Err() != nil && errors.Is(err, ctx.Err()) {
		return fmt.Errorf("interrupted at height %d: %w", bc.BlockHeight(), ctx.Err())
	}
	return err
}

// feedBlocks sends the blocks of r above height to out, at most o.Count
// of them (0: all), checking the hashes of those at or below height.
func feedBlocks(ctx context.Context, bc Chain, r *Reader, height uint32, o RestoreOptions, out chan<- *block.Block) error {
	unsigned := block.UnsignedSize(o.StateRootInHeader)
	for sent := uint32(0); o.Count == 0 || sent < o.Count; {
		raw, err := r.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if len(raw) < unsigned {
			return fmt.Errorf("%w: block record of %d bytes", ErrFormat, len(raw))
		}
		idx := binary.LittleEndian.Uint32(raw[headerIndexOffset:])
		if idx <= height {
			if hash.Sha256(raw[:unsigned]) != bc.GetHeaderHash(idx) {
				return fmt.Errorf("block %d of the dump is not the database's block %d: %w", idx, idx, ErrOtherChain)
			}
			continue
		}
		b, err := block.DecodeOwnedBlock(raw, o.StateRootInHeader)
		if err != nil {
			return fmt.Errorf("block %d: %w", idx, err)
		}
		select {
		case out <- b:
			sent++
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

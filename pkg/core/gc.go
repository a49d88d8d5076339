package core

import (
	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/core/transferlog"
)

// collectGarbage runs the RemoveUntraceableBlocks collection after the
// block at height (a multiple of GarbageCollectionPeriod): blocks, their
// transactions and results, header hashes and transfer batches older than
// MaxTraceableBlocks (rounded down to the period), and the trie nodes that
// died by then. None of it is state the chain still reads, so it goes
// straight into the committed layer.
func (bc *Blockchain) collectGarbage(height uint32) {
	bc.gcMu.Lock()
	defer bc.gcMu.Unlock()
	mtb := bc.GetMaxTraceableBlocks()
	period := bc.cfg.GarbageCollectionPeriod
	if uint64(height) <= uint64(mtb)+uint64(period) {
		return
	}
	target := (height - mtb) / period * period
	if target <= bc.gcLast {
		return
	}
	tgtHdr, err := bc.GetHeaderByIndex(target)
	if err != nil {
		bc.log.Warn("garbage collection: no header", "index", target, "err", err)
		return
	}
	d := bc.dao.GetPrivate()
	removed := 0
	for i := bc.gcLast; i < target; i++ {
		h := bc.GetHeaderHash(i)
		if h.IsZero() {
			continue
		}
		if _, err := d.DeleteBlock(h); err != nil {
			bc.log.Warn("garbage collection: removing block", "index", i, "err", err)
			continue
		}
		if i > 0 {
			d.DeleteHeaderHash(i)
		}
		removed++
	}
	if _, err := d.Persist(); err != nil {
		bc.log.Error("garbage collection: blocks", "err", err)
		return
	}
	bc.gcLast = target
	for _, p := range transferlog.Prefixes {
		if err := bc.dao.Store.SeekGC(storage.SeekRange{Prefix: p, Backwards: true}, transferlog.GCKeep(tgtHdr.Timestamp)); err != nil {
			bc.log.Error("garbage collection: transfers", "err", err)
		}
	}
	nodes, err := bc.state.CollectGarbage(bc.dao.Store, target)
	if err != nil {
		bc.log.Error("garbage collection: trie nodes", "err", err)
	}
	bc.log.Info("garbage collection done", "below", target, "blocks", removed, "trieNodes", nodes)
}

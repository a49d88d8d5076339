package core

import (
	"fmt"

	"github.com/n3node/n3node/pkg/core/block"
)

// AddHeadersForTest links headers to the header chain without verifying
// their witnesses (state sync tests; the ledger's verifying AddHeaders is
// what the network uses).
func (bc *Blockchain) AddHeadersForTest(hs ...*block.Header) error {
	for _, h := range hs {
		top := bc.headers.topHeader()
		if h.Index <= top.Index {
			continue
		}
		if h.Index != top.Index+1 || h.PrevHash != top.Hash() {
			return fmt.Errorf("%w: header %d", ErrHdrHashMismatch, h.Index)
		}
		if err := bc.headers.add(h); err != nil {
			return err
		}
	}
	return nil
}

package notary_test

import (
	"testing"
	"time"

	"github.com/n3node/n3node/internal/testchain"
	"github.com/n3node/n3node/pkg/core"
	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/services/notary"
)

// busyChain is a chain delivering block events when a subscriber leaves:
// UnsubscribeFromBlocks fills the channel and blocks on one more block
// until it is read, as the chain's dispatcher may (core.Blockchain:
// "keep reading ch until UnsubscribeFromBlocks returns").
type busyChain struct{ *core.Blockchain }

func (c busyChain) UnsubscribeFromBlocks(ch chan<- *block.Block) {
	b, err := c.GetBlock(c.CurrentBlockHash())
	if err != nil {
		panic(err)
	}
	for range cap(ch) + 1 {
		ch <- b
	}
	c.Blockchain.UnsubscribeFromBlocks(ch)
}

func shutsDown(t *testing.T, name string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		f()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatalf("%s: Shutdown blocked while the chain was delivering a block", name)
	}
}

// TestShutdownWhileDelivering: the pool and the service keep reading the
// block channel until the chain lets it go (they used to stop reading
// first and wait for the chain forever).
func TestShutdownWhileDelivering(t *testing.T) {
	c := testchain.New(t, testchain.Options{Protocol: "  P2PSigExtensions: true\n"})
	bc := busyChain{c.BC}
	pool := notary.NewRequestPool(bc, 10)
	pool.Start()
	svc, err := notary.New(notary.Config{Chain: bc, Pool: pool, Keys: testchain.Keys(t, 9, 1)})
	if err != nil {
		t.Fatal(err)
	}
	svc.Start()
	shutsDown(t, "service", svc.Shutdown)
	shutsDown(t, "pool", pool.Shutdown)
}

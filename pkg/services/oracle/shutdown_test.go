package oracle_test

import (
	"testing"
	"time"

	"github.com/n3node/n3node/internal/testchain"
	"github.com/n3node/n3node/pkg/core"
	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/services/oracle"
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

// TestShutdownWhileDelivering: Shutdown keeps reading the block channel
// until the chain lets it go (it used to stop reading first and wait for
// the chain forever).
func TestShutdownWhileDelivering(t *testing.T) {
	c := testchain.New(t)
	svc, err := oracle.New(oracle.Config{Chain: busyChain{c.BC}, Keys: testchain.Keys(t, 7, 1), Broadcaster: &fakeBroadcaster{}})
	if err != nil {
		t.Fatal(err)
	}
	svc.Start()
	done := make(chan struct{})
	go func() {
		svc.Shutdown()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Shutdown blocked while the chain was delivering a block")
	}
}

package rpcclient

import (
	"context"
	"testing"

	"github.com/n3node/n3node/pkg/rpcserver"
)

// BenchmarkRoundTripSendRaw is one sendrawtransaction (250-byte tx) through
// the client, loopback TCP and the server, answered by a trivial handler.
func BenchmarkRoundTripSendRaw(b *testing.B) {
	_, ln := newTestServer(b, rpcserver.Config{})
	c := newClient(b, ln.Addr().String(), Options{})
	tx := make([]byte, 250)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.SendRawTransaction(ctx, tx); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRoundTripSendRawParallel runs the same with GOMAXPROCS*4
// concurrent workers (8 on the 2-core reference machine), like the load
// generator's worker pool.
func BenchmarkRoundTripSendRawParallel(b *testing.B) {
	_, ln := newTestServer(b, rpcserver.Config{})
	c := newClient(b, ln.Addr().String(), Options{})
	ctx := context.Background()
	b.ReportAllocs()
	b.SetParallelism(4)
	b.RunParallel(func(pb *testing.PB) {
		tx := make([]byte, 250)
		for pb.Next() {
			if _, err := c.SendRawTransaction(ctx, tx); err != nil {
				b.Fatal(err)
			}
		}
	})
}

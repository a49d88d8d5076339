package network

import (
	"testing"
	"time"

	"github.com/n3node/n3node/pkg/config"
)

func TestNewServerConfig(t *testing.T) {
	cfg, err := config.LoadNetwork("mainnet")
	if err != nil {
		t.Fatal(err)
	}
	sc, err := NewServerConfig(cfg, "/n3node:test/")
	if err != nil {
		t.Fatal(err)
	}
	if sc.Magic != 860833102 || sc.UserAgent != "/n3node:test/" || len(sc.Seeds) == 0 || len(sc.Addresses) == 0 {
		t.Fatalf("%+v", sc)
	}
	if sc.MaxPeers <= 0 || sc.AttemptConnPeers <= 0 || sc.PingInterval <= 0 || sc.TimePerBlock <= 0 || sc.BroadcastTxsBatchDelay <= 0 {
		t.Fatalf("defaults not applied: %+v", sc)
	}
	d := ServerConfig{}.withDefaults()
	if d.SyncTimeout != 30*time.Second || d.HandshakeTimeout != DefaultHandshakeTimeout || d.RetryBackoff != DefaultDialTimeout ||
		d.Now == nil || d.Rand == nil || d.Listen == nil || d.Dial == nil || d.Logger == nil {
		t.Fatalf("withDefaults: %+v", d)
	}
}

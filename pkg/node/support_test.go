package node

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/n3node/n3node/pkg/config"
)

// TestNewRefusesUnsupported: a configuration that turns on a setting
// n3node does not implement (here neo-go's NeoFS block fetcher, as in its
// mainnet.neofs sample) is refused before anything is opened, with an error
// naming the setting; nothing is written to the database directory.
func TestNewRefusesUnsupported(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "db")
	cfg := testConfig(t, dir)
	cfg.ApplicationConfiguration.NeoFSBlockFetcher.Enabled = true
	cfg.ApplicationConfiguration.NeoFSStateFetcher.Enabled = true
	_, err := New(&cfg, Options{Logger: testLogger(t)})
	if !errors.Is(err, config.ErrUnsupported) ||
		!strings.Contains(err.Error(), "ApplicationConfiguration.NeoFSBlockFetcher.Enabled: ") ||
		!strings.Contains(err.Error(), "ApplicationConfiguration.NeoFSStateFetcher.Enabled: ") {
		t.Fatalf("New: %v", err)
	}
	t.Log(err)
	if _, serr := os.Stat(dir); !os.IsNotExist(serr) {
		t.Fatalf("database directory: %v", serr)
	}
}

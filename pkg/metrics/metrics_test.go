package metrics

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/prometheus/client_golang/prometheus"
)

type fakeSource struct{}

func (fakeSource) BlockHeight() uint32  { return 42 }
func (fakeSource) HeaderHeight() uint32 { return 50 }
func (fakeSource) MempoolSize() int     { return 7 }
func (fakeSource) PeerCount() int       { return 3 }
func (fakeSource) BlockQueueLen() int   { return 8 }
func (fakeSource) PersistStats() (int64, int64, int) {
	return 1000, 10, 500
}
func (fakeSource) PendingKeys() int { return 12 }
func (fakeSource) WritesPaused() error {
	return fmt.Errorf("%w: 10 bytes free", storage.ErrDiskFull)
}
func (fakeSource) PersistedHeight() uint32     { return 41 }
func (fakeSource) KnownAddresses() int         { return 9 }
func (fakeSource) NotaryPoolSize() int         { return 2 }
func (fakeSource) VerifiedStateHeight() uint32 { return 40 }
func (fakeSource) WSClients() int              { return 4 }
func (fakeSource) Identity() (string, uint32)  { return "0.1.0-dev", 777 }

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

func TestPrometheus(t *testing.T) {
	reg := NewRegistry()
	m := NewNode(reg, fakeSource{})
	m.ObserveBlock("consensus", 3*time.Millisecond, 5)
	m.ObserveRPC("getblockcount", time.Millisecond, true)
	m.ObserveRPC("getblockcount", time.Millisecond, false)
	var nilNode *Node
	nilNode.ObserveBlock("x", 0, 0) // no-op
	nilNode.ObserveRPC("x", 0, true)

	s := NewPrometheus(config.BasicService{Enabled: true, Addresses: []string{"127.0.0.1:0"}}, reg, nil)
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	if err := s.Start(); err != ErrStarted {
		t.Fatalf("second Start: %v", err)
	}
	code, body := get(t, "http://"+s.Addresses()[0]+"/metrics")
	if code != http.StatusOK {
		t.Fatal(code)
	}
	for _, want := range []string{
		"n3node_block_height 42", "n3node_header_height 50", "n3node_mempool_unsorted_tx 7",
		"n3node_peers_connected 3", "n3node_block_queue_length 8", "n3node_persisted_keys_total 1000",
		"n3node_persists_total 10", "n3node_estimated_persist_velocity 500", "n3node_pending_keys 12",
		`n3node_db_writes_paused{reason="disk_full"} 1`,
		`n3node_block_add_seconds_count{origin="consensus"} 1`, "n3node_block_transactions_sum 5",
		`n3node_rpc_requests_total{method="getblockcount",result="ok"} 1`,
		`n3node_rpc_requests_total{method="getblockcount",result="error"} 1`,
		`n3node_rpc_request_seconds_count{method="getblockcount"} 2`,
		"go_goroutines", "process_cpu_seconds_total",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("no %q in\n%s", want, body)
		}
	}
	if err := s.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := http.Get("http://" + s.Addresses()[0] + "/metrics"); err == nil {
		t.Fatal("still serving after Shutdown")
	}
}

func TestPprof(t *testing.T) {
	s := NewPprof(config.Pprof{BasicService: config.BasicService{Enabled: true, Addresses: []string{"127.0.0.1:0", "127.0.0.1:0"}}}, nil)
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	defer s.Shutdown(context.Background())
	if len(s.Addresses()) != 2 {
		t.Fatal(s.Addresses())
	}
	code, body := get(t, "http://"+s.Addresses()[1]+"/debug/pprof/")
	if code != http.StatusOK || !strings.Contains(body, "goroutine") {
		t.Fatalf("%d %s", code, body)
	}
	code, _ = get(t, "http://"+s.Addresses()[0]+"/debug/pprof/goroutine?debug=1")
	if code != http.StatusOK {
		t.Fatal(code)
	}
}

func TestDisabled(t *testing.T) {
	for _, s := range []*Service{
		NewPrometheus(config.BasicService{Addresses: []string{"127.0.0.1:0"}}, prometheus.NewRegistry(), nil),
		NewPprof(config.Pprof{}, nil),
		NewPrometheus(config.BasicService{Enabled: true}, prometheus.NewRegistry(), nil),
	} {
		if s.Enabled() {
			t.Fatalf("%s enabled", s.Name())
		}
		if err := s.Start(); err != nil || len(s.Addresses()) != 0 {
			t.Fatal(err, s.Addresses())
		}
		if err := s.Shutdown(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
}

// TestPortInUse: a port conflict is an error of Start and nothing is
// left listening.
func TestPortInUse(t *testing.T) {
	a := NewPprof(config.Pprof{BasicService: config.BasicService{Enabled: true, Addresses: []string{"127.0.0.1:0"}}}, nil)
	if err := a.Start(); err != nil {
		t.Fatal(err)
	}
	defer a.Shutdown(context.Background())
	b := NewPrometheus(config.BasicService{Enabled: true, Addresses: []string{"127.0.0.1:0", a.Addresses()[0]}}, prometheus.NewRegistry(), nil)
	if err := b.Start(); err == nil || !strings.Contains(err.Error(), "listen on") {
		t.Fatalf("Start: %v", err)
	}
	if len(b.Addresses()) != 0 {
		t.Fatal(b.Addresses())
	}
}

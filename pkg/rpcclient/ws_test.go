package rpcclient

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/neorpc"
	"github.com/n3node/n3node/pkg/rpcserver"
	"github.com/n3node/n3node/pkg/smartcontract"
)

func dial(t testing.TB, addr string) *WSClient {
	t.Helper()
	c, err := DialWS(context.Background(), "ws://"+addr+"/ws", WSOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func recv(t testing.TB, ch <-chan Notification) (Notification, bool) {
	t.Helper()
	select {
	case n, ok := <-ch:
		return n, ok
	case <-time.After(10 * time.Second):
		t.Fatal("no notification")
	}
	return Notification{}, false
}

func block(i uint32, primary byte) *rpcserver.Event {
	return &rpcserver.Event{
		ID:      neorpc.BlockEventID,
		Payload: json.RawMessage(fmt.Sprintf(`{"hash":"0x00","index":%d,"primary":%d}`, i, primary)),
		Fields:  neorpc.EventFields{Index: i, Primary: primary},
	}
}

func TestWSClientCallsAndEvents(t *testing.T) {
	s, ln := newTestServer(t, rpcserver.Config{})
	c := dial(t, ln.Addr().String())
	ctx := context.Background()

	var n uint32
	if err := c.Call(ctx, "getblockcount", nil, &n); err != nil || n != 7 {
		t.Fatal(n, err)
	}
	var re *neorpc.Error
	if err := c.Call(ctx, "subscribe", []any{"nope"}, nil); !errors.As(err, &re) || re.Code != neorpc.InvalidParamsCode {
		t.Fatal(err)
	}
	blocks := make(chan Notification, 10)
	since := uint32(5)
	id1, err := c.Subscribe(ctx, neorpc.BlockEventID, neorpc.BlockFilter{Since: &since}, blocks)
	if err != nil || id1 != "0" {
		t.Fatal(id1, err)
	}
	primary := byte(3)
	id2, err := c.Subscribe(ctx, neorpc.BlockEventID, neorpc.BlockFilter{Primary: &primary}, blocks)
	if err != nil || id2 != "1" {
		t.Fatal(id2, err)
	}
	other := make(chan Notification, 10)
	if _, err := c.Subscribe(ctx, neorpc.BlockEventID, nil, other); err != nil {
		t.Fatal(err)
	}
	ntfs := make(chan Notification, 10)
	contract := hash.Uint160{9}
	name := "Transfer"
	if _, err := c.Subscribe(ctx, neorpc.NotificationEventID, neorpc.NotificationFilter{
		Contract: &contract, Name: &name,
		Parameters: []smartcontract.Parameter{{Type: neorpc.AnyType}, {Type: neorpc.IntegerType, Value: big.NewInt(5)}},
	}, ntfs); err != nil {
		t.Fatal(err)
	}

	s.Publish(block(4, 3)) // both channels
	s.Publish(block(6, 3)) // both subscriptions of blocks: once
	s.Publish(block(4, 1)) // other only
	ntf := func(v int) *rpcserver.Event {
		return &rpcserver.Event{
			ID: neorpc.NotificationEventID,
			Payload: json.RawMessage(fmt.Sprintf(`{"container":"0x00","contract":%q,"eventname":"Transfer","state":{"type":"Array","value":[{"type":"Any"},{"type":"Integer","value":"%d"}]}}`,
				contract.String(), v)),
			Fields: neorpc.EventFields{Contract: contract, Name: "Transfer", Items: []neorpc.StackValue{
				{}, {Kind: neorpc.StackInteger, Int: big.NewInt(int64(v))}}},
		}
	}
	s.Publish(ntf(4))
	s.Publish(ntf(5))

	for _, want := range []uint32{4, 6} {
		got, ok := recv(t, blocks)
		if !ok || got.Event != neorpc.BlockEventID || !strings.Contains(string(got.Payload), fmt.Sprintf(`"index":%d`, want)) {
			t.Fatalf("blocks: %v %s", ok, got.Payload)
		}
	}
	for _, want := range []string{`"index":4,"primary":3`, `"index":6`, `"index":4,"primary":1`} {
		got, _ := recv(t, other)
		if !strings.Contains(string(got.Payload), want) {
			t.Fatalf("other: %s, want %s", got.Payload, want)
		}
	}
	got, _ := recv(t, ntfs)
	if !strings.Contains(string(got.Payload), `"value":"5"`) {
		t.Fatalf("notification %s", got.Payload)
	}
	select {
	case n := <-blocks:
		t.Fatalf("extra block %s", n.Payload)
	case n := <-ntfs:
		t.Fatalf("extra notification %s", n.Payload)
	default:
	}

	if err := c.Unsubscribe(ctx, id1); err != nil {
		t.Fatal(err)
	}
	if err := c.Unsubscribe(ctx, id1); !errors.As(err, &re) || re.Code != neorpc.InvalidParamsCode {
		t.Fatal(err)
	}
}

func TestWSClientEventMissedClosesChannels(t *testing.T) {
	s, ln := newTestServer(t, rpcserver.Config{})
	c := dial(t, ln.Addr().String())
	ch := make(chan Notification) // unbuffered and not read: the server overflows
	if _, err := c.Subscribe(context.Background(), neorpc.BlockEventID, nil, ch); err != nil {
		t.Fatal(err)
	}
	big := json.RawMessage(`"` + strings.Repeat("x", 16<<10) + `"`)
	for i := range 3000 {
		s.Publish(&rpcserver.Event{ID: neorpc.BlockEventID, Payload: big, Fields: neorpc.EventFields{Index: uint32(i)}})
	}
	n := 0
	for {
		_, ok := recv(t, ch)
		if !ok {
			break
		}
		n++
	}
	if n == 0 || n >= 3000 {
		t.Fatalf("%d events before the channel closed", n)
	}
	// The connection is still usable.
	var count uint32
	if err := c.Call(context.Background(), "getblockcount", nil, &count); err != nil || count != 7 {
		t.Fatal(count, err)
	}
}

func TestWSClientServerShutdown(t *testing.T) {
	s, ln := newTestServer(t, rpcserver.Config{})
	c := dial(t, ln.Addr().String())
	ch := make(chan Notification, 1)
	if _, err := c.Subscribe(context.Background(), neorpc.TransactionEventID, nil, ch); err != nil {
		t.Fatal(err)
	}
	if err := s.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, ok := recv(t, ch); ok {
		t.Fatal("channel open after disconnection")
	}
	<-c.Done()
	if err := c.Call(context.Background(), "getblockcount", nil, nil); err != ErrWSClosed {
		t.Fatal(err)
	}
}

func TestFieldsFromJSON(t *testing.T) {
	a, b := hash.Uint160{1}, hash.Uint160{2}
	tx := fmt.Sprintf(`{"hash":"0x01","signers":[{"account":%q,"scopes":"CalledByEntry"},{"account":%q,"scopes":"None"}]}`, a.String(), b.String())
	f, err := FieldsFromJSON(neorpc.MempoolEventID, []byte(`{"type":"removed","transaction":`+tx+`}`))
	if err != nil || f.Type != neorpc.TransactionRemoved || f.Sender != a || len(f.Signers) != 2 || f.Signers[1] != b {
		t.Fatal(f, err)
	}
	f, err = FieldsFromJSON(neorpc.NotaryRequestEventID, []byte(`{"type":"added","notaryrequest":{"maintx":`+tx+`,"fallbacktx":`+tx+`}}`))
	if err != nil || f.Sender != b || len(f.Signers) != 2 {
		t.Fatal(f, err)
	}
	c := hash.Uint256{3}
	f, err = FieldsFromJSON(neorpc.ExecutionEventID, []byte(fmt.Sprintf(`{"container":%q,"trigger":"Application","vmstate":"FAULT"}`, c.String())))
	if err != nil || f.Container != c || f.VMState != "FAULT" {
		t.Fatal(f, err)
	}
	f, err = FieldsFromJSON(neorpc.NotificationEventID, []byte(`{"contract":"0x0000000000000000000000000000000000000001","eventname":"E","state":{"type":"Array","value":[{"type":"Boolean","value":true},{"type":"ByteString","value":"AAE="},{"type":"Buffer","value":"AAE="}]}}`))
	if err != nil || f.Name != "E" || len(f.Items) != 3 || f.Items[0].Kind != neorpc.StackBool ||
		f.Items[1].Kind != neorpc.StackByteString || string(f.Items[1].Bytes) != "\x00\x01" || f.Items[2].Kind != neorpc.StackOther {
		t.Fatal(f, err)
	}
}

package rpcclient

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/neorpc"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// Typed results of the JSON-RPC methods. Field names, types and key order
// follow neo-go 0.120.0's pkg/neorpc/result, so a result decoded here and
// encoded again gives the bytes neo-go sent (the tests check this against
// the recorded answers in testdata/refchain/rpc).

// Version is the getversion result.
type Version struct {
	TCPPort     uint16             `json:"tcpport"`
	WSPort      uint16             `json:"wsport,omitzero"`
	Nonce       uint32             `json:"nonce"`
	UserAgent   string             `json:"useragent"`
	Protocol    Protocol           `json:"protocol"`
	Application VersionApplication `json:"application,omitzero"`
	RPC         VersionRPC         `json:"rpc"`
}

// Protocol is the "protocol" part of getversion: the chain's settings.
type Protocol struct {
	AddressVersion              byte              `json:"addressversion"`
	Network                     uint32            `json:"network"`
	MillisecondsPerBlock        int               `json:"msperblock"`
	MaxTraceableBlocks          uint32            `json:"maxtraceableblocks"`
	MaxValidUntilBlockIncrement uint32            `json:"maxvaliduntilblockincrement"`
	MaxTransactionsPerBlock     uint16            `json:"maxtransactionsperblock"`
	MemoryPoolMaxTransactions   int               `json:"memorypoolmaxtransactions"`
	ValidatorsCount             byte              `json:"validatorscount"`
	InitialGasDistribution      int64             `json:"initialgasdistribution"`
	Hardforks                   []HardforkHeight  `json:"hardforks"`
	StandbyCommittee            []*keys.PublicKey `json:"standbycommittee"`
	SeedList                    []string          `json:"seedlist"`
	CommitteeHistory            map[uint32]uint32 `json:"committeehistory,omitzero"`
	P2PSigExtensions            bool              `json:"p2psigextensions,omitzero"`
	StateRootInHeader           bool              `json:"staterootinheader,omitzero"`
	ValidatorsHistory           map[uint32]uint32 `json:"validatorshistory,omitzero"`
}

// HardforkHeight is one enabled hardfork. neo-go prints bare names
// ("Echidna"), C# prefixes them with "HF_"; Name keeps what the node sent.
type HardforkHeight struct {
	Name   string `json:"name"`
	Height uint32 `json:"blockheight"`
}

// Hardfork returns the height of the named hardfork (with or without the
// "HF_" prefix) and whether the node has it enabled.
func (p *Protocol) Hardfork(name string) (uint32, bool) {
	name = strings.TrimPrefix(name, "HF_")
	for _, h := range p.Hardforks {
		if strings.TrimPrefix(h.Name, "HF_") == name {
			return h.Height, true
		}
	}
	return 0, false
}

// ValidatorsCountAt returns the number of validators at a height, from
// ValidatorsHistory when the node reports one (neo-go's rule: the entry
// with the greatest height not above h).
func (p *Protocol) ValidatorsCountAt(h uint32) uint32 {
	vc := uint32(p.ValidatorsCount)
	best := uint32(0)
	for height, n := range p.ValidatorsHistory {
		if height >= best && height <= h {
			vc, best = n, height
		}
	}
	return vc
}

// VersionApplication is the optional "application" part of getversion
// (neo-go only).
type VersionApplication struct {
	SaveInvocations         bool `json:"saveinvocations,omitzero"`
	KeepOnlyLatestState     bool `json:"keeponlylateststate,omitzero"`
	RemoveUntraceableBlocks bool `json:"removeuntraceableblocks,omitzero"`
}

// VersionRPC is the "rpc" part of getversion.
type VersionRPC struct {
	MaxIteratorResultItems  int  `json:"maxiteratorresultitems"`
	SessionEnabled          bool `json:"sessionenabled"`
	SessionExpansionEnabled bool `json:"sessionexpansionenabled,omitzero"`
}

// VM states as the RPC prints them.
const (
	StateHalt  = "HALT"
	StateFault = "FAULT"
)

// InvokeResult is the result of invokefunction, invokescript and
// invokecontractverify. Stack keeps every item in its RPC JSON form
// ({"type","value"}, or neo-go's iterator form for InteropInterface); Item
// and the typed helpers decode them.
type InvokeResult struct {
	State       string
	GasConsumed int64
	Script      []byte
	Stack       []json.RawMessage
	// FaultException is the exception text; "" when there is none.
	FaultException string
	Notifications  []state.NotificationEvent
	// Tx is the transaction neo-go builds when the node has a wallet
	// configured (rarely set).
	Tx []byte
	// Diagnostics is neo-go's optional "diagnostics" object, verbatim.
	Diagnostics json.RawMessage
	// Session is the iterator session id, "" without one.
	Session string
}

type invokeJSON struct {
	State          string                    `json:"state"`
	GasConsumed    int64                     `json:"gasconsumed,string"`
	Script         []byte                    `json:"script"`
	Stack          []json.RawMessage         `json:"stack"`
	FaultException *string                   `json:"exception"`
	Notifications  []state.NotificationEvent `json:"notifications"`
	Tx             []byte                    `json:"tx,omitzero"`
	Diagnostics    json.RawMessage           `json:"diagnostics,omitzero"`
	Session        string                    `json:"session,omitzero"`
}

// MarshalJSON writes neo-go's form ("exception" is null when empty).
func (r InvokeResult) MarshalJSON() ([]byte, error) {
	aux := invokeJSON{
		State: r.State, GasConsumed: r.GasConsumed, Script: r.Script, Stack: r.Stack,
		Notifications: r.Notifications, Tx: r.Tx, Diagnostics: r.Diagnostics, Session: r.Session,
	}
	if aux.Stack == nil {
		aux.Stack = []json.RawMessage{}
	}
	if aux.Notifications == nil {
		aux.Notifications = []state.NotificationEvent{}
	}
	if r.FaultException != "" {
		aux.FaultException = &r.FaultException
	}
	return json.Marshal(aux)
}

// UnmarshalJSON reads neo-go's or C#'s form.
func (r *InvokeResult) UnmarshalJSON(data []byte) error {
	var aux invokeJSON
	if err := json.Unmarshal(data, &aux); err != nil {
		return err
	}
	*r = InvokeResult{
		State: aux.State, GasConsumed: aux.GasConsumed, Script: aux.Script, Stack: aux.Stack,
		Notifications: aux.Notifications, Tx: aux.Tx, Diagnostics: aux.Diagnostics, Session: aux.Session,
	}
	if aux.FaultException != nil {
		r.FaultException = *aux.FaultException
	}
	return nil
}

// ErrFault is returned (wrapped with the exception) when a test
// invocation ended in FAULT and the caller asked for a HALT.
var ErrFault = errors.New("script FAULTed")

// CheckHalt returns nil if the invocation ended in HALT, otherwise an error
// wrapping ErrFault with the state and exception.
func (r *InvokeResult) CheckHalt() error {
	if r.State == StateHalt {
		return nil
	}
	return fmt.Errorf("%w: %s state: %s", ErrFault, r.State, r.FaultException)
}

// Errors of the stack helpers.
var (
	ErrStackIndex = errors.New("no such stack item")
	ErrItemType   = errors.New("unexpected stack item type")
)

// Item decodes stack item i. InteropInterface items (iterators) cannot be
// decoded into stack items; use Iterator for them.
func (r *InvokeResult) Item(i int) (stackitem.Item, error) {
	if i < 0 || i >= len(r.Stack) {
		return nil, fmt.Errorf("%w: %d of %d", ErrStackIndex, i, len(r.Stack))
	}
	return stackitem.FromJSONWithTypes(r.Stack[i])
}

// Int returns stack item i as an integer (Integer, Boolean or a
// ByteString of at most 32 bytes, converted as the VM does).
func (r *InvokeResult) Int(i int) (*big.Int, error) {
	it, err := r.Item(i)
	if err != nil {
		return nil, err
	}
	return it.TryInteger()
}

// Bool returns stack item i converted to a boolean as the VM does.
func (r *InvokeResult) Bool(i int) (bool, error) {
	it, err := r.Item(i)
	if err != nil {
		return false, err
	}
	return it.TryBool()
}

// Bytes returns the bytes of stack item i (a primitive item or Buffer).
func (r *InvokeResult) Bytes(i int) ([]byte, error) {
	it, err := r.Item(i)
	if err != nil {
		return nil, err
	}
	return it.TryBytes()
}

// String returns stack item i as a UTF-8 string.
func (r *InvokeResult) String(i int) (string, error) {
	b, err := r.Bytes(i)
	if err != nil {
		return "", err
	}
	if !utf8.Valid(b) {
		return "", fmt.Errorf("%w: item %d is not UTF-8", ErrItemType, i)
	}
	return string(b), nil
}

// Array returns the elements of an Array or Struct stack item i.
func (r *InvokeResult) Array(i int) ([]stackitem.Item, error) {
	it, err := r.Item(i)
	if err != nil {
		return nil, err
	}
	if it.Type() != stackitem.ArrayT && it.Type() != stackitem.StructT {
		return nil, fmt.Errorf("%w: item %d is %s, not Array", ErrItemType, i, it.Type())
	}
	return it.Value().([]stackitem.Item), nil
}

// Iterator is an InteropInterface stack item as neo-go prints it: with
// sessions enabled an "IIterator" with its id; without, the first values
// expanded in place.
type Iterator struct {
	Type      string            `json:"type"`
	Interface string            `json:"interface,omitzero"`
	ID        string            `json:"id,omitzero"`
	Values    []json.RawMessage `json:"iterator,omitzero"`
	Truncated bool              `json:"truncated,omitzero"`
}

// Iterator decodes stack item i as an iterator.
func (r *InvokeResult) Iterator(i int) (*Iterator, error) {
	if i < 0 || i >= len(r.Stack) {
		return nil, fmt.Errorf("%w: %d of %d", ErrStackIndex, i, len(r.Stack))
	}
	it := new(Iterator)
	if err := json.Unmarshal(r.Stack[i], it); err != nil {
		return nil, err
	}
	if it.Type != stackitem.InteropT.String() {
		return nil, fmt.Errorf("%w: item %d is %s, not InteropInterface", ErrItemType, i, it.Type)
	}
	return it, nil
}

// ApplicationLog is the getapplicationlog result.
type ApplicationLog struct {
	// Container is the transaction or block hash.
	Container hash.Uint256
	// IsTransaction: the log is a transaction's ("txid"), not a block's
	// ("blockhash").
	IsTransaction bool
	Executions    []state.Execution
}

type applicationLogJSON struct {
	TxHash     *hash.Uint256     `json:"txid,omitzero"`
	BlockHash  *hash.Uint256     `json:"blockhash,omitzero"`
	Executions []state.Execution `json:"executions"`
}

// MarshalJSON writes neo-go's form.
func (l ApplicationLog) MarshalJSON() ([]byte, error) {
	aux := applicationLogJSON{Executions: l.Executions}
	if aux.Executions == nil {
		aux.Executions = []state.Execution{}
	}
	if l.IsTransaction {
		aux.TxHash = &l.Container
	} else {
		aux.BlockHash = &l.Container
	}
	return json.Marshal(aux)
}

// UnmarshalJSON reads neo-go's form.
func (l *ApplicationLog) UnmarshalJSON(data []byte) error {
	var aux applicationLogJSON
	if err := json.Unmarshal(data, &aux); err != nil {
		return err
	}
	switch {
	case aux.TxHash != nil:
		l.Container, l.IsTransaction = *aux.TxHash, true
	case aux.BlockHash != nil:
		l.Container, l.IsTransaction = *aux.BlockHash, false
	default:
		return errors.New("no block or transaction hash")
	}
	l.Executions = aux.Executions
	return nil
}

// NEP17Balances is the getnep17balances result.
type NEP17Balances struct {
	Balances []NEP17Balance `json:"balance"`
	Address  string         `json:"address"`
}

// NEP17Balance is the balance of one token. Amount is an integer in the
// token's smallest units.
type NEP17Balance struct {
	Asset       hash.Uint160 `json:"assethash"`
	Amount      string       `json:"amount"`
	Decimals    int          `json:"decimals,string"`
	LastUpdated uint32       `json:"lastupdatedblock"`
	Name        string       `json:"name"`
	Symbol      string       `json:"symbol"`
}

// NEP17Transfers is the getnep17transfers result.
type NEP17Transfers struct {
	Sent     []NEP17Transfer `json:"sent"`
	Received []NEP17Transfer `json:"received"`
	Address  string          `json:"address"`
}

// NEP17Transfer is one transfer; Address is the other party ("" for mint
// or burn).
type NEP17Transfer struct {
	Timestamp   uint64       `json:"timestamp"`
	Asset       hash.Uint160 `json:"assethash"`
	Address     string       `json:"transferaddress,omitzero"`
	Amount      string       `json:"amount"`
	Index       uint32       `json:"blockindex"`
	NotifyIndex uint32       `json:"transfernotifyindex"`
	TxHash      hash.Uint256 `json:"txhash"`
}

// UnclaimedGas is the getunclaimedgas result.
type UnclaimedGas struct {
	Address   hash.Uint160
	Unclaimed big.Int
}

type unclaimedGasJSON struct {
	Address   string `json:"address"`
	Unclaimed string `json:"unclaimed"`
}

// MarshalJSON writes {"address", "unclaimed"}.
func (g UnclaimedGas) MarshalJSON() ([]byte, error) {
	return json.Marshal(unclaimedGasJSON{Address: neorpc.Uint160ToAddress(g.Address), Unclaimed: g.Unclaimed.String()})
}

// UnmarshalJSON reads {"address", "unclaimed"}.
func (g *UnclaimedGas) UnmarshalJSON(data []byte) error {
	var aux unclaimedGasJSON
	if err := json.Unmarshal(data, &aux); err != nil {
		return err
	}
	if _, ok := g.Unclaimed.SetString(aux.Unclaimed, 10); !ok {
		return fmt.Errorf("bad unclaimed amount %q", aux.Unclaimed)
	}
	u, err := neorpc.StringToUint160(aux.Address)
	if err != nil {
		return err
	}
	g.Address = u
	return nil
}

// Candidate is one getcandidates entry.
type Candidate struct {
	PublicKey *keys.PublicKey `json:"publickey"`
	Votes     int64           `json:"votes,string"`
	Active    bool            `json:"active"`
}

// Validator is one getnextblockvalidators entry.
type Validator struct {
	PublicKey *keys.PublicKey `json:"publickey"`
	Votes     int64           `json:"votes"`
}

// UnmarshalJSON accepts votes as a number (neo-go, C#) or a string (older
// nodes), as neo-go's client does.
func (v *Validator) UnmarshalJSON(data []byte) error {
	var aux struct {
		PublicKey *keys.PublicKey `json:"publickey"`
		Votes     json.RawMessage `json:"votes"`
	}
	if err := json.Unmarshal(data, &aux); err != nil {
		return err
	}
	s := strings.Trim(string(aux.Votes), `"`)
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return fmt.Errorf("bad votes %s", aux.Votes)
	}
	v.PublicKey, v.Votes = aux.PublicKey, n
	return nil
}

// TransactionOutputRaw is the verbose getrawtransaction result: the
// transaction with its block, confirmations, block time and VM state
// (the metadata is absent for a transaction still in the mempool).
type TransactionOutputRaw struct {
	Transaction *transaction.Transaction
	TransactionMetadata
}

// TransactionMetadata is the chain data of a verbose getrawtransaction.
type TransactionMetadata struct {
	Blockhash     hash.Uint256 `json:"blockhash,omitzero"`
	Confirmations int          `json:"confirmations,omitzero"`
	Timestamp     uint64       `json:"blocktime,omitzero"`
	VMState       string       `json:"vmstate,omitzero"`
}

// MarshalJSON writes the metadata fields first, then the transaction's, as
// neo-go does.
func (t TransactionOutputRaw) MarshalJSON() ([]byte, error) {
	meta, err := json.Marshal(t.TransactionMetadata)
	if err != nil {
		return nil, err
	}
	if t.Transaction == nil {
		return nil, errors.New("no transaction")
	}
	txb, err := json.Marshal(t.Transaction)
	if err != nil {
		return nil, err
	}
	if string(meta) == "{}" {
		return txb, nil
	}
	out := append(meta[:len(meta)-1:len(meta)-1], ',')
	return append(out, txb[1:]...), nil
}

// UnmarshalJSON reads the merged object (the transaction's hash and size
// are checked against its fields).
func (t *TransactionOutputRaw) UnmarshalJSON(data []byte) error {
	if err := json.Unmarshal(data, &t.TransactionMetadata); err != nil {
		return err
	}
	t.Transaction = new(transaction.Transaction)
	return json.Unmarshal(data, t.Transaction)
}

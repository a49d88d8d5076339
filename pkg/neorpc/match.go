package neorpc

import (
	"math/big"

	"github.com/n3node/n3node/pkg/crypto/hash"
	sc "github.com/n3node/n3node/pkg/smartcontract"
)

// StackKind classifies a notification state item for filter matching. Only
// Boolean, Integer and ByteString items can equal a filter parameter (a
// Buffer never equals a ByteString, as in the VM).
type StackKind byte

// Stack item kinds that filters distinguish.
const (
	StackOther StackKind = iota // Any (null), Buffer, Array, Struct, Map, Pointer, InteropInterface
	StackBool
	StackInteger
	StackByteString
)

// StackValue is one notification state item as filters see it.
type StackValue struct {
	Kind  StackKind
	Bool  bool
	Int   *big.Int
	Bytes []byte
}

// maxComparableSize is the VM's ByteString comparison limit
// (MaxByteArrayComparableSize = 65536). neo-go panics past it; here such
// values simply do not match.
const maxComparableSize = 65536

// EventFields holds what the filters of one event look at. The node fills
// the fields of the event's kind and leaves the rest zero:
//
//   - block_added, header_of_added_block: Index, Primary
//   - transaction_added: Sender (first signer), Signers
//   - mempool_event: Type, Sender, Signers (of the transaction)
//   - notary_request_event: Type, Sender (the fallback transaction's second
//     signer), Signers (the main transaction's signers)
//   - notification_from_execution: Contract, Name, Items (the state array)
//   - transaction_executed: VMState ("HALT"/"FAULT"), Container
type EventFields struct {
	Index   uint32
	Primary byte

	Sender  hash.Uint160
	Signers []hash.Uint160
	Type    MempoolEventType

	Contract hash.Uint160
	Name     string
	Items    []StackValue

	VMState   string
	Container hash.Uint256
}

// Matches reports whether an event of stream id with fields e passes
// filter f, following neo-go's rpcevent.Matches. A nil filter passes
// everything; a filter of the wrong type passes nothing.
func Matches(id EventID, f SubscriptionFilter, e *EventFields) bool {
	if f == nil {
		return true
	}
	switch id {
	case BlockEventID, HeaderOfAddedBlockEventID:
		flt, ok := f.(BlockFilter)
		return ok && flt.Matches(e)
	case TransactionEventID:
		flt, ok := f.(TxFilter)
		return ok && flt.Matches(e)
	case NotificationEventID:
		flt, ok := f.(NotificationFilter)
		return ok && flt.Matches(e)
	case ExecutionEventID:
		flt, ok := f.(ExecutionFilter)
		return ok && flt.Matches(e)
	case NotaryRequestEventID:
		flt, ok := f.(NotaryRequestFilter)
		return ok && flt.Matches(e)
	case MempoolEventID:
		flt, ok := f.(MempoolEventFilter)
		return ok && flt.Matches(e)
	}
	return false
}

// Matches applies the block filter.
func (f BlockFilter) Matches(e *EventFields) bool {
	return (f.Primary == nil || *f.Primary == e.Primary) &&
		(f.Since == nil || *f.Since <= e.Index) &&
		(f.Till == nil || e.Index <= *f.Till)
}

func hasSigner(signers []hash.Uint160, u *hash.Uint160) bool {
	if u == nil {
		return true
	}
	for i := range signers {
		if signers[i] == *u {
			return true
		}
	}
	return false
}

// Matches applies the transaction filter.
func (f TxFilter) Matches(e *EventFields) bool {
	return (f.Sender == nil || *f.Sender == e.Sender) && hasSigner(e.Signers, f.Signer)
}

// Matches applies the notary request filter.
func (f NotaryRequestFilter) Matches(e *EventFields) bool {
	return (f.Type == nil || *f.Type == e.Type) &&
		(f.Sender == nil || *f.Sender == e.Sender) && hasSigner(e.Signers, f.Signer)
}

// Matches applies the mempool event filter.
func (f MempoolEventFilter) Matches(e *EventFields) bool {
	return (f.Type == nil || *f.Type == e.Type) &&
		(f.Sender == nil || *f.Sender == e.Sender) && hasSigner(e.Signers, f.Signer)
}

// Matches applies the execution filter.
func (f ExecutionFilter) Matches(e *EventFields) bool {
	return (f.State == nil || *f.State == e.VMState) &&
		(f.Container == nil || *f.Container == e.Container)
}

// Matches applies the notification filter: contract, name, and each
// parameter against the state item at the same position (a parameter with a
// nil value matches anything; more parameters than items never match).
func (f NotificationFilter) Matches(e *EventFields) bool {
	if f.Contract != nil && *f.Contract != e.Contract {
		return false
	}
	if f.Name != nil && *f.Name != e.Name {
		return false
	}
	if len(f.Parameters) == 0 {
		return true
	}
	if len(f.Parameters) > len(e.Items) {
		return false
	}
	for i, p := range f.Parameters {
		if !paramMatches(p, &e.Items[i]) {
			return false
		}
	}
	return true
}

// paramMatches compares a filter parameter's stack item form with an
// item, as the VM's Equals does.
func paramMatches(p sc.Parameter, it *StackValue) bool {
	var b []byte
	switch v := p.Value.(type) {
	case nil:
		return true
	case bool:
		return it.Kind == StackBool && it.Bool == v
	case *big.Int:
		return it.Kind == StackInteger && it.Int != nil && v.Cmp(it.Int) == 0
	case []byte:
		b = v
	case string:
		return it.Kind == StackByteString && len(v) <= maxComparableSize &&
			len(it.Bytes) <= maxComparableSize && string(it.Bytes) == v
	case hash.Uint160:
		b = v[:]
	case hash.Uint256:
		b = v[:]
	default:
		return false
	}
	return it.Kind == StackByteString && len(b) <= maxComparableSize &&
		len(it.Bytes) <= maxComparableSize && string(it.Bytes) == string(b)
}

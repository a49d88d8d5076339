package interop

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/big"
	"slices"

	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core/block"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/encoding/address"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/vm"
	"github.com/n3node/n3node/pkg/vm/stackitem"
	"github.com/twmb/murmur3"
)

func runtimePlatform(ic *Context) error {
	ic.VM.Push(stackitem.NewByteString([]byte("NEO")))
	return nil
}

func runtimeGetNetwork(ic *Context) error {
	ic.VM.Push(stackitem.NewInt(int64(ic.Network)))
	return nil
}

func runtimeGetAddressVersion(ic *Context) error {
	ic.VM.Push(stackitem.NewInt(int64(address.Version)))
	return nil
}

func runtimeGetTrigger(ic *Context) error {
	ic.VM.Push(stackitem.NewInt(int64(ic.Trigger)))
	return nil
}

func runtimeGetTime(ic *Context) error {
	if ic.Block == nil {
		return errors.New("GetTime can only be called with a persisting block")
	}
	ic.VM.Push(stackitem.NewBigInteger(new(big.Int).SetUint64(ic.Block.Timestamp)))
	return nil
}

func runtimeGetScriptContainer(ic *Context) error {
	switch c := ic.Container.(type) {
	case *transaction.Transaction:
		ic.VM.Push(state.TransactionToStackItem(c))
	case *block.Block:
		ic.VM.Push(state.BlockToStackItem(&c.Header, len(c.Transactions)))
	default:
		return errors.New("unknown script container")
	}
	return nil
}

func runtimeGetExecutingScriptHash(ic *Context) error {
	ic.VM.Push(hashItem(ic.CurrentScriptHash()))
	return nil
}

func runtimeGetCallingScriptHash(ic *Context) error {
	ic.VM.Push(hashItem(ic.CallingScriptHash()))
	return nil
}

func runtimeGetEntryScriptHash(ic *Context) error {
	c := ic.VM.EntryContext()
	var h hash.Uint160
	if c != nil {
		h = c.ScriptHash()
	}
	ic.VM.Push(hashItem(h))
	return nil
}

// runtimeLoadScript is System.Runtime.LoadScript: a dynamic script checked
// in strict mode, with the caller's flags narrowed to ReadOnly.
func runtimeLoadScript(ic *Context) error {
	script, err := ic.popBytes()
	if err != nil {
		return err
	}
	fs, args, err := ic.popCallArgs()
	if err != nil {
		return err
	}
	if err := CheckScript(script, nil); err != nil {
		return fmt.Errorf("invalid script: %w", err)
	}
	fs &= ic.CallFlags() & callflag.ReadOnly
	script = slices.Clone(script)
	if _, err := ic.VM.LoadScriptWith(vm.NewScript(script), vm.LoadParams{
		RVCount:           -1,
		ScriptHash:        hash.Hash160(script),
		CallingScriptHash: ic.CurrentScriptHash(),
		CallFlags:         callflag.CallFlag(fs),
		Data:              &Invocation{Calling: ic.CurrentInvocation(), dynamic: true},
	}); err != nil {
		return err
	}
	for i := len(args) - 1; i >= 0; i-- {
		ic.VM.Push(args[i])
	}
	return nil
}

func runtimeGetInvocationCounter(ic *Context) error {
	h := ic.CurrentScriptHash()
	n, ok := ic.Invocations.Get(h)
	if !ok {
		n = 1
		ic.CountInvocation(h)
	}
	ic.VM.Push(stackitem.NewInt(int64(n)))
	return nil
}

// runtimeGetRandom is System.Runtime.GetRandom: Murmur128 of the nonce data
// seeded with the network magic (plus a call counter from
// HF_Aspidochelone; before it the result becomes the new nonce data), read
// as an unsigned little-endian integer.
func runtimeGetRandom(ic *Context) error {
	var price int64
	seed := ic.Network
	aspidochelone := ic.IsHardforkEnabled(config.HFAspidochelone)
	if aspidochelone {
		price = 1 << 13
		seed += ic.GetRandomCounter
		ic.GetRandomCounter++
	} else {
		price = 1 << 4
	}
	h1, h2 := murmur3.SeedSum128(uint64(seed), uint64(seed), ic.NonceData[:])
	var res [16]byte
	binary.LittleEndian.PutUint64(res[:8], h1)
	binary.LittleEndian.PutUint64(res[8:], h2)
	if !aspidochelone {
		ic.NonceData = res
	}
	if err := ic.VM.AddPriceUnits(price); err != nil {
		return err
	}
	slices.Reverse(res[:])
	ic.VM.Push(stackitem.NewBigInteger(new(big.Int).SetBytes(res[:])))
	return nil
}

func runtimeLog(ic *Context) error {
	msg, err := ic.popString()
	if err != nil {
		return err
	}
	if len(msg) > MaxNotificationSize {
		return fmt.Errorf("message length shouldn't exceed %d", MaxNotificationSize)
	}
	if ic.Log != nil {
		ic.Log(ic, ic.CurrentScriptHash(), msg)
	}
	return nil
}

// runtimeNotify is System.Runtime.Notify: the event must be declared in the
// executing contract's manifest with matching argument types (an error from
// HF_Basilisk, ignored before), and the arguments must serialize within
// MaxNotificationSize.
func runtimeNotify(ic *Context) error {
	name, err := ic.popString()
	if err != nil {
		return err
	}
	elem, err := ic.popItem()
	if err != nil {
		return err
	}
	arr, ok := elem.(*stackitem.Array)
	if !ok {
		return errNotArray
	}
	if len(name) > MaxEventName {
		return fmt.Errorf("event name must be less than %d", MaxEventName)
	}
	inv := ic.CurrentInvocation()
	if inv == nil || inv.Contract == nil {
		return errors.New("notifications are not allowed in dynamic scripts")
	}
	if ic.IsHardforkEnabled(config.HFBasilisk) {
		ev := inv.Contract.Manifest.ABI.GetEvent(name)
		if ev == nil {
			return fmt.Errorf("notification %s does not exist", name)
		}
		if err := ev.CheckCompliance(arr.Items()); err != nil {
			return fmt.Errorf("notification %s is invalid: %w", name, err)
		}
	}
	b, err := stackitem.AppendSerialized(nil, arr, MaxNotificationSize, vm.MaxStackSize)
	if err != nil {
		return fmt.Errorf("bad notification: %w", err)
	}
	if len(b) > MaxNotificationSize {
		return fmt.Errorf("notification size shouldn't exceed %d", MaxNotificationSize)
	}
	// neo-go re-wraps the items in an Array (a Struct argument becomes an
	// Array in the notification) and stores an immutable deep copy.
	cp := stackitem.DeepCopy(stackitem.NewArray(arr.Items()), true).(*stackitem.Array)
	return ic.AddNotification(ic.CurrentScriptHash(), name, cp)
}

func runtimeGetNotifications(ic *Context) error {
	it, err := ic.popItem()
	if err != nil {
		return err
	}
	notifications := ic.Notifications
	if _, ok := it.(stackitem.Null); !ok {
		b, err := ItemBytes(it)
		if err != nil {
			return err
		}
		if len(b) != hash.Uint160Size {
			return HashSizeError(hash.Uint160Size, len(b))
		}
		u := hash.Uint160(b)
		notifications = nil
		for i := range ic.Notifications {
			if ic.Notifications[i].ScriptHash == u {
				notifications = append(notifications, ic.Notifications[i])
			}
		}
	}
	if len(notifications) > vm.MaxStackSize {
		return errors.New("too many notifications")
	}
	items := make([]stackitem.Item, len(notifications))
	for i := range notifications {
		items[i] = stackitem.NewArray([]stackitem.Item{
			hashItem(notifications[i].ScriptHash),
			stackitem.NewByteString([]byte(notifications[i].Name)),
			notifications[i].Item,
		})
	}
	ic.VM.Push(stackitem.NewArray(items))
	return nil
}

func runtimeGasLeft(ic *Context) error {
	ic.VM.Push(stackitem.NewInt(ic.VM.GasLeft()))
	return nil
}

func runtimeBurnGas(ic *Context) error {
	n, err := ic.popBigInt()
	if err != nil {
		return err
	}
	if !n.IsInt64() {
		return errors.New("invalid GAS value")
	}
	if n.Sign() <= 0 {
		return errors.New("GAS must be positive")
	}
	return ic.VM.AddGas(n.Int64())
}

func runtimeCurrentSigners(ic *Context) error {
	if ic.Tx != nil {
		ic.VM.Push(state.SignersToStackItem(ic.Tx.Signers))
	} else {
		ic.VM.Push(stackitem.Null{})
	}
	return nil
}

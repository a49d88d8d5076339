package native

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core/dao"
	"github.com/n3node/n3node/pkg/core/interop"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/native/noderoles"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/smartcontract/manifest"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// MaxDesignatedNodes is the most keys one designation may hold (C#
// RoleManagement.DesignateAsRole).
const MaxDesignatedNodes = 32

// DesignationEvent is the name of the RoleManagement event.
const DesignationEvent = "Designation"

// RoleManagement errors.
var (
	ErrInvalidRole       = errors.New("invalid role")
	ErrInvalidIndex      = errors.New("invalid index")
	ErrEmptyNodeList     = errors.New("node list is empty")
	ErrLargeNodeList     = errors.New("node list is too large")
	ErrAlreadyDesignated = errors.New("already designated given role at current block")
	ErrDuplicateNodes    = errors.New("node list contains duplicate entries")
	ErrNoPersistingBlock = errors.New("no persisting block in the context")
	ErrWitnessFailed     = errors.New("witness check failed")
)

// RoleManagement is the RoleManagement native contract (C# RoleManagement):
// the committee designates keys for node roles. A designation made in block
// n applies from block n+1: it is stored under role || uint32 BE (n+1) as a
// NodeList (sorted keys).
type RoleManagement struct {
	contractBase

	// OnRolesChanged, if set, is called in PostPersist of a block that
	// designated keys, once per changed role, with the index the keys apply
	// from and the keys (a copy). Node services (Oracle, Notary, state
	// roots) subscribe here.
	OnRolesChanged func(r noderoles.Role, index uint32, nodes []*keys.PublicKey)
}

type roleData struct {
	set    bool
	nodes  []*keys.PublicKey // sorted; shared, never modified
	index  uint32            // block the keys apply from
	script hash.Uint160      // see DesignatedAddress
}

// RoleCache is the RoleManagement state per DAO layer: the latest
// designation of each role and the roles designated in the persisting
// block.
type RoleCache struct {
	roles   [len(roleSlots)]roleData
	changed uint8 // bit per role slot
}

var roleSlots = [...]noderoles.Role{noderoles.StateValidator, noderoles.Oracle, noderoles.NeoFSAlphabet, noderoles.P2PNotary}

func roleSlot(r noderoles.Role) int {
	for i, s := range roleSlots {
		if s == r {
			return i
		}
	}
	return -1
}

// Copy implements dao.NativeContractCache (the key slices are immutable).
func (c *RoleCache) Copy() dao.NativeContractCache { return shallowCopy(c) }

func newRoleManagement(cs *Contracts) Contract {
	r := &RoleManagement{contractBase: newBase(nativenames.Designation, config.HFDefault, cs)}
	md := r.md
	intT := smartcontract.IntegerType
	md.AddMethod(Method{Name: "getDesignatedByRole", Params: []manifest.Parameter{NewParam("role", intT), NewParam("index", intT)},
		ReturnType: smartcontract.ArrayType, Func: r.getDesignatedByRole, CPUFee: 1 << 15, RequiredFlags: callflag.ReadStates})
	md.AddMethod(Method{Name: "designateAsRole", Params: []manifest.Parameter{NewParam("role", intT), NewParam("nodes", smartcontract.ArrayType)},
		ReturnType: smartcontract.VoidType, Func: r.designateAsRole, CPUFee: 1 << 15, RequiredFlags: callflag.States | callflag.AllowNotify})
	md.AddEvent(Event{Name: DesignationEvent, Params: []manifest.Parameter{NewParam("Role", intT), NewParam("BlockIndex", intT)},
		ActiveTill: config.HFEchidna})
	md.AddEvent(Event{Name: DesignationEvent, Params: []manifest.Parameter{NewParam("Role", intT), NewParam("BlockIndex", intT),
		NewParam("Old", smartcontract.ArrayType), NewParam("New", smartcontract.ArrayType)}, ActiveFrom: config.HFEchidna})
	return r
}

// RoleManagement returns the RoleManagement native contract.
func (cs *Contracts) RoleManagement() *RoleManagement {
	return contractByID[*RoleManagement](cs, nativenames.DesignationID)
}

// Initialize implements Contract.
func (r *RoleManagement) Initialize(ic *interop.Context, hf config.Hardfork, _ *HFContractMD) error {
	if hf != r.md.ActiveIn {
		return nil
	}
	ic.DAO.SetCache(r.md.ID, &RoleCache{})
	return r.designateGenesisRoles(ic)
}

// InitializeCache implements Contract: the latest designation of every
// role.
func (r *RoleManagement) InitializeCache(d *dao.Simple, _ *config.Blockchain, _ uint32) error {
	c := &RoleCache{}
	for i, role := range roleSlots {
		nodes, index, err := r.fromStorage(d, role, ^uint32(0))
		if err != nil {
			return err
		}
		if nodes != nil {
			c.roles[i] = newRoleData(role, nodes, index)
		}
	}
	d.SetCache(r.md.ID, c)
	return nil
}

func newRoleData(role noderoles.Role, nodes []*keys.PublicKey, index uint32) roleData {
	return roleData{set: true, nodes: nodes, index: index, script: designatedAddress(role, nodes)}
}

// designatedAddress is neo-go's address of a role's nodes: 1-of-n multisig
// for P2PNotary, the BFT majority (n - (n-1)/3) otherwise.
func designatedAddress(role noderoles.Role, nodes []*keys.PublicKey) hash.Uint160 {
	if len(nodes) == 0 {
		return hash.Uint160{}
	}
	var script []byte
	if role == noderoles.P2PNotary {
		script, _ = smartcontract.CreateMultiSigRedeemScript(1, nodes)
	} else {
		script, _ = smartcontract.CreateDefaultMultiSigRedeemScript(nodes)
	}
	return hash.Hash160(script)
}

// PostPersist implements Contract: it reports the roles designated in the
// block to OnRolesChanged.
func (r *RoleManagement) PostPersist(ic *interop.Context) error {
	if c := r.cache(ic.DAO); c == nil || c.changed == 0 {
		return nil
	}
	c := ic.DAO.GetRWCache(r.md.ID).(*RoleCache)
	changed := c.changed
	c.changed = 0
	if r.OnRolesChanged == nil {
		return nil
	}
	for i, role := range roleSlots {
		if changed&(1<<i) != 0 {
			r.OnRolesChanged(role, c.roles[i].index, append([]*keys.PublicKey(nil), c.roles[i].nodes...))
		}
	}
	return nil
}

func (r *RoleManagement) cache(d *dao.Simple) *RoleCache {
	c, _ := d.GetROCache(r.md.ID).(*RoleCache)
	return c
}

func roleKey(role noderoles.Role, index uint32) []byte {
	k := make([]byte, 5)
	k[0] = byte(role)
	binary.BigEndian.PutUint32(k[1:], index)
	return k
}

// fromStorage returns the latest designation of role at or before index
// (nil keys if none) and its index.
func (r *RoleManagement) fromStorage(d *dao.Simple, role noderoles.Role, index uint32) ([]*keys.PublicKey, uint32, error) {
	var (
		val   []byte
		found uint32
		bad   bool
	)
	start := make([]byte, 4)
	binary.BigEndian.PutUint32(start, index)
	d.Seek(r.md.ID, storage.SeekRange{Prefix: []byte{byte(role)}, Start: start, Backwards: true}, func(k, v []byte) bool {
		if len(k) != 4 {
			bad = true
			return false
		}
		found = binary.BigEndian.Uint32(k)
		val = v
		return false
	})
	if bad {
		return nil, 0, fmt.Errorf("role %s: invalid storage key", role)
	}
	if val == nil {
		return nil, 0, nil
	}
	var nl state.NodeList
	if err := stackitem.DeserializeConvertible(val, &nl); err != nil {
		return nil, 0, fmt.Errorf("role %s at %d: %w", role, found, err)
	}
	return nl, found, nil
}

// GetDesignatedByRole returns the keys designated for role r that apply to
// block index (the latest designation at or before index; none is an empty
// list) and the index they apply from. The slice is the caller's; the keys
// are shared.
func (r *RoleManagement) GetDesignatedByRole(d *dao.Simple, role noderoles.Role, index uint32) ([]*keys.PublicKey, uint32, error) {
	slot := roleSlot(role)
	if slot < 0 {
		return nil, 0, fmt.Errorf("%w: %d", ErrInvalidRole, role)
	}
	if c := r.cache(d); c != nil {
		rd := &c.roles[slot]
		if !rd.set {
			return []*keys.PublicKey{}, 0, nil
		}
		if rd.index <= index {
			return append([]*keys.PublicKey{}, rd.nodes...), rd.index, nil
		}
	}
	nodes, found, err := r.fromStorage(d, role, index)
	if err != nil {
		return nil, 0, err
	}
	if nodes == nil {
		nodes = []*keys.PublicKey{}
	}
	return nodes, found, nil
}

// DesignatedAddress returns the script hash of the latest keys designated
// for role (zero if none): 1-of-n multisig for P2PNotary, the BFT majority
// multisig for the other roles (neo-go GetLastDesignatedHash).
func (r *RoleManagement) DesignatedAddress(d *dao.Simple, role noderoles.Role) (hash.Uint160, error) {
	slot := roleSlot(role)
	if slot < 0 {
		return hash.Uint160{}, fmt.Errorf("%w: %d", ErrInvalidRole, role)
	}
	if c := r.cache(d); c != nil {
		return c.roles[slot].script, nil
	}
	nodes, _, err := r.fromStorage(d, role, ^uint32(0))
	if err != nil {
		return hash.Uint160{}, err
	}
	return designatedAddress(role, nodes), nil
}

func toRole(it stackitem.Item) (noderoles.Role, error) {
	b, err := ToUint8(it)
	if err != nil || !noderoles.IsValid(noderoles.Role(b)) {
		return 0, ErrInvalidRole
	}
	return noderoles.Role(b), nil
}

func keysToArray(nodes []*keys.PublicKey) *stackitem.Array {
	items := make([]stackitem.Item, len(nodes))
	for i, k := range nodes {
		items[i] = stackitem.NewByteString(k.Bytes())
	}
	return stackitem.NewArray(items)
}

func (r *RoleManagement) getDesignatedByRole(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	role, err := toRole(args[0])
	if err != nil {
		return nil, err
	}
	// The FAULT text is the bare "invalid index" clients see from neo-go,
	// whether the index is not a number or is past the persisting block
	// (C# Ledger.CurrentIndex + 1).
	index, err := ToUint32(args[1])
	if err != nil || uint64(ic.BlockHeight())+1 < uint64(index) {
		return nil, ErrInvalidIndex
	}
	nodes, _, err := r.GetDesignatedByRole(ic.DAO, role, index)
	if err != nil {
		return nil, err
	}
	return keysToArray(nodes), nil
}

// toNodes converts an ECPoint[] argument: an Array of secp256r1 points
// (C# ApplicationEngine.Convert with ECPoint.DecodePoint).
func toNodes(it stackitem.Item) ([]*keys.PublicKey, error) {
	arr, ok := it.(*stackitem.Array) // a Struct is an Array too
	if !ok {
		return nil, errors.New("not an array")
	}
	nodes := make([]*keys.PublicKey, arr.Len())
	for i, e := range arr.Items() {
		b, err := ToBytes(e)
		if err != nil {
			return nil, err
		}
		k, err := keys.NewPublicKeyFromBytes(b)
		if err != nil {
			return nil, err
		}
		nodes[i] = k
	}
	return nodes, nil
}

func (r *RoleManagement) designateAsRole(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	role, err := toRole(args[0])
	if err != nil {
		return nil, err
	}
	nodes, err := toNodes(args[1])
	if err != nil {
		return nil, err
	}
	return nil, r.DesignateAsRole(ic, role, nodes)
}

// DesignateAsRole designates nodes for role from the block after the
// persisting one, as C# RoleManagement.DesignateAsRole does (the caller
// must be the committee).
func (r *RoleManagement) DesignateAsRole(ic *interop.Context, role noderoles.Role, nodes []*keys.PublicKey) error {
	return r.designate(ic, role, nodes, true)
}

// designate stores a designation. byCommittee is false for the genesis
// roles of the configuration (neo-go's extension: no witness check).
func (r *RoleManagement) designate(ic *interop.Context, role noderoles.Role, nodes []*keys.PublicKey, byCommittee bool) error {
	switch {
	case len(nodes) == 0:
		return ErrEmptyNodeList
	case len(nodes) > MaxDesignatedNodes:
		return ErrLargeNodeList
	case !noderoles.IsValid(role):
		return ErrInvalidRole
	}
	if byCommittee {
		if ok, err := CheckCommittee(ic, r.cs.Committee()); err != nil || !ok {
			return ErrWitnessFailed
		}
	}
	if ic.Block == nil {
		return ErrNoPersistingBlock
	}
	index := ic.Block.Index + 1
	key := roleKey(role, index)
	if ic.DAO.GetStorageItem(r.md.ID, key) != nil {
		return ErrAlreadyDesignated
	}
	sorted := append(state.NodeList(nil), nodes...)
	keys.SortPublicKeys(sorted)
	for i := 1; i < len(sorted); i++ {
		if sorted[i-1].Cmp(sorted[i]) == 0 {
			return ErrDuplicateNodes
		}
	}
	if err := ic.DAO.PutStorageConvertible(r.md.ID, key, &sorted); err != nil {
		return err
	}
	var (
		old []*keys.PublicKey
		err error
	)
	if ic.IsHardforkEnabled(config.HFEchidna) {
		// Before the cache changes: the keys that applied to this block.
		if old, _, err = r.GetDesignatedByRole(ic.DAO, role, index-1); err != nil {
			return err
		}
	}
	c := ic.DAO.GetRWCache(r.md.ID).(*RoleCache)
	slot := roleSlot(role)
	c.roles[slot] = newRoleData(role, sorted, index)
	c.changed |= 1 << slot

	ntf := []stackitem.Item{stackitem.NewInt(int64(role)), stackitem.NewInt(int64(ic.Block.Index))}
	if ic.IsHardforkEnabled(config.HFEchidna) {
		// neo-go sends the new keys sorted (C# in the order given).
		ntf = append(ntf, keysToArray(old), keysToArray(sorted))
	}
	return ic.AddNotification(r.md.Hash, DesignationEvent, stackitem.NewArray(ntf))
}

// designateGenesisRoles designates the configuration's genesis roles
// (neo-go's Genesis.Roles), in ascending role order.
func (r *RoleManagement) designateGenesisRoles(ic *interop.Context) error {
	for _, role := range noderoles.All {
		cfgKeys, ok := ic.Config.Genesis.Roles[config.NodeRole(role)]
		if !ok {
			continue
		}
		nodes := make([]*keys.PublicKey, len(cfgKeys))
		for i := range cfgKeys {
			k, err := keys.NewPublicKeyFromBytes(cfgKeys[i][:])
			if err != nil {
				return fmt.Errorf("genesis role %s: %w", role, err)
			}
			nodes[i] = k
		}
		if err := r.designate(ic, role, nodes, false); err != nil {
			return fmt.Errorf("genesis role %s: %w", role, err)
		}
	}
	return nil
}

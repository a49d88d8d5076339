package native

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"math/big"
	"unicode/utf8"

	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core/dao"
	"github.com/n3node/n3node/pkg/core/interop"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/encoding/bigint"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/smartcontract/manifest"
	"github.com/n3node/n3node/pkg/smartcontract/nef"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// ContractManagement storage layout.
const (
	// PrefixContract + hash holds a contract state.
	PrefixContract byte = 8
	// prefixContractHash + id (big-endian) holds a contract hash.
	prefixContractHash byte = 12

	// DefaultMinimumDeploymentFee is the minimum deployment fee at genesis
	// (10 GAS).
	DefaultMinimumDeploymentFee = 10_00000000

	managementDeployEvent  = "Deploy"
	managementUpdateEvent  = "Update"
	managementDestroyEvent = "Destroy"
)

var (
	keyNextAvailableID      = []byte{15}
	keyMinimumDeploymentFee = []byte{20}
)

// Management is the ContractManagement native contract.
type Management struct {
	contractBase
}

// ManagementCache holds every contract state, decoded, per DAO layer.
type ManagementCache struct {
	contracts map[hash.Uint160]*state.Contract
	nep11     map[hash.Uint160]struct{}
	nep17     map[hash.Uint160]struct{}
}

// Copy implements dao.NativeContractCache. Contract states are shared; they
// are never modified in place.
func (c *ManagementCache) Copy() dao.NativeContractCache {
	return &ManagementCache{
		contracts: maps.Clone(c.contracts),
		nep11:     maps.Clone(c.nep11),
		nep17:     maps.Clone(c.nep17),
	}
}

func newManagementCache() *ManagementCache {
	return &ManagementCache{
		contracts: make(map[hash.Uint160]*state.Contract),
		nep11:     make(map[hash.Uint160]struct{}),
		nep17:     make(map[hash.Uint160]struct{}),
	}
}

func (c *ManagementCache) put(cs *state.Contract) {
	c.contracts[cs.Hash] = cs
	delete(c.nep11, cs.Hash)
	delete(c.nep17, cs.Hash)
	if cs.Manifest.IsStandardSupported(manifest.NEP11StandardName) {
		c.nep11[cs.Hash] = struct{}{}
	}
	if cs.Manifest.IsStandardSupported(manifest.NEP17StandardName) {
		c.nep17[cs.Hash] = struct{}{}
	}
}

func (c *ManagementCache) remove(h hash.Uint160) {
	delete(c.contracts, h)
	delete(c.nep11, h)
	delete(c.nep17, h)
}

// MakeContractKey returns the storage key of a contract state.
func MakeContractKey(h hash.Uint160) []byte { return makeUint160Key(PrefixContract, h) }

func makeContractHashKey(id int32) []byte {
	k := make([]byte, 5)
	k[0] = prefixContractHash
	binary.BigEndian.PutUint32(k[1:], uint32(id))
	return k
}

func newManagement(cs *Contracts) Contract {
	m := &Management{contractBase: newBase(nativenames.Management, config.HFDefault, cs)}
	cs.Management = m
	hashParam := NewParam("hash", smartcontract.Hash160Type)
	nefParam := NewParam("nefFile", smartcontract.ByteArrayType)
	manifestParam := NewParam("manifest", smartcontract.ByteArrayType)
	dataParam := NewParam("data", smartcontract.AnyType)
	md := m.md
	md.AddMethod(Method{Name: "getContract", Params: []manifest.Parameter{hashParam}, ReturnType: smartcontract.ArrayType,
		Func: m.getContract, CPUFee: 1 << 15, RequiredFlags: callflag.ReadStates})
	md.AddMethod(Method{Name: "deploy", Params: []manifest.Parameter{nefParam, manifestParam}, ReturnType: smartcontract.ArrayType,
		Deferred: m.deploy, RequiredFlags: callflag.All})
	md.AddMethod(Method{Name: "deploy", Params: []manifest.Parameter{nefParam, manifestParam, dataParam}, ReturnType: smartcontract.ArrayType,
		Deferred: m.deploy, RequiredFlags: callflag.All})
	md.AddMethod(Method{Name: "update", Params: []manifest.Parameter{nefParam, manifestParam}, ReturnType: smartcontract.VoidType,
		Deferred: m.update, RequiredFlags: callflag.All})
	md.AddMethod(Method{Name: "update", Params: []manifest.Parameter{nefParam, manifestParam, dataParam}, ReturnType: smartcontract.VoidType,
		Deferred: m.update, RequiredFlags: callflag.All})
	md.AddMethod(Method{Name: "destroy", ReturnType: smartcontract.VoidType, Deferred: m.destroyV0, CPUFee: 1 << 15,
		RequiredFlags: callflag.States | callflag.AllowNotify, ActiveTill: config.HFGorgon})
	md.AddMethod(Method{Name: "destroy", ReturnType: smartcontract.VoidType, Deferred: m.destroyV1, CPUFee: 1 << 15,
		RequiredFlags: callflag.States | callflag.AllowNotify, ActiveFrom: config.HFGorgon})
	md.AddMethod(Method{Name: "getMinimumDeploymentFee", ReturnType: smartcontract.IntegerType,
		Func: m.getMinimumDeploymentFee, CPUFee: 1 << 15, RequiredFlags: callflag.ReadStates})
	md.AddMethod(Method{Name: "setMinimumDeploymentFee", Params: []manifest.Parameter{NewParam("value", smartcontract.IntegerType)},
		ReturnType: smartcontract.VoidType, Func: m.setMinimumDeploymentFee, CPUFee: 1 << 15, RequiredFlags: callflag.States})
	md.AddMethod(Method{Name: "hasMethod", Params: []manifest.Parameter{hashParam, NewParam("method", smartcontract.StringType),
		NewParam("pcount", smartcontract.IntegerType)}, ReturnType: smartcontract.BoolType,
		Func: m.hasMethod, CPUFee: 1 << 15, RequiredFlags: callflag.ReadStates})
	md.AddMethod(Method{Name: "getContractById", Params: []manifest.Parameter{NewParam("id", smartcontract.IntegerType)},
		ReturnType: smartcontract.ArrayType, Func: m.getContractByID, CPUFee: 1 << 15, RequiredFlags: callflag.ReadStates})
	md.AddMethod(Method{Name: "getContractHashes", ReturnType: smartcontract.InteropInterfaceType,
		Func: m.getContractHashes, CPUFee: 1 << 15, RequiredFlags: callflag.ReadStates})
	md.AddMethod(Method{Name: "isContract", Params: []manifest.Parameter{hashParam}, ReturnType: smartcontract.BoolType,
		Func: m.isContract, CPUFee: 1 << 14, RequiredFlags: callflag.ReadStates, ActiveFrom: config.HFEchidna})
	hashEventParam := []manifest.Parameter{NewParam("Hash", smartcontract.Hash160Type)}
	md.AddEvent(Event{Name: managementDeployEvent, Params: hashEventParam})
	md.AddEvent(Event{Name: managementUpdateEvent, Params: hashEventParam})
	md.AddEvent(Event{Name: managementDestroyEvent, Params: hashEventParam})
	return m
}

// GetContract returns the state of the contract with hash h from the native
// cache of d (dao.ErrNotFound if there is none).
func (m *Management) GetContract(d *dao.Simple, h hash.Uint160) (*state.Contract, error) {
	c, _ := d.GetROCache(m.md.ID).(*ManagementCache)
	if c == nil {
		return nil, fmt.Errorf("%w: contract cache is not initialized", dao.ErrNotFound)
	}
	cs, ok := c.contracts[h]
	if !ok {
		return nil, dao.ErrNotFound
	}
	return cs, nil
}

// GetContractByID returns the state of the contract with the given id.
func (m *Management) GetContractByID(d *dao.Simple, id int32) (*state.Contract, error) {
	v := d.GetStorageItem(m.md.ID, makeContractHashKey(id))
	if v == nil {
		return nil, dao.ErrNotFound
	}
	if len(v) != hash.Uint160Size {
		return nil, fmt.Errorf("invalid contract hash record for id %d", id)
	}
	return m.GetContract(d, hash.Uint160(v))
}

// NEP17Contracts and NEP11Contracts return the hashes of the deployed
// contracts claiming the standard.
func (m *Management) NEP17Contracts(d *dao.Simple) []hash.Uint160 {
	c := d.GetROCache(m.md.ID).(*ManagementCache)
	return keysOf(c.nep17)
}

// NEP11Contracts returns the hashes of the contracts claiming NEP-11.
func (m *Management) NEP11Contracts(d *dao.Simple) []hash.Uint160 {
	c := d.GetROCache(m.md.ID).(*ManagementCache)
	return keysOf(c.nep11)
}

func keysOf(s map[hash.Uint160]struct{}) []hash.Uint160 {
	res := make([]hash.Uint160, 0, len(s))
	for h := range s {
		res = append(res, h)
	}
	return res
}

func (m *Management) getContract(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	h, err := toHash160(args[0])
	if err != nil {
		return nil, err
	}
	cs, err := m.GetContract(ic.DAO, h)
	if err != nil {
		return stackitem.Null{}, nil
	}
	return cs.ToStackItem()
}

func (m *Management) getContractByID(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	id, err := ToInt32(args[0])
	if err != nil {
		return nil, fmt.Errorf("id is not a correct int32: %w", err)
	}
	cs, err := m.GetContractByID(ic.DAO, id)
	if err != nil {
		return stackitem.Null{}, nil
	}
	return cs.ToStackItem()
}

func (m *Management) getContractHashes(ic *interop.Context, _ []stackitem.Item) (stackitem.Item, error) {
	it := interop.NewStorageIterator(ic, m.md.ID, []byte{prefixContractHash}, interop.FindRemovePrefix,
		func(k, _ []byte) bool { return len(k) == 4 && binary.BigEndian.Uint32(k) < math.MaxInt32 })
	return stackitem.NewInterop(it), nil
}

func (m *Management) hasMethod(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	h, err := toHash160(args[0])
	if err != nil {
		return nil, err
	}
	method, err := ToString(args[1])
	if err != nil {
		return nil, err
	}
	pcount, err := ToInt64(args[2])
	if err != nil {
		return nil, err
	}
	cs, err := m.GetContract(ic.DAO, h)
	if err != nil {
		return stackitem.Bool(false), nil
	}
	return stackitem.Bool(cs.Manifest.ABI.GetMethod(method, int(pcount)) != nil), nil
}

func (m *Management) isContract(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	h, err := toHash160(args[0])
	if err != nil {
		return nil, err
	}
	_, err = m.GetContract(ic.DAO, h)
	return stackitem.Bool(err == nil), nil
}

func (m *Management) getMinimumDeploymentFee(ic *interop.Context, _ []stackitem.Item) (stackitem.Item, error) {
	fee, err := ic.DAO.GetInt64(m.md.ID, keyMinimumDeploymentFee)
	if err != nil {
		return nil, err
	}
	return stackitem.NewInt(fee), nil
}

func (m *Management) setMinimumDeploymentFee(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	value, err := ToBigInt(args[0])
	if err != nil {
		return nil, err
	}
	if value.Sign() < 0 {
		return nil, errors.New("MinimumDeploymentFee cannot be negative")
	}
	ok, err := CheckCommittee(ic, m.cs.Committee())
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, ErrInvalidCommittee
	}
	ic.DAO.PutBigInt(m.md.ID, keyMinimumDeploymentFee, value)
	return stackitem.Null{}, nil
}

// limitedBytes is neo-go's getLimitedSlice: Null is nil, empty is an error.
func limitedBytes(arg stackitem.Item, maxLen int) ([]byte, error) {
	if _, ok := arg.(stackitem.Null); ok {
		return nil, nil
	}
	b, err := arg.TryBytes()
	if err != nil {
		return nil, err
	}
	switch l := len(b); {
	case l == 0:
		return nil, errors.New("empty")
	case l > maxLen:
		return nil, fmt.Errorf("len is %d (max %d)", l, maxLen)
	}
	return b, nil
}

// nefAndManifest decodes the NEF and manifest arguments of deploy and update
// after charging their storage (and for deploy the minimum deployment fee).
func (m *Management) nefAndManifest(ic *interop.Context, args []stackitem.Item, isDeploy bool) (*nef.File, *manifest.Manifest, error) {
	nefBytes, err := limitedBytes(args[0], math.MaxInt32)
	if err != nil {
		return nil, nil, fmt.Errorf("invalid NEF file: %w", err)
	}
	manifestBytes, err := limitedBytes(args[1], manifest.MaxManifestSize)
	if err != nil {
		return nil, nil, fmt.Errorf("invalid manifest: %w", err)
	}
	fee := ic.StoragePrice * int64(len(nefBytes)+len(manifestBytes))
	if isDeploy {
		minFee, err := ic.DAO.GetInt64(m.md.ID, keyMinimumDeploymentFee)
		if err != nil {
			return nil, nil, err
		}
		fee = max(fee, minFee)
	}
	if err := ic.VM.AddGas(fee); err != nil {
		return nil, nil, err
	}
	var (
		f  *nef.File
		mf *manifest.Manifest
	)
	if nefBytes != nil {
		if f, err = nef.FileFromBytes(nefBytes); err != nil {
			return nil, nil, fmt.Errorf("invalid NEF file: %w", nefError(nefBytes, err))
		}
	}
	if manifestBytes != nil {
		if !utf8.Valid(manifestBytes) {
			return nil, nil, errors.New("manifest is not UTF-8 compliant")
		}
		mf = new(manifest.Manifest)
		if err := json.Unmarshal(manifestBytes, mf); err != nil {
			return nil, nil, fmt.Errorf("invalid manifest: %w", err)
		}
	}
	return f, mf, nil
}

// nefErrorTexts are neo-go's texts of the NEF errors a FAULT shows.
var nefErrorTexts = []struct {
	err  error
	text string
}{
	{nef.ErrInvalidMagic, "invalid Magic"},
	{nef.ErrReserved, "reserved bytes must be 0"},
	{nef.ErrEmptyScript, "empty script"},
	{nef.ErrChecksum, "checksum verification failure"},
	{nef.ErrInvalidMethodName, "method name should't start with '_'"},
	{nef.ErrInvalidCallFlags, "invalid call flag"},
}

// nefError words an error of nef.FileFromBytes(b) as neo-go does. neo-go
// compares the magic even when fewer than 4 bytes were there to read it.
func nefError(b []byte, err error) error {
	if len(b) < 4 {
		err = nef.ErrInvalidMagic
	}
	for _, t := range nefErrorTexts {
		if errors.Is(err, t.err) {
			return interop.Worded(err, errors.New(t.text))
		}
	}
	return err
}

func (m *Management) deploy(ic *interop.Context, args []stackitem.Item, done func(stackitem.Item) error) error {
	var data stackitem.Item = stackitem.Null{}
	if len(args) == 3 {
		data = args[2]
	}
	f, mf, err := m.nefAndManifest(ic, args, true)
	if err != nil {
		return err
	}
	if f == nil {
		return errors.New("no valid NEF provided")
	}
	if mf == nil {
		return errors.New("no valid manifest provided")
	}
	if ic.Tx == nil {
		return errors.New("no transaction provided")
	}
	cs, err := m.Deploy(ic, ic.Tx.Sender(), f, mf)
	if err != nil {
		return err
	}
	return m.callDeploy(ic, cs, data, false, func() error {
		if err := m.notify(ic, managementDeployEvent, cs.Hash); err != nil {
			return err
		}
		item, err := cs.ToStackItem()
		if err != nil {
			return err
		}
		return done(item)
	})
}

// Deploy stores a new contract deployed by sender (no _deploy call, no
// notification).
func (m *Management) Deploy(ic *interop.Context, sender hash.Uint160, f *nef.File, mf *manifest.Manifest) (*state.Contract, error) {
	h := state.CreateContractHash(sender, f.Checksum, mf.Name)
	if m.cs.Policy.IsBlocked(ic.DAO, h) {
		return nil, fmt.Errorf("the contract %s has been blocked", h.StringLE())
	}
	if _, err := m.GetContract(ic.DAO, h); err == nil {
		return nil, errors.New("contract already exists")
	}
	id, err := m.nextContractID(ic.DAO)
	if err != nil {
		return nil, err
	}
	if err := mf.IsValid(h, false); err != nil {
		return nil, fmt.Errorf("invalid manifest: %w", err)
	}
	if err := checkScriptAndMethods(ic, f.Script, mf.ABI.Methods); err != nil {
		return nil, err
	}
	cs := &state.Contract{ContractBase: state.ContractBase{ID: id, Hash: h, NEF: *f, Manifest: *mf}}
	if err := m.putContractState(ic.DAO, cs, true); err != nil {
		return nil, err
	}
	return cs, nil
}

func (m *Management) update(ic *interop.Context, args []stackitem.Item, done func(stackitem.Item) error) error {
	var data stackitem.Item = stackitem.Null{}
	if len(args) == 3 {
		data = args[2]
	}
	f, mf, err := m.nefAndManifest(ic, args, false)
	if err != nil {
		return err
	}
	if f == nil && mf == nil {
		return errors.New("both NEF and manifest are nil")
	}
	cs, err := m.Update(ic, ic.CallingScriptHash(), f, mf)
	if err != nil {
		return err
	}
	return m.callDeploy(ic, cs, data, true, func() error {
		if err := m.notify(ic, managementUpdateEvent, cs.Hash); err != nil {
			return err
		}
		return done(stackitem.Null{})
	})
}

// Update replaces the NEF and/or manifest of contract h (no _deploy call,
// no notification).
func (m *Management) Update(ic *interop.Context, h hash.Uint160, f *nef.File, mf *manifest.Manifest) (*state.Contract, error) {
	old, err := m.GetContract(ic.DAO, h)
	if err != nil {
		return nil, errors.New("contract doesn't exist")
	}
	if old.UpdateCounter == math.MaxUint16 {
		return nil, errors.New("the contract reached the maximum number of updates")
	}
	if err := m.cs.Policy.CleanWhitelist(ic, h); err != nil {
		return nil, fmt.Errorf("failed to clean whitelist for %s: %w", h.StringLE(), err)
	}
	cs := *old
	if f != nil {
		cs.NEF = *f
	}
	if mf != nil {
		if mf.Name != cs.Manifest.Name {
			return nil, errors.New("contract name can't be changed")
		}
		if err := mf.IsValid(cs.Hash, false); err != nil {
			return nil, fmt.Errorf("invalid manifest: %w", err)
		}
		cs.Manifest = *mf
	}
	if err := checkScriptAndMethods(ic, cs.NEF.Script, cs.Manifest.ABI.Methods); err != nil {
		return nil, err
	}
	cs.UpdateCounter++
	if err := m.putContractState(ic.DAO, &cs, true); err != nil {
		return nil, err
	}
	return &cs, nil
}

func (m *Management) destroyV0(ic *interop.Context, _ []stackitem.Item, done func(stackitem.Item) error) error {
	return m.destroy(ic, done, false)
}

func (m *Management) destroyV1(ic *interop.Context, _ []stackitem.Item, done func(stackitem.Item) error) error {
	return m.destroy(ic, done, true)
}

// destroy removes the calling contract and its storage and blocks its hash;
// from HF_Gorgon the hash is blocked (revoking its votes) before the erase.
func (m *Management) destroy(ic *interop.Context, done func(stackitem.Item) error, blockBeforeErase bool) error {
	h := ic.CallingScriptHash()
	cs, err := m.GetContract(ic.DAO, h)
	if err != nil {
		return err
	}
	erase := func() {
		ic.DAO.DeleteStorageItem(m.md.ID, MakeContractKey(h))
		ic.DAO.DeleteStorageItem(m.md.ID, makeContractHashKey(cs.ID))
		ic.DAO.Seek(cs.ID, storage.SeekRange{}, func(k, _ []byte) bool {
			ic.DAO.DeleteStorageItem(cs.ID, k)
			return true
		})
		ic.DAO.GetRWCache(m.md.ID).(*ManagementCache).remove(h)
	}
	finish := func() error {
		if err := m.cs.Policy.CleanWhitelist(ic, h); err != nil {
			return fmt.Errorf("failed to clean whitelist for %s: %w", h.StringLE(), err)
		}
		if blockBeforeErase {
			erase()
		}
		if err := m.notify(ic, managementDestroyEvent, h); err != nil {
			return err
		}
		return done(stackitem.Null{})
	}
	if !blockBeforeErase {
		erase()
	}
	return m.cs.Policy.BlockAccountInternal(ic, h, func(bool) error { return finish() })
}

// callDeploy calls _deploy(data, isUpdate) of cs if it has one, then runs
// then.
func (m *Management) callDeploy(ic *interop.Context, cs *state.Contract, data stackitem.Item, isUpdate bool, then func() error) error {
	if cs.Manifest.ABI.GetMethod(manifest.MethodDeploy, 2) == nil {
		return then()
	}
	return ic.CallFromNative(m.md.Hash, cs, manifest.MethodDeploy, []stackitem.Item{data, stackitem.Bool(isUpdate)}, false,
		func(*interop.Context, stackitem.Item) error { return then() })
}

func (m *Management) notify(ic *interop.Context, name string, h hash.Uint160) error {
	return ic.AddNotification(m.md.Hash, name, stackitem.NewArray([]stackitem.Item{HashItem(h)}))
}

// checkScriptAndMethods checks method offsets against the script, and from
// HF_Basilisk the script itself (interop.CheckScript).
func checkScriptAndMethods(ic *interop.Context, script []byte, methods []manifest.Method) error {
	offsets := make([]int, len(methods))
	for i := range methods {
		if methods[i].Offset >= len(script) {
			return fmt.Errorf("method %s/%d: offset is out of the script range", methods[i].Name, len(methods[i].Parameters))
		}
		offsets[i] = methods[i].Offset
	}
	if !ic.IsHardforkEnabled(config.HFBasilisk) {
		return nil
	}
	if err := interop.CheckScript(script, offsets); err != nil {
		return fmt.Errorf("invalid contract script: %w", err)
	}
	return nil
}

// putContractState stores cs (and for a new contract its id record) and,
// with updateCache, puts it in the layer's cache.
func (m *Management) putContractState(d *dao.Simple, cs *state.Contract, updateCache bool) error {
	if err := d.PutStorageConvertible(m.md.ID, MakeContractKey(cs.Hash), cs); err != nil {
		return err
	}
	if updateCache {
		d.GetRWCache(m.md.ID).(*ManagementCache).put(cs)
	}
	if cs.UpdateCounter == 0 {
		d.PutStorageItem(m.md.ID, makeContractHashKey(cs.ID), cs.Hash[:])
	}
	return nil
}

func (m *Management) nextContractID(d *dao.Simple) (int32, error) {
	v := d.GetStorageItem(m.md.ID, keyNextAvailableID)
	if v == nil {
		return 0, errors.New("nextAvailableID is not initialized")
	}
	id := bigint.FromBytes(v)
	ret := int32(id.Int64())
	d.PutBigInt(m.md.ID, keyNextAvailableID, id.Add(id, big.NewInt(1)))
	return ret, nil
}

// Initialize implements Contract.
func (m *Management) Initialize(ic *interop.Context, hf config.Hardfork, _ *HFContractMD) error {
	if hf != m.md.ActiveIn {
		return nil
	}
	ic.DAO.PutInt64(m.md.ID, keyMinimumDeploymentFee, DefaultMinimumDeploymentFee)
	ic.DAO.PutInt64(m.md.ID, keyNextAvailableID, 1)
	ic.DAO.SetCache(m.md.ID, newManagementCache())
	return nil
}

// InitializeCache implements Contract.
func (m *Management) InitializeCache(d *dao.Simple, _ *config.Blockchain, _ uint32) error {
	c := newManagementCache()
	var err error
	d.Seek(m.md.ID, storage.SeekRange{Prefix: []byte{PrefixContract}}, func(_, v []byte) bool {
		cs := new(state.Contract)
		if err = stackitem.DeserializeConvertible(v, cs); err != nil {
			return false
		}
		c.put(cs)
		return true
	})
	if err != nil {
		return err
	}
	d.SetCache(m.md.ID, c)
	return nil
}

// OnPersist implements Contract: it deploys the natives whose activation
// block this is and updates those with a hardfork activating now, calling
// their Initialize and sending Deploy or Update notifications (neo-go
// Management.OnPersist).
func (m *Management) OnPersist(ic *interop.Context) error {
	if ic.Block == nil {
		return nil
	}
	var cache *ManagementCache
	for _, native := range m.cs.list {
		md := native.Metadata()
		activeIn := md.ActiveIn
		isDeploy := (activeIn == config.HFDefault && ic.Block.Index == 0) ||
			(activeIn != config.HFDefault && ic.IsHardforkActivation(activeIn))
		var (
			isUpdate bool
			latestHF config.Hardfork
			current  []config.Hardfork
		)
		for _, hf := range config.Hardforks() {
			if md.ActiveHFs.Has(hf) && ic.IsHardforkActivation(hf) {
				if !isDeploy && !isUpdate {
					isUpdate = true
				}
				latestHF = hf
				current = append(current, hf)
			}
		}
		if activeIn > latestHF {
			latestHF = activeIn
		}
		if !isDeploy && !isUpdate {
			continue
		}
		hfmd := md.HFSpecific(latestHF)
		var cs *state.Contract
		if isDeploy {
			cs = &state.Contract{ContractBase: hfmd.ContractBase}
		} else {
			if cache == nil {
				cache = ic.DAO.GetRWCache(m.md.ID).(*ManagementCache)
			}
			old, ok := cache.contracts[md.Hash]
			if !ok {
				return fmt.Errorf("failed to retrieve native %s from cache", md.Name)
			}
			c := *old
			c.NEF = hfmd.NEF
			c.Manifest = hfmd.Manifest
			c.UpdateCounter++
			cs = &c
		}
		if err := m.putContractState(ic.DAO, cs, false); err != nil {
			return fmt.Errorf("failed to put contract state: %w", err)
		}
		if isDeploy {
			if err := native.Initialize(ic, activeIn, hfmd); err != nil {
				return fmt.Errorf("initializing %s native contract at HF %v: %w", md.Name, activeIn, err)
			}
		}
		for _, hf := range current {
			if err := native.Initialize(ic, hf, hfmd); err != nil {
				return fmt.Errorf("initializing %s native contract at HF %s: %w", md.Name, hf, err)
			}
		}
		if cache == nil {
			cache = ic.DAO.GetRWCache(m.md.ID).(*ManagementCache)
		}
		cache.put(cs)
		ev := managementDeployEvent
		if isUpdate {
			ev = managementUpdateEvent
		}
		if err := m.notify(ic, ev, cs.Hash); err != nil {
			return err
		}
	}
	return nil
}

package native

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core/dao"
	"github.com/n3node/n3node/pkg/core/interop"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/native/noderoles"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/encoding/bigint"
	nio "github.com/n3node/n3node/pkg/io"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/smartcontract/manifest"
	"github.com/n3node/n3node/pkg/vm/emit"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// Oracle limits and defaults (C# OracleContract).
const (
	// MaxOracleURLLength is the longest request URL in bytes (C#
	// MaxUrlLength).
	MaxOracleURLLength = 256
	// MaxOracleFilterLength is the longest filter in bytes (C#
	// MaxFilterLength).
	MaxOracleFilterLength = 128
	// MaxOracleCallbackLength is the longest callback method name in bytes
	// (C# MaxCallbackLength).
	MaxOracleCallbackLength = 32
	// MaxOracleUserDataLength is the largest serialized user data (C#
	// MaxUserDataLength).
	MaxOracleUserDataLength = 512
	// MaxOracleRequestsPerURL is the most pending requests per URL (C#
	// Request: "too many pending responses").
	MaxOracleRequestsPerURL = 256
	// DefaultOracleRequestPrice is the price of a request at deployment in
	// datoshi (C# InitializeAsync: 0.5 GAS).
	DefaultOracleRequestPrice = 5000_0000
	// MinOracleResponseGas is the least gasForResponse (C#
	// MinGasForResponse: 0.1 GAS).
	MinOracleResponseGas = 1000_0000
)

// Oracle storage prefixes (C# Prefix_*).
const (
	oraclePricePrefix     = 5
	oracleIDListPrefix    = 6
	oracleRequestPrefix   = 7
	oracleRequestIDPrefix = 9
)

// Oracle errors.
var (
	ErrOracleBigArgument      = errors.New("some of the arguments are invalid")
	ErrOracleLowResponseGas   = errors.New("not enough gas for response")
	ErrOracleRequestNotFound  = errors.New("oracle request not found")
	ErrOracleResponseNotFound = errors.New("oracle response not found")
	ErrOracleBadCallback      = errors.New("disallowed callback method (starts with '_')")
	ErrOracleTooManyRequests  = errors.New("too many pending requests for the URL")
	ErrOracleNotEntry         = errors.New("'Oracle.finish' called from non-entry script")
	ErrOracleMultipleFinish   = errors.New("'Oracle.finish' called multiple times")
	ErrNoTransaction          = errors.New("the script container is not a transaction")
	ErrNoGAS                  = errors.New("GasToken is not available")
)

// gasMinter is what Oracle and Notary need of GasToken: minting without
// (or with) the onNEP17Payment call, then continuing with then (which
// Mint runs itself, at once when no contract call is needed).
type gasMinter interface {
	Mint(ic *interop.Context, h hash.Uint160, amount *big.Int, callOnPayment bool, then func() error) error
}

func gasToken(cs *Contracts) (gasMinter, error) {
	if g, ok := cs.ByID(nativenames.GasID).(gasMinter); ok {
		return g, nil
	}
	return nil, ErrNoGAS
}

// mintGAS mints amount GAS to h without the onNEP17Payment call (no
// contract runs, so it finishes at once).
func mintGAS(ic *interop.Context, cs *Contracts, h hash.Uint160, amount *big.Int) error {
	g, err := gasToken(cs)
	if err != nil {
		return err
	}
	return g.Mint(ic, h, amount, false, func() error { return nil })
}

// Oracle is the OracleContract native contract (C# OracleContract): the
// request queue of the Oracle service. Contracts request data with
// request; the Oracle nodes answer with a transaction carrying an
// OracleResponse attribute whose script calls finish, which calls the
// requester back; PostPersist removes answered requests and pays the nodes.
// It follows neo-go 0.120.0 (the order of checks and notifications of
// request, the signers of the callback) except that the nodes paid are
// those designated for the persisting block (C#, neo-go 0.122.0).
type Oracle struct {
	contractBase

	responseScript []byte
}

// OracleCache holds the request price per DAO layer.
type OracleCache struct {
	price int64
}

// Copy implements dao.NativeContractCache.
func (c *OracleCache) Copy() dao.NativeContractCache { return shallowCopy(c) }

func newOracle(cs *Contracts) Contract {
	o := &Oracle{contractBase: newBase(nativenames.Oracle, config.HFDefault, cs)}
	md := o.md
	md.RegisterHardfork(config.HFFaun) // supported standards
	md.SetManifestHook(func(m *manifest.Manifest, hf config.Hardfork) {
		if hf >= config.HFFaun {
			m.SupportedStandards = []string{"NEP-30"}
		}
	})
	strT, intT := smartcontract.StringType, smartcontract.IntegerType
	md.AddMethod(Method{Name: "request", Params: []manifest.Parameter{NewParam("url", strT), NewParam("filter", strT),
		NewParam("callback", strT), NewParam("userData", smartcontract.AnyType), NewParam("gasForResponse", intT)},
		ReturnType: smartcontract.VoidType, Func: o.request, RequiredFlags: callflag.States | callflag.AllowNotify})
	md.AddMethod(Method{Name: "finish", ReturnType: smartcontract.VoidType, Deferred: o.finish,
		RequiredFlags: callflag.States | callflag.AllowCall | callflag.AllowNotify})
	md.AddMethod(Method{Name: "verify", ReturnType: smartcontract.BoolType, Func: o.verify, CPUFee: 1 << 15})
	md.AddMethod(Method{Name: "getPrice", ReturnType: intT, Func: o.getPrice, CPUFee: 1 << 15, RequiredFlags: callflag.ReadStates})
	md.AddMethod(Method{Name: "setPrice", Params: []manifest.Parameter{NewParam("price", intT)}, ReturnType: smartcontract.VoidType,
		Func: o.setPrice, CPUFee: 1 << 15, RequiredFlags: callflag.States})
	md.AddEvent(Event{Name: "OracleRequest", Params: []manifest.Parameter{NewParam("Id", intT),
		NewParam("RequestContract", smartcontract.Hash160Type), NewParam("Url", strT), NewParam("Filter", strT)}})
	md.AddEvent(Event{Name: "OracleResponse", Params: []manifest.Parameter{NewParam("Id", intT),
		NewParam("OriginalTx", smartcontract.Hash256Type)}})

	w := nio.NewBufBinWriter()
	emit.AppCall(w, md.Hash, "finish", callflag.All)
	if w.Err != nil {
		panic(w.Err)
	}
	o.responseScript = w.Bytes()
	return o
}

// Oracle returns the OracleContract native contract.
func (cs *Contracts) Oracle() *Oracle { return contractByID[*Oracle](cs, nativenames.OracleID) }

// ResponseScript returns the script every OracleResponse transaction must
// have: a call of finish (C# OracleResponse.FixedScript). The slice is the
// caller's.
func (o *Oracle) ResponseScript() []byte { return append([]byte(nil), o.responseScript...) }

// Initialize implements Contract.
func (o *Oracle) Initialize(ic *interop.Context, hf config.Hardfork, _ *HFContractMD) error {
	if hf != o.md.ActiveIn {
		return nil
	}
	ic.DAO.PutBigInt(o.md.ID, []byte{oracleRequestIDPrefix}, big.NewInt(0))
	ic.DAO.PutInt64(o.md.ID, []byte{oraclePricePrefix}, DefaultOracleRequestPrice)
	ic.DAO.SetCache(o.md.ID, &OracleCache{price: DefaultOracleRequestPrice})
	return nil
}

// InitializeCache implements Contract.
func (o *Oracle) InitializeCache(d *dao.Simple, _ *config.Blockchain, _ uint32) error {
	p, err := d.GetInt64(o.md.ID, []byte{oraclePricePrefix})
	if err != nil {
		return fmt.Errorf("oracle price: %w", err)
	}
	d.SetCache(o.md.ID, &OracleCache{price: p})
	return nil
}

// Price returns the price of a request in datoshi.
func (o *Oracle) Price(d *dao.Simple) int64 {
	return d.GetROCache(o.md.ID).(*OracleCache).price
}

func oracleRequestKey(id uint64) []byte {
	k := make([]byte, 9)
	k[0] = oracleRequestPrefix
	binary.BigEndian.PutUint64(k[1:], id)
	return k
}

func oracleIDListKey(url string) []byte {
	h := hash.Hash160([]byte(url))
	return append([]byte{oracleIDListPrefix}, h[:]...)
}

// oracleResponse returns the OracleResponse attribute of tx, if any.
func oracleResponse(tx *transaction.Transaction) *transaction.OracleResponse {
	if tx == nil {
		return nil
	}
	for _, a := range tx.Attributes {
		if r, ok := a.Value.(*transaction.OracleResponse); ok && a.Type == transaction.OracleResponseT {
			return r
		}
	}
	return nil
}

// GetRequest returns the pending request id (ErrOracleRequestNotFound if
// there is none).
func (o *Oracle) GetRequest(d *dao.Simple, id uint64) (*state.OracleRequest, error) {
	req := new(state.OracleRequest)
	if err := d.GetStorageConvertible(o.md.ID, oracleRequestKey(id), req); err != nil {
		if errors.Is(err, dao.ErrNotFound) {
			return nil, fmt.Errorf("%w: %d", ErrOracleRequestNotFound, id)
		}
		return nil, err
	}
	return req, nil
}

// GetRequests returns every pending request by id (C# GetRequests).
func (o *Oracle) GetRequests(d *dao.Simple) (map[uint64]*state.OracleRequest, error) {
	reqs := make(map[uint64]*state.OracleRequest)
	var err error
	d.Seek(o.md.ID, storage.SeekRange{Prefix: []byte{oracleRequestPrefix}}, func(k, v []byte) bool {
		if len(k) != 8 {
			err = fmt.Errorf("invalid oracle request key %x", k)
			return false
		}
		req := new(state.OracleRequest)
		if err = stackitem.DeserializeConvertible(v, req); err != nil {
			return false
		}
		reqs[binary.BigEndian.Uint64(k)] = req
		return true
	})
	return reqs, err
}

// GetIDList returns the pending request ids of url (nil if none).
func (o *Oracle) GetIDList(d *dao.Simple, url string) (state.IDList, error) {
	var l state.IDList
	if err := d.GetStorageConvertible(o.md.ID, oracleIDListKey(url), &l); err != nil {
		if errors.Is(err, dao.ErrNotFound) {
			return nil, nil
		}
		return nil, err
	}
	return l, nil
}

// OracleScriptHash returns the account of the latest designated Oracle
// nodes (their BFT multisig; zero if none), which must sign response
// transactions (neo-go Oracle.GetScriptHash, for the ledger's attribute
// check).
func (o *Oracle) OracleScriptHash(d *dao.Simple) (hash.Uint160, error) {
	return o.cs.RoleManagement().DesignatedAddress(d, noderoles.Oracle)
}

// NextRequestID returns the id the next request will get (every request
// made so far, answered or not, has a smaller one).
func (o *Oracle) NextRequestID(d *dao.Simple) uint64 {
	id := bigint.FromBytes(d.GetStorageItem(o.md.ID, []byte{oracleRequestIDPrefix}))
	if !id.IsUint64() {
		return 0
	}
	return id.Uint64()
}

// OracleResponseScript returns the fixed script of response transactions
// (shared: do not modify).
func (o *Oracle) OracleResponseScript() []byte { return o.responseScript }

// OracleRequestGas returns the GasForResponse of pending request id.
func (o *Oracle) OracleRequestGas(d *dao.Simple, id uint64) (uint64, error) {
	req, err := o.GetRequest(d, id)
	if err != nil {
		return 0, err
	}
	return uint64(req.GasForResponse), nil
}

// VerifyResponse checks the OracleResponse attribute resp of tx against the
// state in d, for the block after height (C# OracleResponse.Verify): no
// signer scope, the fixed script, a pending request whose gasForResponse
// equals the transaction's fees, and the BFT multisig of the Oracle nodes
// designated for that block among the signers.
func (o *Oracle) VerifyResponse(d *dao.Simple, tx *transaction.Transaction, resp *transaction.OracleResponse, height uint32) error {
	for _, s := range tx.Signers {
		if s.Scopes != transaction.None {
			return errors.New("oracle response: signers must have no scope")
		}
	}
	if string(tx.Script) != string(o.responseScript) {
		return errors.New("oracle response: invalid script")
	}
	req, err := o.GetRequest(d, resp.ID)
	if err != nil {
		return err
	}
	if tx.NetworkFee+tx.SystemFee != req.GasForResponse {
		return fmt.Errorf("oracle response: fees %d differ from the request's %d", tx.NetworkFee+tx.SystemFee, req.GasForResponse)
	}
	nodes, _, err := o.cs.RoleManagement().GetDesignatedByRole(d, noderoles.Oracle, height+1)
	if err != nil {
		return err
	}
	script, err := smartcontract.CreateDefaultMultiSigRedeemScript(nodes)
	if err != nil {
		return fmt.Errorf("oracle response: oracle nodes: %w", err)
	}
	if !tx.HasSigner(hash.Hash160(script)) {
		return errors.New("oracle response: not signed by the oracle nodes")
	}
	return nil
}

func (o *Oracle) getPrice(ic *interop.Context, _ []stackitem.Item) (stackitem.Item, error) {
	return stackitem.NewInt(o.Price(ic.DAO)), nil
}

func (o *Oracle) setPrice(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	price, err := ToBigInt(args[0])
	if err != nil {
		return nil, err
	}
	if price.Sign() <= 0 || !price.IsInt64() {
		return nil, interop.Worded(ErrArgument, errors.New("invalid register price"))
	}
	ok, err := CheckCommittee(ic, o.cs.Committee())
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, ErrInvalidCommittee
	}
	ic.DAO.PutInt64(o.md.ID, []byte{oraclePricePrefix}, price.Int64())
	ic.DAO.GetRWCache(o.md.ID).(*OracleCache).price = price.Int64()
	return nil, nil
}

func (o *Oracle) verify(ic *interop.Context, _ []stackitem.Item) (stackitem.Item, error) {
	if ic.Tx == nil {
		return nil, ErrNoTransaction
	}
	return stackitem.Bool(ic.Tx.HasAttribute(transaction.OracleResponseT)), nil
}

func (o *Oracle) request(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	url, err := ToString(args[0])
	if err != nil {
		return nil, err
	}
	var filter *string
	if _, ok := args[1].(stackitem.Null); !ok {
		f, err := ToString(args[1])
		if err != nil {
			return nil, err
		}
		filter = &f
	}
	cb, err := ToString(args[2])
	if err != nil {
		return nil, err
	}
	userData := args[3]
	gas, err := ToBigInt(args[4])
	if err != nil {
		return nil, err
	}
	if !gas.IsInt64() {
		return nil, interop.Worded(ErrArgument, errors.New("gas argument must be an int64"))
	}
	// neo-go charges the price before checking the arguments (C# after).
	if err := ic.VM.AddGas(o.Price(ic.DAO)); err != nil {
		return nil, fmt.Errorf("%w executing %s/request", err, o.md.Hash.StringLE())
	}
	return nil, o.RequestInternal(ic, url, filter, cb, userData, gas.Int64())
}

// RequestInternal makes a request as OracleContract.request does once the
// arguments are converted and the price is paid: checks, the GAS for the
// response (charged and minted to Oracle), a new id, the OracleRequest
// notification, the request and its id in the URL's list.
func (o *Oracle) RequestInternal(ic *interop.Context, url string, filter *string, cb string, userData stackitem.Item, gas int64) error {
	if len(url) > MaxOracleURLLength || (filter != nil && len(*filter) > MaxOracleFilterLength) || len(cb) > MaxOracleCallbackLength {
		return ErrOracleBigArgument
	}
	if gas < MinOracleResponseGas {
		return ErrOracleLowResponseGas
	}
	if strings.HasPrefix(cb, "_") {
		return ErrOracleBadCallback
	}
	if err := ic.VM.AddGas(gas); err != nil {
		return fmt.Errorf("%w minting reward for Oracle request", err)
	}
	caller := ic.CallingScriptHash()
	if err := mintGAS(ic, o.cs, o.md.Hash, big.NewInt(gas)); err != nil {
		return err
	}
	idKey := []byte{oracleRequestIDPrefix}
	idBytes := ic.DAO.GetStorageItem(o.md.ID, idKey)
	idInt := bigint.FromBytes(idBytes)
	if !idInt.IsUint64() {
		return fmt.Errorf("invalid oracle request id %x", idBytes)
	}
	id := idInt.Uint64()
	ic.DAO.PutBigInt(o.md.ID, idKey, idInt.Add(idInt, big.NewInt(1)))

	// Only contracts may make requests.
	if _, err := ic.GetContract(caller); err != nil {
		return err
	}
	data, err := stackitem.Serialize(userData)
	if err != nil {
		return err
	}
	if len(data) > MaxOracleUserDataLength {
		return ErrOracleBigArgument
	}
	filterItem := stackitem.Item(stackitem.Null{})
	if filter != nil {
		filterItem = stackitem.NewByteString([]byte(*filter))
	}
	if err := ic.AddNotification(o.md.Hash, "OracleRequest", stackitem.NewArray([]stackitem.Item{
		stackitem.NewBigInteger(new(big.Int).SetUint64(id)),
		HashItem(caller),
		stackitem.NewByteString([]byte(url)),
		filterItem,
	})); err != nil {
		return err
	}
	origTx, err := o.originalTxID(ic)
	if err != nil {
		return err
	}
	req := &state.OracleRequest{
		OriginalTxID:     origTx,
		GasForResponse:   gas,
		URL:              url,
		Filter:           filter,
		CallbackContract: caller,
		CallbackMethod:   cb,
		UserData:         data,
	}
	if err := ic.DAO.PutStorageConvertible(o.md.ID, oracleRequestKey(id), req); err != nil {
		return err
	}
	list, err := o.GetIDList(ic.DAO, url)
	if err != nil {
		return err
	}
	if len(list) >= MaxOracleRequestsPerURL {
		return fmt.Errorf("%w: %s", ErrOracleTooManyRequests, url)
	}
	list = append(list, id)
	return ic.DAO.PutStorageConvertible(o.md.ID, oracleIDListKey(url), &list)
}

// originalTxID is the transaction a request comes from: the request's
// own original transaction when it is made by an Oracle callback.
func (o *Oracle) originalTxID(ic *interop.Context) (hash.Uint256, error) {
	if ic.Tx == nil {
		return hash.Uint256{}, ErrNoTransaction
	}
	if resp := oracleResponse(ic.Tx); resp != nil {
		req, err := o.GetRequest(ic.DAO, resp.ID)
		if err != nil {
			return hash.Uint256{}, nil // neo-go: the zero hash
		}
		return req.OriginalTxID, nil
	}
	return ic.Tx.Hash(), nil
}

// finish is called by the OracleResponse transaction's script: it sends
// OracleResponse and calls the request's callback with the signers of the
// original transaction (neo-go; C# uses them for the whole transaction).
func (o *Oracle) finish(ic *interop.Context, _ []stackitem.Item, done func(stackitem.Item) error) error {
	if len(ic.VM.InvocationStack()) != 2 {
		return ErrOracleNotEntry
	}
	if n, _ := ic.Invocations.Get(o.md.Hash); n != 1 {
		return ErrOracleMultipleFinish
	}
	resp := oracleResponse(ic.Tx)
	if resp == nil {
		return ErrOracleResponseNotFound
	}
	req, err := o.GetRequest(ic.DAO, resp.ID)
	if err != nil {
		return ErrOracleRequestNotFound
	}
	txid := req.OriginalTxID
	if err := ic.AddNotification(o.md.Hash, "OracleResponse", stackitem.NewArray([]stackitem.Item{
		stackitem.NewBigInteger(new(big.Int).SetUint64(resp.ID)),
		stackitem.NewByteString(txid[:]),
	})); err != nil {
		return err
	}
	origTx, _, _, err := ic.DAO.GetTransaction(req.OriginalTxID)
	if err != nil {
		return ErrOracleRequestNotFound
	}
	userData, err := stackitem.Deserialize(req.UserData)
	if err != nil {
		return err
	}
	args := []stackitem.Item{
		stackitem.NewByteString([]byte(req.URL)),
		userData,
		stackitem.NewInt(int64(resp.Code)),
		stackitem.NewByteString(append([]byte{}, resp.Result...)),
	}
	cs, err := ic.GetContract(req.CallbackContract)
	if err != nil {
		return err
	}
	ic.UseSigners(origTx.Signers)
	err = ic.CallFromNative(o.md.Hash, cs, req.CallbackMethod, args, false, func(ic *interop.Context, _ stackitem.Item) error {
		ic.UseSigners(nil)
		return done(stackitem.Null{})
	})
	if err != nil {
		ic.UseSigners(nil)
		return err
	}
	return nil
}

// PostPersist implements Contract: the requests answered in the block are
// removed and each answer pays the request price to one Oracle node (the
// one at index id mod n of the nodes designated for the block).
func (o *Oracle) PostPersist(ic *interop.Context) error {
	var (
		loaded  bool
		nodes   []hash.Uint160
		rewards []*big.Int
		price   int64
	)
	for _, tx := range ic.Block.Transactions {
		resp := oracleResponse(tx)
		if resp == nil {
			continue
		}
		reqKey := oracleRequestKey(resp.ID)
		req := new(state.OracleRequest)
		if err := ic.DAO.GetStorageConvertible(o.md.ID, reqKey, req); err != nil {
			continue
		}
		ic.DAO.DeleteStorageItem(o.md.ID, reqKey)
		list, err := o.GetIDList(ic.DAO, req.URL)
		if err != nil {
			return err
		}
		if !list.Remove(resp.ID) {
			return fmt.Errorf("oracle response %d: id not in the URL's list", resp.ID)
		}
		if len(list) == 0 {
			ic.DAO.DeleteStorageItem(o.md.ID, oracleIDListKey(req.URL))
		} else if err := ic.DAO.PutStorageConvertible(o.md.ID, oracleIDListKey(req.URL), &list); err != nil {
			return err
		}
		if !loaded {
			keys, _, err := o.cs.RoleManagement().GetDesignatedByRole(ic.DAO, noderoles.Oracle, ic.Block.Index)
			if err != nil {
				return err
			}
			loaded = true
			nodes = make([]hash.Uint160, len(keys))
			rewards = make([]*big.Int, len(keys))
			for i, k := range keys {
				nodes[i] = k.ScriptHash()
				rewards[i] = new(big.Int)
			}
			price = o.Price(ic.DAO)
		}
		if len(nodes) > 0 {
			i := resp.ID % uint64(len(nodes))
			rewards[i].Add(rewards[i], big.NewInt(price))
		}
	}
	for i, h := range nodes {
		if rewards[i].Sign() > 0 {
			if err := mintGAS(ic, o.cs, h, rewards[i]); err != nil {
				return err
			}
		}
	}
	return nil
}

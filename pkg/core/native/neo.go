package native

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/big"
	"slices"

	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core/dao"
	"github.com/n3node/n3node/pkg/core/interop"
	"github.com/n3node/n3node/pkg/core/native/nativenames"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/encoding/bigint"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/smartcontract/callflag"
	"github.com/n3node/n3node/pkg/smartcontract/manifest"
	"github.com/n3node/n3node/pkg/vm/stackitem"
)

// NEO values and storage layout (C# NeoToken).
const (
	// NEOTotalSupply is the number of NEO, all minted at genesis.
	NEOTotalSupply = 100_000_000
	// DefaultRegisterPrice is the candidate registration price at genesis
	// (1000 GAS).
	DefaultRegisterPrice = 1000 * GASFactor
	// DefaultGASPerBlock is the GAS generated per block at genesis.
	DefaultGASPerBlock = 5 * GASFactor
	// maxGASPerBlock bounds setGasPerBlock (10 GAS).
	maxGASPerBlock = 10 * GASFactor

	prefixVotersCount             byte = 1  // C# Prefix_VotersCount
	prefixRegisterPrice           byte = 13 // C# Prefix_RegisterPrice
	prefixCommittee               byte = 14 // C# Prefix_Committee
	prefixVoterRewardPerCommittee byte = 23 // C# Prefix_VoterRewardPerCommittee
	prefixGASPerBlock             byte = 29 // C# Prefix_GasPerBlock
	prefixCandidate               byte = 33 // C# Prefix_Candidate

	// effectiveVoterTurnout: the voted candidates are elected only if at
	// least 1/effectiveVoterTurnout of all NEO votes (C#
	// EffectiveVoterTurnout = 0.2).
	effectiveVoterTurnout = 5
	neoHolderRewardRatio  = 10 // C# NeoHolderRewardRatio (percent)
	committeeRewardRatio  = 10 // C# CommitteeRewardRatio (percent)
	voterRewardRatio      = 80 // C# VoterRewardRatio (percent)
	// voterRewardFactor scales the per-vote reward (C# VoteFactor).
	voterRewardFactor = 100_000_000
	// maxGetCandidates is the number of candidates getCandidates returns
	// at most.
	maxGetCandidates = 256
)

var (
	votersCountKey   = []byte{prefixVotersCount}
	registerPriceKey = []byte{prefixRegisterPrice}
	committeeKey     = []byte{prefixCommittee}
)

// NEO is the NeoToken native contract (C# NeoToken): the governance token
// with the candidates, votes, the committee and the GAS generation.
type NEO struct {
	nep17
	standby []*keys.PublicKey // StandbyCommittee, in configuration order
}

// gasRecord is a GAS-per-block value from a block index on.
type gasRecord struct {
	index uint32
	gas   big.Int
}

// NeoCache is the NEO state kept decoded per DAO layer: the committee
// (members in election order with their votes, keys, multisig address),
// the validators of the next block, the same values of the next dBFT epoch
// (computed in the PostPersist of the last block of an epoch, applied in
// the OnPersist of the first block of the next), the GAS-per-block history
// and the registration price. Slices are replaced, never modified in place,
// so copies share them; the GAS history is append-only.
type NeoCache struct {
	gasPerBlock   []gasRecord
	registerPrice int64

	committee      []state.Validator
	committeeKeys  []*keys.PublicKey
	committeeHash  hash.Uint160
	nextValidators []*keys.PublicKey

	newEpochCommittee      []state.Validator
	newEpochCommitteeKeys  []*keys.PublicKey
	newEpochCommitteeHash  hash.Uint160
	newEpochNextValidators []*keys.PublicKey
}

// Copy implements dao.NativeContractCache.
func (c *NeoCache) Copy() dao.NativeContractCache {
	cp := *c
	cp.gasPerBlock = slices.Clip(c.gasPerBlock)
	return &cp
}

var (
	_ Contract  = (*NEO)(nil)
	_ Committee = (*NEO)(nil)
)

func newNEO(cs *Contracts) Contract {
	n := &NEO{nep17: nep17{contractBase: newBase(nativenames.Neo, config.HFDefault, cs), symbol: "NEO", decimals: 0}}
	n.neo = n
	if pks, err := cs.cfg.StandbyCommitteeKeys(); err == nil {
		for _, pk := range pks {
			k, err := keys.NewPublicKeyFromBytes(pk.Bytes())
			if err != nil {
				panic(fmt.Errorf("standby committee key: %w", err)) // validated configuration
			}
			n.standby = append(n.standby, k)
		}
	}
	n.addMethods(func(hf config.Hardfork) []string {
		if hf >= config.HFEchidna {
			return []string{manifest.NEP27StandardName}
		}
		return nil
	})
	md := n.md
	pubkey := []manifest.Parameter{NewParam("pubkey", smartcontract.PublicKeyType)}
	md.AddMethod(Method{Name: "unclaimedGas", Params: []manifest.Parameter{NewParam("account", smartcontract.Hash160Type),
		NewParam("end", smartcontract.IntegerType)}, ReturnType: smartcontract.IntegerType, Func: n.unclaimedGas,
		CPUFee: 1 << 17, RequiredFlags: callflag.ReadStates})
	md.AddMethod(Method{Name: "registerCandidate", Params: pubkey, ReturnType: smartcontract.BoolType,
		Func: n.registerCandidate, RequiredFlags: callflag.States, ActiveTill: config.HFEchidna})
	md.AddMethod(Method{Name: "registerCandidate", Params: pubkey, ReturnType: smartcontract.BoolType,
		Func: n.registerCandidate, RequiredFlags: callflag.States | callflag.AllowNotify, ActiveFrom: config.HFEchidna})
	md.AddMethod(Method{Name: "unregisterCandidate", Params: pubkey, ReturnType: smartcontract.BoolType,
		Func: n.unregisterCandidate, CPUFee: 1 << 16, RequiredFlags: callflag.States, ActiveTill: config.HFEchidna})
	md.AddMethod(Method{Name: "unregisterCandidate", Params: pubkey, ReturnType: smartcontract.BoolType,
		Func: n.unregisterCandidate, CPUFee: 1 << 16, RequiredFlags: callflag.States | callflag.AllowNotify,
		ActiveFrom: config.HFEchidna})
	// neo-go charges 1<<15 for onNEP17Payment, C# nothing; n3node follows
	// neo-go (docs/native.md, "NEO and GAS").
	md.AddMethod(Method{Name: manifest.MethodOnNEP17Payment, Params: []manifest.Parameter{
		NewParam("from", smartcontract.Hash160Type), NewParam("amount", smartcontract.IntegerType),
		NewParam("data", smartcontract.AnyType)}, ReturnType: smartcontract.VoidType, Func: n.onNEP17Payment,
		CPUFee: 1 << 15, RequiredFlags: callflag.States | callflag.AllowNotify, ActiveFrom: config.HFEchidna})
	voteParams := []manifest.Parameter{NewParam("account", smartcontract.Hash160Type), NewParam("voteTo", smartcontract.PublicKeyType)}
	md.AddMethod(Method{Name: "vote", Params: voteParams, ReturnType: smartcontract.BoolType, Deferred: n.vote,
		CPUFee: 1 << 16, RequiredFlags: callflag.States, ActiveTill: config.HFEchidna})
	md.AddMethod(Method{Name: "vote", Params: voteParams, ReturnType: smartcontract.BoolType, Deferred: n.vote,
		CPUFee: 1 << 16, RequiredFlags: callflag.States | callflag.AllowNotify, ActiveFrom: config.HFEchidna})
	md.AddMethod(Method{Name: "getCandidates", ReturnType: smartcontract.ArrayType, Func: n.getCandidatesMethod,
		CPUFee: 1 << 22, RequiredFlags: callflag.ReadStates})
	md.AddMethod(Method{Name: "getAllCandidates", ReturnType: smartcontract.InteropInterfaceType, Func: n.getAllCandidates,
		CPUFee: 1 << 22, RequiredFlags: callflag.ReadStates})
	md.AddMethod(Method{Name: "getCandidateVote", Params: []manifest.Parameter{NewParam("pubKey", smartcontract.PublicKeyType)},
		ReturnType: smartcontract.IntegerType, Func: n.getCandidateVote, CPUFee: 1 << 15, RequiredFlags: callflag.ReadStates})
	md.AddMethod(Method{Name: "getAccountState", Params: []manifest.Parameter{NewParam("account", smartcontract.Hash160Type)},
		ReturnType: smartcontract.ArrayType, Func: n.getAccountState, CPUFee: 1 << 15, RequiredFlags: callflag.ReadStates})
	md.AddMethod(Method{Name: "getCommittee", ReturnType: smartcontract.ArrayType, Func: n.getCommittee,
		CPUFee: 1 << 16, RequiredFlags: callflag.ReadStates})
	md.AddMethod(Method{Name: "getCommitteeAddress", ReturnType: smartcontract.Hash160Type, Func: n.getCommitteeAddress,
		CPUFee: 1 << 16, RequiredFlags: callflag.ReadStates, ActiveFrom: config.HFCockatrice})
	md.AddMethod(Method{Name: "getNextBlockValidators", ReturnType: smartcontract.ArrayType, Func: n.getNextBlockValidators,
		CPUFee: 1 << 16, RequiredFlags: callflag.ReadStates})
	md.AddMethod(Method{Name: "getGasPerBlock", ReturnType: smartcontract.IntegerType, Func: n.getGASPerBlock,
		CPUFee: 1 << 15, RequiredFlags: callflag.ReadStates})
	md.AddMethod(Method{Name: "setGasPerBlock", Params: []manifest.Parameter{NewParam("gasPerBlock", smartcontract.IntegerType)},
		ReturnType: smartcontract.VoidType, Func: n.setGASPerBlock, CPUFee: 1 << 15, RequiredFlags: callflag.States})
	md.AddMethod(Method{Name: "getRegisterPrice", ReturnType: smartcontract.IntegerType, Func: n.getRegisterPrice,
		CPUFee: 1 << 15, RequiredFlags: callflag.ReadStates})
	md.AddMethod(Method{Name: "setRegisterPrice", Params: []manifest.Parameter{NewParam("registerPrice", smartcontract.IntegerType)},
		ReturnType: smartcontract.VoidType, Func: n.setRegisterPrice, CPUFee: 1 << 15, RequiredFlags: callflag.States})
	md.AddEvent(Event{Name: "CandidateStateChanged", Params: []manifest.Parameter{
		NewParam("pubkey", smartcontract.PublicKeyType), NewParam("registered", smartcontract.BoolType),
		NewParam("votes", smartcontract.IntegerType)}})
	md.AddEvent(Event{Name: "Vote", Params: []manifest.Parameter{
		NewParam("account", smartcontract.Hash160Type), NewParam("from", smartcontract.PublicKeyType),
		NewParam("to", smartcontract.PublicKeyType), NewParam("amount", smartcontract.IntegerType)}})
	md.AddEvent(Event{Name: "CommitteeChanged", Params: []manifest.Parameter{
		NewParam("old", smartcontract.ArrayType), NewParam("new", smartcontract.ArrayType)}, ActiveFrom: config.HFCockatrice})
	cs.NEO = n
	return n
}

func (n *NEO) cache(d *dao.Simple) *NeoCache {
	c, _ := d.GetROCache(n.md.ID).(*NeoCache)
	if c == nil {
		panic("NEO cache is not initialized") // a ledger bug: InitializeCache or genesis first
	}
	return c
}

func (n *NEO) rwCache(d *dao.Simple) *NeoCache { return d.GetRWCache(n.md.ID).(*NeoCache) }

// ---- keys ----

// candidateKey is a public key argument: its 33-byte compressed form, or
// the single byte 0x00 of the point at infinity (which C# and neo-go
// accept as a key, and which never witnesses anything).
type candidateKey struct {
	raw []byte
	pk  *keys.PublicKey // nil for the point at infinity
}

// infinityScriptHash is the hash of the signature script of the point at
// infinity (its encoding is the byte 0x00).
var infinityScriptHash = hash.Hash160([]byte{0x0c, 0x01, 0x00, 0x41, 0x56, 0xe7, 0xb3, 0x27})

func toCandidateKey(it stackitem.Item) (candidateKey, error) {
	b, err := ToBytes(it)
	if err != nil {
		return candidateKey{}, err
	}
	if len(b) == 1 && b[0] == 0 {
		return candidateKey{raw: []byte{0}}, nil
	}
	pk, err := keys.NewPublicKeyFromBytes(b)
	if err != nil {
		return candidateKey{}, interop.Worded(ErrArgument, err)
	}
	return candidateKey{raw: pk.Bytes(), pk: pk}, nil
}

func (k candidateKey) scriptHash() hash.Uint160 {
	if k.pk == nil {
		return infinityScriptHash
	}
	return k.pk.ScriptHash()
}

func candidateStorageKey(raw []byte) []byte {
	return append([]byte{prefixCandidate}, raw...)
}

func voterRewardKey(raw []byte) []byte {
	return append([]byte{prefixVoterRewardPerCommittee}, raw...)
}

// keyScriptHash is the hash of the signature script of a compressed key
// given as bytes (no point decoding).
func keyScriptHash(raw []byte) hash.Uint160 {
	if len(raw) != keys.CompressedSize {
		return infinityScriptHash
	}
	var k [keys.CompressedSize]byte
	copy(k[:], raw)
	var buf [keys.SignatureScriptSize]byte
	return hash.Hash160(keys.AppendSignatureScript(buf[:0], k))
}

// ---- genesis, cache ----

// Initialize implements Contract: the genesis state (standby committee,
// 100M NEO to the standby validators, 5 GAS per block, 1000 GAS
// registration price).
func (n *NEO) Initialize(ic *interop.Context, hf config.Hardfork, _ *HFContractMD) error {
	if hf != n.md.ActiveIn {
		return nil
	}
	if n.TotalSupply(ic.DAO).Sign() != 0 {
		return errors.New("already initialized")
	}
	size := ic.Config.GetCommitteeSize(ic.PersistingIndex())
	if size > len(n.standby) {
		return fmt.Errorf("committee size %d exceeds the %d standby keys", size, len(n.standby))
	}
	c := &NeoCache{registerPrice: DefaultRegisterPrice}
	committee := make([]state.Validator, size)
	for i := range committee {
		committee[i].Key = n.standby[i]
	}
	// neo-go takes the validator count of BlockHeight()+1, which wraps to
	// 0 in the genesis block.
	if err := n.setCommittee(c, committee, ic.Config.GetNumOfCNs(ic.BlockHeight()+1)); err != nil {
		return err
	}
	ic.DAO.SetCache(n.md.ID, c)
	ic.DAO.PutStorageItem(n.md.ID, committeeKey, state.EncodeValidators(committee))
	ic.DAO.PutStorageItem(n.md.ID, votersCountKey, []byte{})
	ic.DAO.PutInt64(n.md.ID, gasRecordKey(0), DefaultGASPerBlock)
	c.gasPerBlock = []gasRecord{{index: 0, gas: *big.NewInt(DefaultGASPerBlock)}}
	ic.DAO.PutInt64(n.md.ID, registerPriceKey, DefaultRegisterPrice)
	h, err := standbyValidatorsAddress(ic.Config)
	if err != nil {
		return err
	}
	if err := n.mint(ic, h, big.NewInt(NEOTotalSupply), false, noop); err != nil {
		return err
	}
	return n.computeNewEpoch(ic.DAO, c, ic.PersistingIndex(), ic.Config.GetNumOfCNs(ic.PersistingIndex()+1))
}

// setCommittee makes committee the current one in c, with the first
// numCNs members (sorted) as the next block's validators.
func (n *NEO) setCommittee(c *NeoCache, committee []state.Validator, numCNs int) error {
	ks, h, vals, err := committeeValues(committee, numCNs)
	if err != nil {
		return err
	}
	c.committee, c.committeeKeys, c.committeeHash, c.nextValidators = committee, ks, h, vals
	return nil
}

func committeeValues(committee []state.Validator, numCNs int) ([]*keys.PublicKey, hash.Uint160, []*keys.PublicKey, error) {
	ks := make([]*keys.PublicKey, len(committee))
	for i := range committee {
		ks[i] = committee[i].Key
	}
	script, err := smartcontract.CreateMajorityMultiSigRedeemScript(ks)
	if err != nil {
		return nil, hash.Uint160{}, nil, err
	}
	if numCNs > len(ks) {
		return nil, hash.Uint160{}, nil, fmt.Errorf("%d validators of a committee of %d", numCNs, len(ks))
	}
	vals := slices.Clone(ks[:numCNs])
	keys.SortPublicKeys(vals)
	return ks, hash.Hash160(script), vals, nil
}

// computeNewEpoch computes the committee of the next dBFT epoch from the
// votes in d (after block height) into the newEpoch fields of c.
func (n *NEO) computeNewEpoch(d *dao.Simple, c *NeoCache, height uint32, numCNs int) error {
	committee, err := n.computeCommittee(d, height)
	if err != nil {
		return fmt.Errorf("failed to compute committee members: %w", err)
	}
	ks, h, vals, err := committeeValues(committee, numCNs)
	if err != nil {
		return err
	}
	c.newEpochCommittee, c.newEpochCommitteeKeys, c.newEpochCommitteeHash, c.newEpochNextValidators = committee, ks, h, vals
	return nil
}

// InitializeCache implements Contract.
func (n *NEO) InitializeCache(d *dao.Simple, cfg *config.Blockchain, height uint32) error {
	c := &NeoCache{}
	committee, err := state.DecodeValidators(d.GetStorageItem(n.md.ID, committeeKey))
	if err != nil {
		return fmt.Errorf("failed to decode committee: %w", err)
	}
	if err := n.setCommittee(c, committee, cfg.GetNumOfCNs(height+1)); err != nil {
		return err
	}
	d.Seek(n.md.ID, storage.SeekRange{Prefix: []byte{prefixGASPerBlock}}, func(k, v []byte) bool {
		if len(k) == 4 {
			c.gasPerBlock = append(c.gasPerBlock, gasRecord{index: binary.BigEndian.Uint32(k)})
			bigint.SetBytes(&c.gasPerBlock[len(c.gasPerBlock)-1].gas, v)
		}
		return true
	})
	if len(c.gasPerBlock) == 0 {
		return errors.New("no GAS per block records")
	}
	if c.registerPrice, err = d.GetInt64(n.md.ID, registerPriceKey); err != nil {
		return fmt.Errorf("register price: %w", err)
	}
	if cfg.ShouldUpdateCommitteeAt(height + 1) {
		if err := n.computeNewEpoch(d, c, height, cfg.GetNumOfCNs(height+1)); err != nil {
			return err
		}
	} else {
		c.newEpochCommittee, c.newEpochCommitteeKeys, c.newEpochCommitteeHash, c.newEpochNextValidators =
			c.committee, c.committeeKeys, c.committeeHash, c.nextValidators
	}
	d.SetCache(n.md.ID, c)
	return nil
}

// ---- per block ----

// OnPersist implements Contract: the first block of a dBFT epoch installs
// the committee elected at the end of the previous one (C# recomputes it
// here from the same state) and, from HF_Cockatrice, announces a change.
func (n *NEO) OnPersist(ic *interop.Context) error {
	if !ic.Config.ShouldUpdateCommitteeAt(ic.Block.Index) {
		return nil
	}
	c := n.rwCache(ic.DAO)
	old := c.committeeKeys
	c.committee, c.committeeKeys, c.committeeHash, c.nextValidators =
		c.newEpochCommittee, c.newEpochCommitteeKeys, c.newEpochCommitteeHash, c.newEpochNextValidators
	ic.DAO.PutStorageItem(n.md.ID, committeeKey, state.EncodeValidators(c.committee))
	if ic.IsHardforkEnabled(config.HFCockatrice) && !slices.EqualFunc(old, c.committeeKeys, (*keys.PublicKey).Equal) {
		return ic.AddNotification(n.md.Hash, "CommitteeChanged", stackitem.NewArray([]stackitem.Item{
			keysItem(old), keysItem(c.committeeKeys),
		}))
	}
	return nil
}

// PostPersist implements Contract: the committee member whose turn it is
// gets 10% of the block's GAS; at an epoch start the voters' reward per
// vote of every committee member grows by its share of 80%; at the last
// block of an epoch the next committee is elected.
func (n *NEO) PostPersist(ic *interop.Context) error {
	index := ic.Block.Index
	gas := n.GASPerBlock(ic.DAO, ic.BlockHeight()+1)
	c := n.cache(ic.DAO)
	size := ic.Config.GetCommitteeSize(index)
	member := c.committeeKeys[int(index)%size]
	reward := new(big.Int).Mul(gas, big.NewInt(committeeRewardRatio))
	if err := n.cs.GAS.mint(ic, member.ScriptHash(), reward.Quo(reward, big.NewInt(100)), false, noop); err != nil {
		return err
	}
	if ic.Config.ShouldUpdateCommitteeAt(index) {
		validators := ic.Config.GetNumOfCNs(index)
		voterReward := new(big.Int).Mul(big.NewInt(voterRewardRatio), gas)
		voterReward.Mul(voterReward, big.NewInt(voterRewardFactor*int64(size)))
		voterReward.Quo(voterReward, big.NewInt(int64(size+validators)))
		voterReward.Quo(voterReward, big.NewInt(100))
		for i := range c.committee {
			votes := &c.committee[i].Votes
			if votes.Sign() <= 0 {
				continue
			}
			tmp := big.NewInt(1)
			if i < validators {
				tmp.SetInt64(2)
			}
			tmp.Mul(tmp, voterReward)
			tmp.Quo(tmp, votes)
			key := voterRewardKey(c.committee[i].Key.Bytes())
			tmp.Add(tmp, bigint.FromBytes(ic.DAO.GetStorageItem(n.md.ID, key)))
			ic.DAO.PutBigInt(n.md.ID, key, tmp)
		}
	}
	if ic.Config.ShouldUpdateCommitteeAt(index + 1) {
		if err := n.computeNewEpoch(ic.DAO, n.rwCache(ic.DAO), index, ic.Config.GetNumOfCNs(index+1)); err != nil {
			return fmt.Errorf("failed to update next block newEpoch* cache: %w", err)
		}
	}
	return nil
}

func keysItem(ks []*keys.PublicKey) stackitem.Item {
	items := make([]stackitem.Item, len(ks))
	for i, k := range ks {
		items[i] = stackitem.NewByteString(k.Bytes())
	}
	return stackitem.NewArray(items)
}

// ---- balances and GAS distribution ----

// changeBalance is NEO's balance change (C# OnBalanceChanging + the balance
// update, neo-go increaseBalance): the account's unclaimed GAS is computed
// (once per block) and returned for distribution, its votes follow its
// balance.
func (n *NEO) changeBalance(ic *interop.Context, si []byte, amount, required *big.Int, buf []byte) ([]byte, *big.Int, error) {
	var acc state.NEOBalance
	if err := state.DecodeNEOBalance(si, &acc); err != nil {
		return nil, nil, err
	}
	if amount.Sign() < 0 && acc.Balance.CmpAbs(amount) < 0 ||
		amount.Sign() == 0 && required != nil && acc.Balance.Cmp(required) < 0 {
		return nil, nil, errInsufficientFunds
	}
	dist, err := n.distributeGas(ic, &acc)
	if err != nil {
		return nil, nil, err
	}
	if amount.Sign() == 0 {
		return acc.AppendBytes(buf), dist, nil
	}
	if acc.VoteTo != nil {
		if err := n.modifyVotes(ic.DAO, acc.VoteTo.Bytes(), amount, true); err != nil {
			return nil, nil, err
		}
		n.modifyVoterTurnout(ic.DAO, amount)
	}
	acc.Balance.Add(&acc.Balance, amount)
	if acc.Balance.Sign() == 0 {
		return nil, dist, nil
	}
	return acc.AppendBytes(buf), dist, nil
}

// distributeGas computes the GAS acc earned since its last balance change
// and moves its balance height to the persisting block (C# DistributeGas).
// It returns nil when nothing is computed (no block, the genesis, or a
// second change in the same block).
func (n *NEO) distributeGas(ic *interop.Context, acc *state.NEOBalance) (*big.Int, error) {
	var height uint32
	if ic.Block != nil {
		height = ic.Block.Index
	}
	if height == 0 || height == acc.BalanceHeight {
		return nil, nil
	}
	earned, err := n.calculateBonus(ic.DAO, acc, height)
	if err != nil {
		return nil, err
	}
	// The account is settled up to this block: the next bonus starts here,
	// at the candidate's current reward per vote.
	acc.BalanceHeight = height
	if acc.VoteTo != nil {
		acc.LastGasPerVote.Set(n.latestGASPerVote(ic.DAO, acc.VoteTo.Bytes()))
	}
	return earned, nil
}

// latestGASPerVote is the accumulated voter reward per vote of a
// candidate (read from storage: neo-go's cache of these values keeps stale
// entries of dropped candidates until a restart, C# reads storage).
func (n *NEO) latestGASPerVote(d *dao.Simple, raw []byte) *big.Int {
	return bigint.FromBytes(d.GetStorageItem(n.md.ID, voterRewardKey(raw)))
}

// calculateBonus is the GAS acc earned from its balance height to end:
// the NEO holder reward plus the voter reward of its candidate.
func (n *NEO) calculateBonus(d *dao.Simple, acc *state.NEOBalance, end uint32) (*big.Int, error) {
	r, err := n.holderReward(d, &acc.Balance, acc.BalanceHeight, end)
	if err != nil || acc.VoteTo == nil {
		return r, err
	}
	tmp := new(big.Int).Sub(n.latestGASPerVote(d, acc.VoteTo.Bytes()), &acc.LastGasPerVote)
	tmp.Mul(tmp, &acc.Balance)
	tmp.Quo(tmp, big.NewInt(voterRewardFactor))
	return tmp.Add(tmp, r), nil
}

// holderReward is the GAS for holding value NEO from block start to end:
// 10% of the GAS generated in between, in proportion to the total supply.
func (n *NEO) holderReward(d *dao.Simple, value *big.Int, start, end uint32) (*big.Int, error) {
	if value.Sign() == 0 || start >= end {
		return new(big.Int), nil
	}
	if value.Sign() < 0 {
		return nil, errors.New("negative value")
	}
	gr := n.cache(d).gasPerBlock
	var sum, tmp big.Int
	for i := len(gr) - 1; i >= 0; i-- {
		if gr[i].index >= end {
			continue
		}
		if gr[i].index <= start {
			tmp.SetInt64(int64(end - start))
			sum.Add(&sum, tmp.Mul(&tmp, &gr[i].gas))
			break
		}
		tmp.SetInt64(int64(end - gr[i].index))
		sum.Add(&sum, tmp.Mul(&tmp, &gr[i].gas))
		end = gr[i].index
	}
	res := new(big.Int).Mul(value, &sum)
	res.Mul(res, big.NewInt(neoHolderRewardRatio))
	return res.Quo(res, big.NewInt(100*NEOTotalSupply)), nil
}

// modifyVotes adds value to the votes of the candidate raw; a candidate
// that is unregistered and left without votes is removed if drop.
func (n *NEO) modifyVotes(d *dao.Simple, raw []byte, value *big.Int, drop bool) error {
	key := candidateStorageKey(raw)
	si := d.GetStorageItem(n.md.ID, key)
	if si == nil {
		return errors.New("invalid validator")
	}
	var cd state.Candidate
	if err := stackitem.DeserializeConvertible(si, &cd); err != nil {
		return err
	}
	cd.Votes.Add(&cd.Votes, value)
	if drop && n.dropCandidateIfZero(d, raw, &cd) {
		return nil
	}
	return d.PutStorageConvertible(n.md.ID, key, &cd)
}

// dropCandidateIfZero removes an unregistered candidate without votes and
// its voter reward record (C# CheckCandidate).
func (n *NEO) dropCandidateIfZero(d *dao.Simple, raw []byte, cd *state.Candidate) bool {
	if cd.Registered || cd.Votes.Sign() != 0 {
		return false
	}
	d.DeleteStorageItem(n.md.ID, candidateStorageKey(raw))
	d.DeleteStorageItem(n.md.ID, voterRewardKey(raw))
	return true
}

// modifyVoterTurnout adds amount to the NEO of all voters.
func (n *NEO) modifyVoterTurnout(d *dao.Simple, amount *big.Int) {
	v := bigint.FromBytes(d.GetStorageItem(n.md.ID, votersCountKey))
	d.PutBigInt(n.md.ID, votersCountKey, v.Add(v, amount))
}

// ---- methods ----

func (n *NEO) unclaimedGas(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	h, err := ToUint160(args[0])
	if err != nil {
		return nil, err
	}
	endArg, err := ToBigInt(args[1])
	if err != nil {
		return nil, err
	}
	end := uint32(endArg.Int64()) // neo-go truncates
	gen, err := n.CalculateBonus(ic, h, end)
	if err != nil {
		return nil, err
	}
	return stackitem.NewBigInteger(gen), nil
}

// CalculateBonus returns the GAS account h can claim in the block end,
// which must be the persisting block (neo-go: an account without NEO gets
// 0 whatever end is).
func (n *NEO) CalculateBonus(ic *interop.Context, h hash.Uint160, end uint32) (*big.Int, error) {
	si := ic.DAO.GetStorageItem(n.md.ID, accountKey(h))
	if si == nil {
		return new(big.Int), nil
	}
	var acc state.NEOBalance
	if err := state.DecodeNEOBalance(si, &acc); err != nil {
		return nil, err
	}
	if acc.Balance.Sign() == 0 {
		return new(big.Int), nil
	}
	if ic.Block == nil || end != ic.BlockHeight()+1 {
		return nil, errors.New("can't calculate bonus of height unequal (BlockHeight + 1)")
	}
	return n.calculateBonus(ic.DAO, &acc, end)
}

// checkKeyWitness is CheckWitness of the signature account of k.
func checkKeyWitness(ic *interop.Context, k candidateKey) (bool, error) {
	return ic.CheckWitness(k.scriptHash())
}

// registerCandidate registers a key as a candidate for its price in GAS.
// The key owner's witness is required: before HF_Echidna it is checked before
// the price is charged, from HF_Echidna after (C# RegisterInternal). neo-go
// 0.120.0 checks no witness at all from HF_Echidna, so anyone paying the price
// could register any key; n3node does not follow that hole (docs/compat.md).
func (n *NEO) registerCandidate(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	k, err := toCandidateKey(args[0])
	if err != nil {
		return nil, err
	}
	echidna := ic.IsHardforkEnabled(config.HFEchidna)
	if !echidna {
		ok, err := checkKeyWitness(ic, k)
		if err != nil {
			return nil, err
		}
		if !ok {
			return stackitem.Bool(false), nil
		}
	}
	if err := ic.VM.AddGas(n.registerPrice(ic.DAO)); err != nil {
		return nil, fmt.Errorf("%w executing %s/registerCandidate", err, n.md.Hash.StringLE())
	}
	if echidna {
		ok, err := checkKeyWitness(ic, k)
		if err != nil {
			return nil, err
		}
		if !ok {
			return stackitem.Bool(false), nil
		}
	}
	if err := n.registerInternal(ic, k); err != nil {
		return nil, err
	}
	return stackitem.Bool(true), nil
}

// registerInternal marks k registered (an event if it was not).
func (n *NEO) registerInternal(ic *interop.Context, k candidateKey) error {
	key := candidateStorageKey(k.raw)
	var cd state.Candidate
	if si := ic.DAO.GetStorageItem(n.md.ID, key); si != nil {
		if err := stackitem.DeserializeConvertible(si, &cd); err != nil {
			return err
		}
		if cd.Registered {
			return nil
		}
	}
	cd.Registered = true
	if err := ic.DAO.PutStorageConvertible(n.md.ID, key, &cd); err != nil {
		return err
	}
	return n.notifyCandidate(ic, k.raw, &cd)
}

func (n *NEO) notifyCandidate(ic *interop.Context, raw []byte, cd *state.Candidate) error {
	return ic.AddNotification(n.md.Hash, "CandidateStateChanged", stackitem.NewArray([]stackitem.Item{
		stackitem.NewByteString(bytes.Clone(raw)), stackitem.Bool(cd.Registered),
		stackitem.NewBigInteger(new(big.Int).Set(&cd.Votes)),
	}))
}

func (n *NEO) unregisterCandidate(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	k, err := toCandidateKey(args[0])
	if err != nil {
		return nil, err
	}
	ok, err := checkKeyWitness(ic, k)
	if err != nil {
		return nil, err
	}
	if !ok {
		return stackitem.Bool(false), nil
	}
	key := candidateStorageKey(k.raw)
	si := ic.DAO.GetStorageItem(n.md.ID, key)
	if si == nil {
		return stackitem.Bool(true), nil
	}
	var cd state.Candidate
	if err := stackitem.DeserializeConvertible(si, &cd); err != nil {
		return nil, err
	}
	if !cd.Registered {
		return stackitem.Bool(true), nil
	}
	cd.Registered = false
	if !n.dropCandidateIfZero(ic.DAO, k.raw, &cd) {
		if err := ic.DAO.PutStorageConvertible(n.md.ID, key, &cd); err != nil {
			return nil, err
		}
	}
	if err := n.notifyCandidate(ic, k.raw, &cd); err != nil {
		return nil, err
	}
	return stackitem.Bool(true), nil
}

// onNEP17Payment registers a candidate paid for with a GAS transfer of the
// registration price, the key being the transfer's data (HF_Echidna, NEP-27).
func (n *NEO) onNEP17Payment(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	caller := ic.CallingScriptHash()
	if _, err := ToUint160(args[0]); err != nil {
		return nil, err
	}
	amount, err := ToBigInt(args[1])
	if err != nil {
		return nil, err
	}
	k, err := toCandidateKey(args[2])
	if err != nil {
		return nil, err
	}
	price := n.registerPrice(ic.DAO)
	if caller != n.cs.GAS.md.Hash {
		return nil, errors.New("only GAS is accepted")
	}
	if !amount.IsInt64() || amount.Int64() != price {
		return nil, fmt.Errorf("incorrect GAS amount for registration (expected %d)", price)
	}
	ok, err := checkKeyWitness(ic, k)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, errors.New("not witnessed by the key owner")
	}
	if err := n.registerInternal(ic, k); err != nil {
		return nil, err
	}
	if err := n.cs.GAS.burn(ic, n.md.Hash, amount); err != nil {
		return nil, err
	}
	return stackitem.Null{}, nil
}

func (n *NEO) vote(ic *interop.Context, args []stackitem.Item, done func(stackitem.Item) error) error {
	h, err := ToUint160(args[0])
	if err != nil {
		return err
	}
	var k *candidateKey
	if _, ok := args[1].(stackitem.Null); !ok {
		ck, err := toCandidateKey(args[1])
		if err != nil {
			return err
		}
		k = &ck
	}
	if ok, err := ic.CheckWitness(h); err != nil || !ok {
		return done(stackitem.Bool(false))
	}
	scheduled, err := n.voteInternal(ic, h, k, func() error { return done(stackitem.Bool(true)) })
	switch {
	case scheduled:
		return err
	case errors.Is(err, ErrVoteRejected):
		return done(stackitem.Bool(false))
	case err != nil:
		return err
	}
	return done(stackitem.Bool(true))
}

// RevokeVotes implements Committee: the account's vote is withdrawn
// without a witness check (Policy.blockAccount from HF_Faun).
func (n *NEO) RevokeVotes(ic *interop.Context, h hash.Uint160, then func() error) (bool, error) {
	return n.voteInternal(ic, h, nil, then)
}

// voteInternal moves the votes of account h to k (nil: withdraws them)
// and mints the GAS h earned (calling onNEP17Payment of a contract h); it
// reports whether then was scheduled (a mint happened) or must be run by
// the caller. An error wrapping ErrVoteRejected means the vote failed
// (false), other errors are faults.
func (n *NEO) voteInternal(ic *interop.Context, h hash.Uint160, k *candidateKey, then func() error) (bool, error) {
	key := accountKey(h)
	si := ic.DAO.GetStorageItem(n.md.ID, key)
	if si == nil {
		return false, fmt.Errorf("%w: invalid account", ErrVoteRejected)
	}
	var acc state.NEOBalance
	if err := state.DecodeNEOBalance(si, &acc); err != nil {
		return false, err
	}
	if k != nil {
		vsi := ic.DAO.GetStorageItem(n.md.ID, candidateStorageKey(k.raw))
		if vsi == nil {
			return false, fmt.Errorf("%w: unknown validator", ErrVoteRejected)
		}
		var cd state.Candidate
		if err := stackitem.DeserializeConvertible(vsi, &cd); err != nil {
			return false, err
		}
		if !cd.Registered {
			return false, fmt.Errorf("%w: validator must be registered", ErrVoteRejected)
		}
	}
	if (acc.VoteTo == nil) != (k == nil) {
		v := new(big.Int).Set(&acc.Balance)
		if k == nil {
			v.Neg(v)
		}
		n.modifyVoterTurnout(ic.DAO, v)
	}
	newGas, err := n.distributeGas(ic, &acc)
	if err != nil {
		return false, err
	}
	if acc.VoteTo != nil {
		if err := n.modifyVotes(ic.DAO, acc.VoteTo.Bytes(), new(big.Int).Neg(&acc.Balance), true); err != nil {
			return false, err
		}
	}
	oldVote := acc.VoteTo
	if k != nil {
		acc.LastGasPerVote.Set(n.latestGASPerVote(ic.DAO, k.raw))
		acc.VoteTo = k.pk
		if err := n.modifyVotes(ic.DAO, k.raw, &acc.Balance, false); err != nil {
			return false, err
		}
	} else {
		acc.VoteTo = nil
		acc.LastGasPerVote.SetInt64(0)
	}
	ic.DAO.PutStorageItem(n.md.ID, key, acc.AppendBytes(nil))
	var to stackitem.Item = stackitem.Null{}
	if k != nil {
		to = stackitem.NewByteString(bytes.Clone(k.raw))
	}
	var from stackitem.Item = stackitem.Null{}
	if oldVote != nil {
		from = stackitem.NewByteString(oldVote.Bytes())
	}
	if err := ic.AddNotification(n.md.Hash, "Vote", stackitem.NewArray([]stackitem.Item{
		HashItem(h), from, to, stackitem.NewBigInteger(new(big.Int).Set(&acc.Balance)),
	})); err != nil {
		return false, err
	}
	if newGas != nil {
		return true, n.cs.GAS.mint(ic, h, newGas, true, then)
	}
	return false, nil
}

// candidateEntry is a registered, unblocked candidate.
type candidateEntry struct {
	raw   []byte
	votes *big.Int
}

// candidates walks the registered candidates that Policy does not block in
// key order, up to max (0: all).
func (n *NEO) candidates(d *dao.Simple, max int) ([]candidateEntry, error) {
	var (
		res  []candidateEntry
		ferr error
	)
	d.Seek(n.md.ID, storage.SeekRange{Prefix: []byte{prefixCandidate}}, func(k, v []byte) bool {
		var cd state.Candidate
		if ferr = stackitem.DeserializeConvertible(v, &cd); ferr != nil {
			return false
		}
		if cd.Registered && !n.cs.Policy.IsBlocked(d, keyScriptHash(k)) {
			res = append(res, candidateEntry{raw: bytes.Clone(k), votes: new(big.Int).Set(&cd.Votes)})
		}
		return max <= 0 || len(res) < max
	})
	return res, ferr
}

// GetCandidates returns the first 256 registered candidates in key order
// (getCandidates).
func (n *NEO) GetCandidates(d *dao.Simple) ([]state.Validator, error) {
	cs, err := n.candidates(d, maxGetCandidates)
	if err != nil {
		return nil, err
	}
	res := make([]state.Validator, len(cs))
	for i := range cs {
		if res[i].Key, err = keys.NewPublicKeyFromBytes(cs[i].raw); err != nil {
			return nil, err
		}
		res[i].Votes.Set(cs[i].votes)
	}
	return res, nil
}

func (n *NEO) getCandidatesMethod(ic *interop.Context, _ []stackitem.Item) (stackitem.Item, error) {
	cs, err := n.candidates(ic.DAO, maxGetCandidates)
	if err != nil {
		return nil, err
	}
	items := make([]stackitem.Item, len(cs))
	for i := range cs {
		items[i] = stackitem.NewStruct([]stackitem.Item{stackitem.NewByteString(cs[i].raw), stackitem.NewBigInteger(cs[i].votes)})
	}
	return stackitem.NewArray(items), nil
}

func (n *NEO) getAllCandidates(ic *interop.Context, _ []stackitem.Item) (stackitem.Item, error) {
	d := ic.DAO
	filter := func(k, v []byte) bool {
		var cd state.Candidate
		if stackitem.DeserializeConvertible(v, &cd) != nil {
			return false
		}
		return cd.Registered && !n.cs.Policy.IsBlocked(d, keyScriptHash(k))
	}
	it := interop.NewStorageIterator(ic, n.md.ID, []byte{prefixCandidate},
		interop.FindRemovePrefix|interop.FindDeserialize|interop.FindPick1, filter)
	return stackitem.NewInterop(it), nil
}

func (n *NEO) getCandidateVote(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	k, err := toCandidateKey(args[0])
	if err != nil {
		return nil, err
	}
	si := ic.DAO.GetStorageItem(n.md.ID, candidateStorageKey(k.raw))
	if si == nil {
		return stackitem.NewInt(-1), nil
	}
	var cd state.Candidate
	if err := stackitem.DeserializeConvertible(si, &cd); err != nil {
		return nil, err
	}
	if !cd.Registered {
		return stackitem.NewInt(-1), nil
	}
	return stackitem.NewBigInteger(&cd.Votes), nil
}

func (n *NEO) getAccountState(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	h, err := ToUint160(args[0])
	if err != nil {
		return nil, err
	}
	si := ic.DAO.GetStorageItem(n.md.ID, accountKey(h))
	if len(si) == 0 {
		return stackitem.Null{}, nil
	}
	return stackitem.Deserialize(si)
}

func (n *NEO) getCommittee(ic *interop.Context, _ []stackitem.Item) (stackitem.Item, error) {
	ks := slices.Clone(n.cache(ic.DAO).committeeKeys)
	keys.SortPublicKeys(ks)
	return keysItem(ks), nil
}

func (n *NEO) getCommitteeAddress(ic *interop.Context, _ []stackitem.Item) (stackitem.Item, error) {
	return HashItem(n.cache(ic.DAO).committeeHash), nil
}

func (n *NEO) getNextBlockValidators(ic *interop.Context, _ []stackitem.Item) (stackitem.Item, error) {
	return keysItem(n.cache(ic.DAO).nextValidators), nil
}

func (n *NEO) getGASPerBlock(ic *interop.Context, _ []stackitem.Item) (stackitem.Item, error) {
	return stackitem.NewBigInteger(n.GASPerBlock(ic.DAO, ic.BlockHeight()+1)), nil
}

func gasRecordKey(index uint32) []byte {
	k := make([]byte, 5)
	k[0] = prefixGASPerBlock
	binary.BigEndian.PutUint32(k[1:], index)
	return k
}

// GASPerBlock returns the GAS generated by the block at index.
func (n *NEO) GASPerBlock(d *dao.Simple, index uint32) *big.Int {
	gr := n.cache(d).gasPerBlock
	for i := len(gr) - 1; i >= 0; i-- {
		if gr[i].index <= index {
			return new(big.Int).Set(&gr[i].gas)
		}
	}
	return new(big.Int)
}

func (n *NEO) checkCommittee(ic *interop.Context) error {
	ok, err := CheckCommittee(ic, n)
	if err != nil {
		return err
	}
	if !ok {
		return ErrInvalidCommittee
	}
	return nil
}

// setGASPerBlock sets the GAS per block from the next block on.
func (n *NEO) setGASPerBlock(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	gas, err := ToBigInt(args[0])
	if err != nil {
		return nil, err
	}
	if gas.Sign() < 0 || gas.Cmp(big.NewInt(maxGASPerBlock)) > 0 {
		return nil, errors.New("invalid value for GASPerBlock")
	}
	if err := n.checkCommittee(ic); err != nil {
		return nil, err
	}
	index := ic.PersistingIndex() + 1
	ic.DAO.PutBigInt(n.md.ID, gasRecordKey(index), gas)
	c := n.rwCache(ic.DAO)
	if l := len(c.gasPerBlock); l > 0 && c.gasPerBlock[l-1].index == index {
		c.gasPerBlock = append(slices.Clone(c.gasPerBlock[:l-1]), gasRecord{index: index, gas: *new(big.Int).Set(gas)})
	} else {
		c.gasPerBlock = append(c.gasPerBlock, gasRecord{index: index, gas: *new(big.Int).Set(gas)})
	}
	return stackitem.Null{}, nil
}

func (n *NEO) getRegisterPrice(ic *interop.Context, _ []stackitem.Item) (stackitem.Item, error) {
	return stackitem.NewInt(n.registerPrice(ic.DAO)), nil
}

func (n *NEO) registerPrice(d *dao.Simple) int64 { return n.cache(d).registerPrice }

// RegisterPrice returns the candidate registration price in datoshi.
func (n *NEO) RegisterPrice(d *dao.Simple) int64 { return n.registerPrice(d) }

func (n *NEO) setRegisterPrice(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error) {
	price, err := ToBigInt(args[0])
	if err != nil {
		return nil, err
	}
	if price.Sign() <= 0 || !price.IsInt64() {
		return nil, errors.New("invalid register price")
	}
	if err := n.checkCommittee(ic); err != nil {
		return nil, err
	}
	ic.DAO.PutBigInt(n.md.ID, registerPriceKey, price)
	n.rwCache(ic.DAO).registerPrice = price.Int64()
	return stackitem.Null{}, nil
}

// ---- committee ----

// computeCommittee elects the committee of the block after height (C#
// ComputeCommitteeMembers): the most voted registered candidates if the
// voters hold at least 20% of all NEO and there are enough candidates,
// otherwise the standby committee (with the votes its members have as
// candidates).
func (n *NEO) computeCommittee(d *dao.Simple, height uint32) ([]state.Validator, error) {
	si := d.GetStorageItem(n.md.ID, votersCountKey)
	if si == nil {
		return nil, errors.New("voters count not found")
	}
	turnout := bigint.FromBytes(si)
	turnout.Mul(turnout, big.NewInt(effectiveVoterTurnout))
	turnout.Quo(turnout, n.TotalSupply(d))
	count := n.cs.cfg.GetCommitteeSize(height + 1)
	if count > len(n.standby) {
		return nil, fmt.Errorf("committee size %d exceeds the %d standby keys", count, len(n.standby))
	}
	cands, err := n.candidates(d, 0)
	if err != nil {
		return nil, err
	}
	res := make([]state.Validator, count)
	if turnout.Sign() <= 0 || len(cands) < count {
		for i := range res {
			res[i].Key = n.standby[i]
			raw := n.standby[i].Bytes()
			for j := range cands {
				if bytes.Equal(cands[j].raw, raw) {
					res[i].Votes.Set(cands[j].votes)
					break
				}
			}
		}
		return res, nil
	}
	type kv struct {
		key   *keys.PublicKey
		votes *big.Int
	}
	all := make([]kv, len(cands))
	for i := range cands {
		k, err := keys.NewPublicKeyFromBytes(cands[i].raw)
		if err != nil {
			return nil, err
		}
		all[i] = kv{k, cands[i].votes}
	}
	slices.SortFunc(all, func(a, b kv) int {
		if c := b.votes.Cmp(a.votes); c != 0 {
			return c
		}
		return a.key.Cmp(b.key)
	})
	for i := range res {
		res[i].Key = all[i].key
		res[i].Votes.Set(all[i].votes)
	}
	return res, nil
}

// CommitteeMembers implements Committee: the current committee in election
// order (shared: do not modify).
func (n *NEO) CommitteeMembers(d *dao.Simple) []*keys.PublicKey { return n.cache(d).committeeKeys }

// Committee returns the current committee with the votes it was elected
// with, in election order (shared: do not modify).
func (n *NEO) Committee(d *dao.Simple) []state.Validator { return n.cache(d).committee }

// CommitteeAddress implements Committee.
func (n *NEO) CommitteeAddress(d *dao.Simple) hash.Uint160 { return n.cache(d).committeeHash }

// NextBlockValidators implements Committee: the validators of the next
// block, sorted (shared: do not modify).
func (n *NEO) NextBlockValidators(d *dao.Simple) []*keys.PublicKey { return n.cache(d).nextValidators }

// ComputeNextBlockValidators returns the validators of the first block of
// the next dBFT epoch as elected at the end of the current one (sorted,
// shared: do not modify). Between epoch ends it equals NextBlockValidators.
func (n *NEO) ComputeNextBlockValidators(d *dao.Simple) []*keys.PublicKey {
	return n.cache(d).newEpochNextValidators
}

// BalanceOf returns the NEO balance of h and the height of its last change.
func (n *NEO) BalanceOf(d *dao.Simple, h hash.Uint160) (*big.Int, uint32, error) {
	si := d.GetStorageItem(n.md.ID, accountKey(h))
	if si == nil {
		return new(big.Int), 0, nil
	}
	var acc state.NEOBalance
	if err := state.DecodeNEOBalance(si, &acc); err != nil {
		return nil, 0, err
	}
	return &acc.Balance, acc.BalanceHeight, nil
}

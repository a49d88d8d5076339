package chain

import (
	"log/slog"
	"testing"
	"time"

	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/config/netmode"
	"github.com/n3node/n3node/pkg/core"
	"github.com/n3node/n3node/pkg/core/storage"
	"github.com/n3node/n3node/pkg/crypto/keys"
	"github.com/n3node/n3node/pkg/neotest"
	"github.com/n3node/n3node/pkg/smartcontract"
	"github.com/n3node/n3node/pkg/wallet"
)

const (
	// MaxTraceableBlocks of NewSingle chains.
	MaxTraceableBlocks = 1000
	// TimePerBlock of NewSingle chains (blocks are made by the tests, so
	// it only matters to contracts reading it).
	TimePerBlock = time.Second
)

// Test keys (public neo-go test vectors; never hold real funds with them).
// The first four are the validators of neo-go's 4-node privnet, the third
// alone the single-node privnet's; the last two only join the committee,
// so that its address differs from the validators'.
var testWIFs = [6]string{
	"KzfPUYDC9n2yf4fK5ro4C8KMcdeXtFuEnStycbZgX3GomiUsvX6W",
	"KzgWE3u3EDp13XPXXuTKZxeJ3Gi8Bsm8f9ijY3ZsCKKRvZUo1Cdn",
	"KxyjQ8eUa4FHt3Gvioyt1Wz29cTUrE4eTqX3yFSk1YFCsPL8uNsY",
	"L2oEXKRAAMiPEZukwR5ho2S6SMeQLhcK9mF71ZnF7GvT8dU4Kkgz",
	"L1Tr1iq5oz1jaFaMXP21sHDkJYDDkuLtpvQ4wRf1cjKvJYvnvpAb",
	"Kz6XTUrExy78q8f4MjDHnwz8fYYyUE8iPXwPRAkHa3qN2JcHYm7e",
}

// multiCommitteeOrder is the StandbyCommittee order of NewMulti chains
// (indexes into testWIFs; the first four are the validators), as in
// neo-go's protocol.unit_testnet.yml.
var multiCommitteeOrder = [6]int{2, 0, 3, 1, 4, 5}

// Options customise a test chain.
type Options struct {
	// Logger gets the chain's log (nil: discarded).
	Logger *slog.Logger
	// BlockchainConfigHook may change the configuration before the chain
	// is made (hardfork changes are re-normalised after it).
	BlockchainConfigHook func(*config.Blockchain)
	// Store is the chain's store (nil: a new memory store).
	Store storage.Store
	// SkipRun leaves closing the chain to the caller (by default it is
	// closed when the test ends). An n3node chain needs no Run.
	SkipRun bool
}

func mustAccount(wif string) *wallet.Account {
	a, err := wallet.NewAccountFromWIF(wif)
	if err != nil {
		panic(err)
	}
	return a
}

// multisigAccounts returns one account per key in idx, each holding the
// m-of-n multisig of all of them.
func multisigAccounts(m int, idx []int) []*wallet.Account {
	pubs := make([]*keys.PublicKey, len(idx))
	accs := make([]*wallet.Account, len(idx))
	for i, k := range idx {
		accs[i] = mustAccount(testWIFs[k])
		pubs[i] = accs[i].PublicKey()
	}
	for _, a := range accs {
		if err := a.ConvertMultisig(m, pubs); err != nil {
			panic(err)
		}
	}
	return accs
}

// build makes the chain of protocol settings p.
func build(t testing.TB, p config.ProtocolConfiguration, o *Options) (*core.Blockchain, error) {
	if o == nil {
		o = &Options{}
	}
	cfg, err := config.NewBlockchainConfig(p, config.ApplicationConfiguration{})
	if err != nil {
		return nil, err
	}
	if o.BlockchainConfigHook != nil {
		o.BlockchainConfigHook(&cfg)
		cfg.Forks = cfg.ProtocolConfiguration.HardforkSchedule()
	}
	st := o.Store
	if st == nil {
		st = storage.NewMemoryStore()
	}
	log := o.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	bc, err := core.New(cfg, st, core.Options{Logger: log})
	if err != nil {
		return nil, err
	}
	if !o.SkipRun {
		t.Cleanup(func() { _ = bc.Close() })
	}
	return bc, nil
}

// NewSingle returns a chain with one validator, which is the committee
// too (its 1-of-1 multisig holds the genesis NEO and GAS), and that signer.
func NewSingle(t testing.TB) (*core.Blockchain, neotest.Signer) {
	return NewSingleWithOptions(t, nil)
}

// NewSingleWithCustomConfig is NewSingle with a configuration hook.
func NewSingleWithCustomConfig(t testing.TB, f func(*config.Blockchain)) (*core.Blockchain, neotest.Signer) {
	return NewSingleWithOptions(t, &Options{BlockchainConfigHook: f})
}

// NewSingleWithCustomConfigAndStore is NewSingle with a configuration
// hook and a store; run false leaves closing the chain to the caller.
func NewSingleWithCustomConfigAndStore(t testing.TB, f func(*config.Blockchain), st storage.Store, run bool) (*core.Blockchain, neotest.Signer) {
	return NewSingleWithOptions(t, &Options{BlockchainConfigHook: f, Store: st, SkipRun: !run})
}

// NewSingleWithOptions is NewSingle with options.
func NewSingleWithOptions(t testing.TB, o *Options) (*core.Blockchain, neotest.Signer) {
	t.Helper()
	accs := multisigAccounts(1, []int{2})
	p := config.ProtocolConfiguration{
		Magic:            netmode.UnitTestNet,
		StandbyCommittee: []string{accs[0].PublicKey().StringCompressed()},
		ValidatorsCount:  1,
		// Blocks: their pace, how far back they are kept, the limits.
		TimePerBlock:                TimePerBlock,
		MaxTraceableBlocks:          MaxTraceableBlocks,
		MaxValidUntilBlockIncrement: MaxTraceableBlocks / 2,
		MaxBlockSystemFee:           900000000000,
		VerifyTransactions:          true,
	}
	p.Genesis.TimePerBlock = TimePerBlock
	bc, err := build(t, p, o)
	if err != nil {
		t.Fatalf("chain: %v", err)
	}
	return bc, neotest.NewMultiSigner(accs...)
}

// NewMulti returns a chain with four validators and a committee of six,
// and the validators' (3 of 4) and the committee's (4 of 6) signers.
func NewMulti(t testing.TB) (*core.Blockchain, neotest.Signer, neotest.Signer) {
	return NewMultiWithOptions(t, nil)
}

// NewMultiWithCustomConfig is NewMulti with a configuration hook.
func NewMultiWithCustomConfig(t testing.TB, f func(*config.Blockchain)) (*core.Blockchain, neotest.Signer, neotest.Signer) {
	return NewMultiWithOptions(t, &Options{BlockchainConfigHook: f})
}

// NewMultiWithCustomConfigAndStore is NewMulti with a configuration hook
// and a store; run false leaves closing the chain to the caller.
func NewMultiWithCustomConfigAndStore(t testing.TB, f func(*config.Blockchain), st storage.Store, run bool) (*core.Blockchain, neotest.Signer, neotest.Signer) {
	return NewMultiWithOptions(t, &Options{BlockchainConfigHook: f, Store: st, SkipRun: !run})
}

// NewMultiWithOptions is NewMulti with options.
func NewMultiWithOptions(t testing.TB, o *Options) (*core.Blockchain, neotest.Signer, neotest.Signer) {
	t.Helper()
	bc, v, c, err := NewMultiWithOptionsNoCheck(t, o)
	if err != nil {
		t.Fatalf("chain: %v", err)
	}
	return bc, v, c
}

// NewMultiWithCustomConfigAndStoreNoCheck is NewMultiWithCustomConfigAndStore
// returning the chain's construction error instead of failing the test;
// the chain is left for the caller to close.
func NewMultiWithCustomConfigAndStoreNoCheck(t testing.TB, f func(*config.Blockchain), st storage.Store) (*core.Blockchain, neotest.Signer, neotest.Signer, error) {
	return NewMultiWithOptionsNoCheck(t, &Options{BlockchainConfigHook: f, Store: st, SkipRun: true})
}

// NewMultiWithOptionsNoCheck is NewMultiWithOptions returning the chain's
// construction error instead of failing the test.
func NewMultiWithOptionsNoCheck(t testing.TB, o *Options) (*core.Blockchain, neotest.Signer, neotest.Signer, error) {
	committee := make([]string, len(multiCommitteeOrder))
	for i, k := range multiCommitteeOrder {
		committee[i] = mustAccount(testWIFs[k]).PublicKey().StringCompressed()
	}
	p := config.ProtocolConfiguration{
		Magic:              netmode.UnitTestNet,
		MaxTraceableBlocks: 200000,
		MaxBlockSystemFee:  900000000000,
		TimePerBlock:       15 * time.Second,
		MemPoolSize:        50000,
		StandbyCommittee:   committee,
		ValidatorsCount:    4,
		VerifyTransactions: true,
		P2PSigExtensions:   true,
		Hardforks: map[string]uint32{
			"Aspidochelone": 1, "Basilisk": 2, "Cockatrice": 3, "Domovoi": 4, "Echidna": 5,
		},
	}
	p.Genesis.TimePerBlock = p.TimePerBlock
	validators := multisigAccounts(smartcontract.GetDefaultHonestNodeCount(4), multiCommitteeOrder[:4])
	members := multisigAccounts(smartcontract.GetMajorityHonestNodeCount(6), multiCommitteeOrder[:])
	bc, err := build(t, p, o)
	return bc, neotest.NewMultiSigner(validators...), neotest.NewMultiSigner(members...), err
}

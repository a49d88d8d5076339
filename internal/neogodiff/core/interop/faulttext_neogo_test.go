package interop_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	ngconfig "github.com/nspcc-dev/neo-go/pkg/config"
	ngcore "github.com/nspcc-dev/neo-go/pkg/core"
	ngblock "github.com/nspcc-dev/neo-go/pkg/core/block"
	ngstorage "github.com/nspcc-dev/neo-go/pkg/core/storage"
	ngtx "github.com/nspcc-dev/neo-go/pkg/core/transaction"
	ngtrigger "github.com/nspcc-dev/neo-go/pkg/smartcontract/trigger"
	ngutil "github.com/nspcc-dev/neo-go/pkg/util"
	"go.uber.org/zap"

	"github.com/n3node/n3node/internal/chaintest"
	"github.com/n3node/n3node/pkg/config"
	"github.com/n3node/n3node/pkg/core/state"
	"github.com/n3node/n3node/pkg/core/transaction"
	"github.com/n3node/n3node/pkg/crypto/hash"
	"github.com/n3node/n3node/pkg/crypto/keys"
)

// neoGoValidatorWIF is the key of neo-go's wallet1_solo.json (and of its
// neotest single-validator chain): both chains get it as their only
// committee member, so the committee account and the deployed contracts'
// hashes are the same.
const neoGoValidatorWIF = "KxyjQ8eUa4FHt3Gvioyt1Wz29cTUrE4eTqX3yFSk1YFCsPL8uNsY"

// faultChains runs the same transactions on an n3node chain (chaintest) and
// on a neo-go 0.120.0 chain, both with every hardfork from genesis and the
// same committee. neo-go's blocks are built here and added without
// verification, so transactions need no witnesses.
type faultChains struct {
	our   *chaintest.Chain
	ng    *ngcore.Blockchain
	nonce uint32
}

func newFaultChains(t *testing.T) *faultChains {
	k, err := keys.NewPrivateKeyFromWIF(neoGoValidatorWIF)
	if err != nil {
		t.Fatal(err)
	}
	our := chaintest.New(t, chaintest.Options{Committee: []*keys.PrivateKey{k}})
	cfg := ngconfig.Blockchain{
		ProtocolConfiguration: ngconfig.ProtocolConfiguration{
			Magic:                       42,
			MaxTraceableBlocks:          2102400,
			MaxValidUntilBlockIncrement: 5760,
			TimePerBlock:                time.Second,
			Genesis:                     ngconfig.Genesis{TimePerBlock: time.Second},
			StandbyCommittee:            []string{k.PublicKey().StringCompressed()},
			ValidatorsCount:             1,
			Hardforks:                   map[string]uint32{},
		},
		Ledger: ngconfig.Ledger{SkipBlockVerification: true},
	}
	for _, hf := range config.Hardforks() {
		cfg.Hardforks[hf.String()] = 0
	}
	bc, err := ngcore.NewBlockchain(ngstorage.NewMemoryStore(), cfg, zap.NewNop())
	if err != nil {
		t.Fatal(err)
	}
	go bc.Run()
	t.Cleanup(bc.Close)
	return &faultChains{our: our, ng: bc, nonce: 1}
}

// run executes script as a transaction of the committee (Global scope)
// with system fee gas, one per block, on both chains and returns both
// application logs' states and exceptions.
func (c *faultChains) run(t *testing.T, script []byte, gas int64) (ourState, ourExc, ngState, ngExc string) {
	t.Helper()
	committee := c.our.CommitteeAddress()
	tx := c.our.NewTx(script, transaction.Signer{Account: committee, Scopes: transaction.Global})
	tx.SystemFee = gas
	aer := c.our.AddBlock(tx)[0]
	ourState, ourExc = aer.VMState.String(), aer.FaultException

	ntx := ngtx.New(script, gas)
	ntx.Nonce = c.nonce
	c.nonce++
	ntx.ValidUntilBlock = c.ng.BlockHeight() + 100
	ntx.Signers = []ngtx.Signer{{Account: ngHash(committee), Scopes: ngtx.Global}}
	ntx.Scripts = []ngtx.Witness{{InvocationScript: []byte{}, VerificationScript: []byte{}}}
	prev, err := c.ng.GetBlock(c.ng.CurrentBlockHash())
	if err != nil {
		t.Fatal(err)
	}
	blk := ngblock.New(false)
	blk.PrevHash = prev.Hash()
	blk.Index = prev.Index + 1
	blk.Timestamp = prev.Timestamp + 1000
	blk.NextConsensus = prev.NextConsensus
	blk.Script = ngtx.Witness{InvocationScript: []byte{}, VerificationScript: []byte{}}
	blk.Transactions = []*ngtx.Transaction{ntx}
	blk.RebuildMerkleRoot()
	if err := c.ng.AddBlock(blk); err != nil {
		t.Fatal(err)
	}
	res, err := c.ng.GetAppExecResults(ntx.Hash(), ngtrigger.Application)
	if err != nil {
		t.Fatal(err)
	}
	ngState, ngExc = res[0].VMState.String(), res[0].FaultException
	return
}

// deploy deploys the helper on both chains and returns its hash (the same
// on both: same sender, NEF and name).
func (c *faultChains) deploy(t *testing.T, b *chaintest.ContractBuilder) hash.Uint160 {
	t.Helper()
	f, m := b.Build()
	script := chaintest.DeployScript(f, m)
	ourState, ourExc, ngState, ngExc := c.run(t, script, defaultFaultGas)
	if ourState != "HALT" || ngState != "HALT" {
		t.Fatalf("deploy: n3node %s %s, neo-go %s %s", ourState, ourExc, ngState, ngExc)
	}
	h := state.CreateContractHash(c.our.CommitteeAddress(), f.Checksum, b.Manifest.Name)
	if cs := c.ng.GetContractState(ngHash(h)); cs == nil {
		t.Fatal("neo-go: the helper has another hash")
	}
	return h
}

// stateDiffs are the cases where n3node and neo-go 0.120.0 end in different
// VM states, each a documented choice (docs/vm.md, docs/compat.md): ISTYPE
// Any faults in C# (neo-go #4365), jsonSerialize refuses a non-ByteString
// map key as C# does, and a wrong-length BLS point faults as in C# and in
// neo-go 0.122.0.
var stateDiffs = map[string]bool{
	"ISTYPE Any":                        true,
	"StdLib jsonSerialize map key":      true,
	"CryptoLib bls12381Deserialize bad": true,
}

var updateFaultText = flag.Bool("update-faulttext", false, "rewrite testdata/faulttext_vs_neogo.txt")

// TestFaultTextVsNeoGo runs every faulting script on both chains. The VM
// states must agree except for stateDiffs; the exception texts are pinned
// side by side in testdata/faulttext_vs_neogo.txt (the list docs/rpc.md
// points to), so any change of either side shows up as a diff.
func TestFaultTextVsNeoGo(t *testing.T) {
	c := newFaultChains(t)
	helper := c.deploy(t, faultHelper())
	var out strings.Builder
	out.WriteString("# Uncaught fault texts: n3node (C# neo-vm messages) and neo-go 0.120.0.\n")
	out.WriteString("# Generated by TestFaultTextVsNeoGo (cd internal/neogodiff && go test ./core/interop -run FaultTextVsNeoGo -update-faulttext).\n")
	out.WriteString("# '=' same text, '~' same state, other text, '!' other state (documented in docs/vm.md).\n")
	same := 0
	cases := faultCases(t, helper)
	for _, tc := range cases {
		gas := tc.gas
		if gas == 0 {
			gas = defaultFaultGas
		}
		ourS, oe, ns, ne := c.run(t, tc.script, gas)
		mark := "="
		switch {
		case ourS != ns:
			mark = "!"
			if !stateDiffs[tc.name] {
				t.Errorf("%s: n3node %s %q, neo-go %s %q", tc.name, ourS, oe, ns, ne)
			}
		case oe != ne:
			mark = "~"
		default:
			same++
			if stateDiffs[tc.name] {
				t.Errorf("%s: listed as a state difference, but both end in %s", tc.name, ourS)
			}
		}
		fmt.Fprintf(&out, "%s %s\n  n3node %s %q\n  neo-go %s %q\n", mark, tc.name, ourS, oe, ns, ne)
	}
	t.Logf("%d of %d cases end with the same text", same, len(cases))
	golden := filepath.Join("testdata", "faulttext_vs_neogo.txt")
	if *updateFaultText {
		if err := os.WriteFile(golden, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update-faulttext)", err)
	}
	if string(want) != out.String() {
		t.Errorf("fault texts changed; review and rerun with -update-faulttext:\n%s", out.String())
	}
}

// ngHash converts a hash to neo-go's type (the same serialized bytes).
func ngHash(h hash.Uint160) ngutil.Uint160 { return ngutil.Uint160(h) }

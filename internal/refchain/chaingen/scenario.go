package chaingen

import (
	"context"
	"fmt"
	"math/big"

	"github.com/n3node/n3node/internal/refchain"
	"github.com/n3node/n3node/pkg/crypto/hash"
)

// gasFactor is 10^GAS decimals.
const gasFactor = 100_000_000

// Role ids (C#: Role).
const roleOracle = 8

// DoomedName is the manifest name of the RefChain copy that is destroyed.
const DoomedName = "RefChainDoomed"

// world is the scenario state: accounts, natives and contracts.
type world struct {
	d   *driver
	acc map[string]*Account // V, M (committee 1-of-1 multisig), A..E

	neo, gas, policy, mgmt, roles hash.Uint160

	refchainV1, refchainV2, doomed, helper Contract
	refchainHash, doomedHash, helperHash   hash.Uint160
	ids                                    map[hash.Uint160]int32 // deployed contract ids
}

// step is one batch of independent transactions; the driver waits for all
// of them to land before the next step.
type step struct {
	name string
	run  func(ctx context.Context, w *world) error
	idle uint32 // empty blocks to wait for after the step
	// check runs after the step's transactions have landed.
	check func(ctx context.Context, w *world) error
}

func gas(n float64) *big.Int { return big.NewInt(int64(n * gasFactor)) }

// transfers builds a script of NEP-17 transfers, each followed by ASSERT
// when assert is set.
func transfers(token hash.Uint160, assert bool, ts ...[4]any) ([]byte, error) {
	b := NewBuilder()
	for _, t := range ts {
		b.Call(token, "transfer", CallFlagsAll, t[0], t[1], t[2], t[3])
		if assert {
			b.Op(ASSERT)
		}
	}
	return b.Script()
}

func tr(from, to *Account, amount any) [4]any { return [4]any{from.Hash, to.Hash, amount, nil} }

// calls builds a script of contract calls; drop lists which results to DROP.
type call struct {
	contract hash.Uint160
	method   string
	args     []any
	after    []Opcode // e.g. DROP or ASSERT
}

func calls(cs ...call) ([]byte, error) {
	b := NewBuilder()
	for _, c := range cs {
		b.Call(c.contract, c.method, CallFlagsAll, c.args...)
		b.Op(c.after...)
	}
	return b.Script()
}

func (w *world) tx(ctx context.Context, desc string, script []byte, err error, o txOpts) error {
	if err != nil {
		return fmt.Errorf("%s: %w", desc, err)
	}
	_, err = w.d.send(ctx, desc, script, o)
	return err
}

func signedBy(accs ...*Account) txOpts {
	o := txOpts{}
	for _, a := range accs {
		o.signers = append(o.signers, entry(a))
	}
	return o
}

func (w *world) steps() []step {
	V, M, A, B, C, D, E := w.acc["V"], w.acc["M"], w.acc["A"], w.acc["B"], w.acc["C"], w.acc["D"], w.acc["E"]
	return []step{{
		name: "fund",
		idle: 2,
		run: func(ctx context.Context, w *world) error {
			s, err := transfers(w.neo, true, tr(M, A, 3000), tr(M, B, 2000), tr(M, C, 1000))
			if err := w.tx(ctx, "committee sends NEO to A, B and C in one script", s, err, signedBy(M)); err != nil {
				return err
			}
			s, err = transfers(w.gas, true, tr(M, A, gas(10000)), tr(M, B, gas(10000)), tr(M, C, gas(5000)), tr(M, D, gas(500)), tr(M, V, gas(2000)))
			return w.tx(ctx, "committee sends GAS to A, B, C, D and V in one script", s, err, signedBy(M))
		},
	}, {
		name: "transfers",
		idle: 1,
		run: func(ctx context.Context, w *world) error {
			s, err := transfers(w.neo, true, tr(A, B, 100))
			if err := w.tx(ctx, "A sends 100 NEO to B (GAS distributed to both)", s, err, signedBy(A)); err != nil {
				return err
			}
			s, err = transfers(w.gas, true, tr(B, C, gas(12.5)))
			if err := w.tx(ctx, "B sends 12.5 GAS to C, scope CustomContracts [GAS]", s, err,
				txOpts{signers: []sig{{acc: B, scopes: ScopeCustomContracts, contracts: []hash.Uint160{w.gas}}}}); err != nil {
				return err
			}
			s, err = transfers(w.neo, true, tr(C, C, 10))
			if err := w.tx(ctx, "C sends 10 NEO to itself", s, err, signedBy(C)); err != nil {
				return err
			}
			s, err = transfers(w.gas, true, tr(D, A, 0))
			if err := w.tx(ctx, "D sends 0 GAS to A", s, err, signedBy(D)); err != nil {
				return err
			}
			s, err = transfers(w.neo, true, tr(C, C, 0))
			if err := w.tx(ctx, "C sends 0 NEO to itself (GAS claim)", s, err, signedBy(C)); err != nil {
				return err
			}
			s, err = transfers(w.neo, true, tr(A, D, 1), tr(B, D, 1))
			return w.tx(ctx, "A and B each send 1 NEO to D, two signers", s, err, signedBy(A, B))
		},
	}, {
		name: "deploy",
		idle: 1,
		run: func(ctx context.Context, w *world) error {
			s, err := calls(call{w.mgmt, "deploy", []any{w.refchainV1.NEF, w.refchainV1.Manifest, "refchain-v1"}, nil})
			if err := w.tx(ctx, "A deploys RefChain (hand-assembled; _deploy stores its data)", s, err, signedBy(A)); err != nil {
				return err
			}
			s, err = calls(call{w.mgmt, "deploy", []any{w.helper.NEF, w.helper.Manifest, "hello from B"}, nil})
			if err := w.tx(ctx, "B deploys neo-go's management_helper1 test contract (TestMain)", s, err, signedBy(B)); err != nil {
				return err
			}
			s, err = calls(call{w.mgmt, "deploy", []any{w.doomed.NEF, w.doomed.Manifest, "doomed"}, nil})
			if err := w.tx(ctx, "C deploys RefChainDoomed, a copy of RefChain to destroy later", s, err, signedBy(C)); err != nil {
				return err
			}
			rule := append([]byte{RuleAllow, CondScriptHash}, w.gas[:]...)
			s, err = transfers(w.gas, true, tr(D, B, gas(1)))
			return w.tx(ctx, "D sends 1 GAS to B, scope WitnessRules [allow if ScriptHash == GAS]", s, err,
				txOpts{signers: []sig{{acc: D, scopes: ScopeWitnessRules, rules: [][]byte{rule}}}})
		},
		check: func(ctx context.Context, w *world) error { return w.checkDeployed(ctx) },
	}, {
		name: "candidates",
		idle: 2,
		run: func(ctx context.Context, w *world) error {
			s, err := calls(call{w.neo, "registerCandidate", []any{A.Keys[0].Pub}, []Opcode{ASSERT}})
			if err := w.tx(ctx, "A registers as candidate (NEO.registerCandidate)", s, err, signedBy(A)); err != nil {
				return err
			}
			s, err = transfers(w.gas, true, [4]any{B.Hash, w.neo, gas(1000), B.Keys[0].Pub})
			if err := w.tx(ctx, "B registers as candidate by sending 1000 GAS to NEO with its key as data", s, err,
				txOpts{signers: []sig{{acc: B, scopes: ScopeCalledByEntry | ScopeCustomContracts, contracts: []hash.Uint160{w.neo}}}}); err != nil {
				return err
			}
			s, err = calls(call{w.neo, "registerCandidate", []any{V.Keys[0].Pub}, []Opcode{ASSERT}})
			if err := w.tx(ctx, "V (the validator) registers as candidate", s, err, signedBy(V)); err != nil {
				return err
			}
			s, err = calls(
				call{w.policy, "blockAccount", []any{E.Hash}, []Opcode{ASSERT}},
				call{w.roles, "designateAsRole", []any{roleOracle, []any{E.Keys[0].Pub}}, []Opcode{DROP}},
			)
			o := signedBy(M)
			o.attrs = []Attribute{{Type: AttrHighPriority}}
			return w.tx(ctx, "committee blocks E in Policy and designates E as Oracle node, HighPriority attribute", s, err, o)
		},
	}, {
		name: "votes",
		idle: 1,
		run: func(ctx context.Context, w *world) error {
			for _, v := range []struct{ voter, cand *Account }{{A, A}, {B, B}, {C, A}, {D, V}} {
				s, err := calls(call{w.neo, "vote", []any{v.voter.Hash, v.cand.Keys[0].Pub}, []Opcode{ASSERT}})
				if err := w.tx(ctx, fmt.Sprintf("%s votes for %s", v.voter.Name, v.cand.Name), s, err, signedBy(v.voter)); err != nil {
					return err
				}
			}
			return nil
		},
	}, {
		name: "contract-calls",
		idle: 1,
		run: func(ctx context.Context, w *world) error {
			s, err := calls(
				call{w.refchainHash, "put", []any{"alpha", "1"}, []Opcode{DROP}},
				call{w.refchainHash, "put", []any{"beta", "2"}, []Opcode{DROP}},
				call{w.refchainHash, "put", []any{"gamma", "3"}, []Opcode{DROP}},
			)
			if err := w.tx(ctx, "A puts alpha, beta, gamma into RefChain storage", s, err, signedBy(A)); err != nil {
				return err
			}
			s, err = calls(call{w.refchainHash, "inc", nil, nil}, call{w.refchainHash, "inc", nil, nil})
			if err := w.tx(ctx, "B increments the RefChain counter twice", s, err, signedBy(B)); err != nil {
				return err
			}
			s, err = calls(call{w.helperHash, "putValue", []any{"hello"}, []Opcode{DROP}})
			if err := w.tx(ctx, "B calls TestMain.putValue (overwrites the value _deploy stored)", s, err, signedBy(B)); err != nil {
				return err
			}
			s, err = transfers(w.gas, true, [4]any{C.Hash, w.refchainHash, gas(5), "tip"})
			if err := w.tx(ctx, "C sends 5 GAS to the RefChain contract (onNEP17Payment)", s, err, signedBy(C)); err != nil {
				return err
			}
			s, err = calls(call{w.doomedHash, "put", []any{"x", "y"}, []Opcode{DROP}})
			return w.tx(ctx, "C puts x into RefChainDoomed storage", s, err, signedBy(C))
		},
	}, {
		name: "storage-updates",
		idle: 1,
		run: func(ctx context.Context, w *world) error {
			s, err := calls(
				call{w.refchainHash, "put", []any{"alpha", "one"}, []Opcode{DROP}},
				call{w.refchainHash, "delete", []any{"beta"}, []Opcode{DROP}},
				call{w.refchainHash, "get", []any{"gamma"}, nil},
			)
			if err := w.tx(ctx, "A overwrites alpha, deletes beta, reads gamma", s, err, signedBy(A)); err != nil {
				return err
			}
			s, err = calls(call{w.neo, "vote", []any{C.Hash, B.Keys[0].Pub}, []Opcode{ASSERT}})
			if err := w.tx(ctx, "C changes its vote from A to B", s, err, signedBy(C)); err != nil {
				return err
			}
			s, err = transfers(w.neo, true, [4]any{A.Hash, w.refchainHash, 5, nil})
			return w.tx(ctx, "A sends 5 NEO to the RefChain contract", s, err, signedBy(A))
		},
	}, {
		name: "faults",
		idle: 3,
		run: func(ctx context.Context, w *world) error {
			s, err := calls(call{w.refchainHash, "fail", nil, []Opcode{DROP}})
			if err := w.tx(ctx, "A calls RefChain.fail: FAULT by THROW", s, err,
				txOpts{signers: []sig{entry(A)}, sysFee: faultSysFee, expect: "FAULT"}); err != nil {
				return err
			}
			s, err = calls(call{w.refchainHash, "abort", nil, []Opcode{DROP}})
			if err := w.tx(ctx, "B calls RefChain.abort: FAULT by ABORT", s, err,
				txOpts{signers: []sig{entry(B)}, sysFee: faultSysFee, expect: "FAULT"}); err != nil {
				return err
			}
			s, err = transfers(w.gas, true, tr(D, C, gas(1)))
			if err := w.tx(ctx, "D sends 1 GAS to C with a system fee of 1000: FAULT, out of GAS", s, err,
				txOpts{signers: []sig{entry(D)}, sysFee: 1000, expect: "FAULT"}); err != nil {
				return err
			}
			s, err = transfers(w.neo, false, tr(A, B, 1_000_000))
			if err := w.tx(ctx, "A tries to send 1000000 NEO to B: HALT, transfer returns false", s, err, signedBy(A)); err != nil {
				return err
			}
			never := hash.Sha256([]byte("n3node refchain: a transaction never sent"))
			s, err = transfers(w.gas, true, tr(B, C, gas(1)))
			o := signedBy(B)
			o.attrs = []Attribute{{Type: AttrConflicts, Data: never[:]}}
			if err := w.tx(ctx, "B sends 1 GAS to C, Conflicts attribute", s, err, o); err != nil {
				return err
			}
			s, err = transfers(w.gas, true, tr(C, D, gas(1)))
			o = signedBy(C)
			o.attrs = []Attribute{{Type: AttrNotValidBefore, Data: []byte{5, 0, 0, 0}}}
			return w.tx(ctx, "C sends 1 GAS to D, NotValidBefore 5 attribute", s, err, o)
		},
	}, {
		name: "unregister-update-destroy",
		idle: 1,
		run: func(ctx context.Context, w *world) error {
			s, err := calls(call{w.neo, "unregisterCandidate", []any{A.Keys[0].Pub}, []Opcode{ASSERT}})
			if err := w.tx(ctx, "A unregisters as candidate (its voters keep their votes)", s, err, signedBy(A)); err != nil {
				return err
			}
			s, err = calls(call{w.refchainHash, "update", []any{w.refchainV2.NEF, w.refchainV2.Manifest}, []Opcode{DROP}})
			if err := w.tx(ctx, "B updates RefChain to version 2 (adds version())", s, err, signedBy(B)); err != nil {
				return err
			}
			s, err = calls(call{w.doomedHash, "destroy", nil, []Opcode{DROP}})
			if err := w.tx(ctx, "C destroys RefChainDoomed (its storage goes too)", s, err, signedBy(C)); err != nil {
				return err
			}
			s, err = calls(call{w.neo, "vote", []any{D.Hash, nil}, []Opcode{ASSERT}})
			return w.tx(ctx, "D withdraws its vote", s, err, signedBy(D))
		},
	}, {
		name: "after-update",
		idle: 2,
		run: func(ctx context.Context, w *world) error {
			s, err := calls(call{w.refchainHash, "version", nil, nil}, call{w.refchainHash, "inc", nil, nil})
			if err := w.tx(ctx, "A calls RefChain.version and inc after the update", s, err, signedBy(A)); err != nil {
				return err
			}
			s, err = transfers(w.neo, true, tr(M, V, 50))
			if err := w.tx(ctx, "committee sends 50 NEO to V", s, err, signedBy(M)); err != nil {
				return err
			}
			s, err = transfers(w.neo, true, tr(A, A, 0))
			if err := w.tx(ctx, "A sends 0 NEO to itself (GAS claim)", s, err, signedBy(A)); err != nil {
				return err
			}
			s, err = transfers(w.gas, true, tr(B, B, gas(3)))
			return w.tx(ctx, "B sends 3 GAS to itself", s, err, signedBy(B))
		},
	}, {
		name: "last-vote",
		idle: 6,
		run: func(ctx context.Context, w *world) error {
			s, err := calls(call{w.neo, "vote", []any{V.Hash, V.Keys[0].Pub}, []Opcode{ASSERT}})
			return w.tx(ctx, "V votes for itself", s, err, signedBy(V))
		},
	}}
}

// run executes every step and returns the transactions in chain order.
func (w *world) run(ctx context.Context) ([]refchain.TxInfo, error) {
	for _, st := range w.steps() {
		w.d.step = st.name
		w.d.logf("step %s", st.name)
		if err := st.run(ctx, w); err != nil {
			return nil, fmt.Errorf("step %s: %w", st.name, err)
		}
		if err := w.d.wait(ctx); err != nil {
			return nil, fmt.Errorf("step %s: %w", st.name, err)
		}
		if st.check != nil {
			if err := st.check(ctx, w); err != nil {
				return nil, fmt.Errorf("step %s: %w", st.name, err)
			}
		}
		if st.idle > 0 {
			if err := w.d.waitBlocks(ctx, st.idle); err != nil {
				return nil, err
			}
		}
	}
	return w.d.txs, nil
}

// checkDeployed confirms the contract hashes chaingen computed and notes the
// contract ids ContractManagement assigned.
func (w *world) checkDeployed(ctx context.Context) error {
	w.ids = make(map[hash.Uint160]int32)
	for _, h := range []hash.Uint160{w.refchainHash, w.helperHash, w.doomedHash} {
		var cs struct {
			ID   int32  `json:"id"`
			Hash string `json:"hash"`
		}
		if err := w.d.rpc.Call(ctx, "getcontractstate", &cs, h.String()); err != nil {
			return fmt.Errorf("contract %s: %w", h, err)
		}
		w.ids[h] = cs.ID
	}
	return nil
}

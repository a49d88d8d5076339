#!/usr/bin/env bash
# Throughput of n3node beside neo-go 0.120.0 on this machine (docs/bench.md).
#
# Starts each node in turn on a fresh chain with the same single-node configuration
# (pkg/bench/testdata/neogo-single.yml: neo-bench's, 1 s blocks, 50,000 mempool),
# runs the same `n3node bench` workload against it (byte-identical transactions from
# one cached workload file), stops it, and finally prints the medians of every node
# and the ratios n3node / neo-go for TPS, RPS, CPU and memory. Runs are interleaved
# (neo-go, n3node, then n3node, neo-go, ...) so slow drift of the host hits both.
# n3node runs the same file (`n3node run --config F --relative-path D`, docs/node.md)
# with only the database engine replaced (N3NODE_DB, Pebble by default: n3node's own).
#
# Environment (defaults in brackets):
#   RUNS [3]  TXS [1000000]  WORKERS [10]  RATE [0: as fast as accepted]  TIME_LIMIT [2m]
#   NODES ["neogo n3node"]   which nodes to run: neogo, n3node, n3node-base, n3node-small,
#                            n3node-mem, n3node-leveldb and n3node-pebble (N3NODE on that
#                            engine whatever N3NODE_DB says: both engines in one session)
#   WORK [/tmp/n3node-bench-vs-neogo]  OUT [$WORK/results-<time>]  CACHE [$WORK/cache]
#   BASE_PORT [30400]        P2P on BASE_PORT+1, RPC on BASE_PORT+2
#   NEOGO                    neo-go binary [scripts/get-neogo.sh]
#   N3NODE                   n3node binary [built into $WORK]
#   N3NODE_BASE              a second n3node binary (e.g. before a change), run as the
#                            node kind "n3node-base" when NODES names it (store defaults)
#   SMALL_CACHE_MIB [8], SMALL_MEMTABLE_MIB [8]
#                            Pebble sizes of the node kind "n3node-small" (N3NODE with a
#                            memory budget close to neo-go's LevelDB settings)
#   MEM_LIMIT_MIB [96]       the Go soft memory limit (`n3node run --memory-limit`) of the
#                            node kind "n3node-mem" (N3NODE, store defaults)
#   N3NODE_RUN_ARGS          arguments of `n3node run`; CONFIG and DIR are replaced
#                            ["--config CONFIG --relative-path DIR"]
#   N3NODE_DB                n3node's database engine: pebble, leveldb, boltdb [pebble]
#   N3NODE_PEBBLE_CACHE_MIB, N3NODE_PEBBLE_MEMTABLE_MIB
#                            Pebble's block cache and memtable size in n3node's copy of
#                            the configuration (PebbleDBOptions) [the store's defaults]
#                            (not for n3node-base, which may predate the options)
#   N3NODE_LEVELDB_CACHE_MIB, N3NODE_LEVELDB_WRITEBUFFER_MIB
#                            goleveldb's block cache and write buffer in n3node's copy of
#                            the configuration (LevelDBOptions) [the store's defaults]
#   N3NODE_MEMORY_LIMIT_MIB  MemoryLimitMiB in n3node's copy of the configuration: the Go
#                            soft memory limit, -1 for none [derived: docs/config.md]
#                            (n3node-mem's --memory-limit wins over it)
#   PPROF [0]                1 turns on both nodes' pprof on BASE_PORT+3 and takes CPU
#                            profiles of PROFILE_SECONDS [20] at PROFILE_AT ["5 60"] s
#                            after the load starts, then a heap profile, into the run's
#                            result directory (costs a little CPU while profiling)
#   QUIET_BUSY [15]          before each run, wait (up to QUIET_WAIT [300] s) until the host
#                            is less than this % busy over 3 s; other load skews results
#   KEEP_CHAINS [0]          1 keeps every run's chain directory
#   CLIENTS ["n3node"]       the load clients, each run against every node kind:
#                            n3node     `n3node bench` (its own workload and sender)
#                            neo-bench  the reference client (nspcc-dev/neo-bench's cmd/bench,
#                                       GPL-3.0: cloned and built into $CACHE on first use, never
#                                       vendored), wrk mode (or rate mode when RATE > 0) on its own
#                                       `gen` dump of TXS NEO transfers; `n3node bench external`
#                                       runs it and measures the node with the same formulas and
#                                       sampler, keeping neo-bench's own report beside them
#   NEOBENCH_REPO [https://github.com/nspcc-dev/neo-bench]  NEOBENCH_REF [80c8975]
#                            where the reference client comes from (a local clone works too)
#   NEOBENCH_SRC [$CACHE/neo-bench-$NEOBENCH_REF]  its checkout; cmd/bin/{bench,gen} are built
#                            there unless present. neo-bench's preparation deploys a token
#                            from the absolute path /tokencontract (a docker mount in its own
#                            setup): the script links it to the checkout's .docker/rpc/tokencontract
#                            and stops with the command to run if it may not
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=bench-lib.sh
source "$root/scripts/bench-lib.sh"
RUNS=${RUNS:-3}
TXS=${TXS:-1000000}
WORKERS=${WORKERS:-10}
RATE=${RATE:-0}
TIME_LIMIT=${TIME_LIMIT:-2m}
NODES=${NODES:-"neogo n3node"}
WORK=${WORK:-/tmp/n3node-bench-vs-neogo}
OUT=${OUT:-$WORK/results-$(date +%Y%m%d-%H%M%S)}
CACHE=${CACHE:-$WORK/cache}
BASE_PORT=${BASE_PORT:-30400}
N3NODE_RUN_ARGS=${N3NODE_RUN_ARGS:-"--config CONFIG --relative-path DIR"}
N3NODE_DB=${N3NODE_DB:-pebble}
PPROF=${PPROF:-0}
PROFILE_AT=${PROFILE_AT:-"5 60"}
PROFILE_SECONDS=${PROFILE_SECONDS:-20}
QUIET_BUSY=${QUIET_BUSY:-15}
QUIET_WAIT=${QUIET_WAIT:-300}
KEEP_CHAINS=${KEEP_CHAINS:-0}
CLIENTS=${CLIENTS:-n3node}
NEOBENCH_REPO=${NEOBENCH_REPO:-https://github.com/nspcc-dev/neo-bench}
NEOBENCH_REF=${NEOBENCH_REF:-80c8975}
p2p=$((BASE_PORT + 1))
rpc=$((BASE_PORT + 2))
pprof=$((BASE_PORT + 3))

log() { echo "bench-vs-neogo: $*" >&2; }

mkdir -p "$WORK" "$OUT" "$CACHE"

need_binaries

{
  host_info
  echo "neo-go: $("$NEOGO" --version | tr '\n' ' ')"
  echo "n3node: $("$N3NODE" --version); database $N3NODE_DB${N3NODE_PEBBLE_CACHE_MIB:+, cache ${N3NODE_PEBBLE_CACHE_MIB} MiB}${N3NODE_PEBBLE_MEMTABLE_MIB:+, memtable ${N3NODE_PEBBLE_MEMTABLE_MIB} MiB}${N3NODE_LEVELDB_CACHE_MIB:+, leveldb cache ${N3NODE_LEVELDB_CACHE_MIB} MiB}${N3NODE_LEVELDB_WRITEBUFFER_MIB:+, leveldb write buffer ${N3NODE_LEVELDB_WRITEBUFFER_MIB} MiB}${N3NODE_MEMORY_LIMIT_MIB:+, MemoryLimitMiB ${N3NODE_MEMORY_LIMIT_MIB}}"
  [[ -z ${N3NODE_BASE:-} ]] || echo "n3node-base: $N3NODE_BASE"
  echo "workload: TXS=$TXS WORKERS=$WORKERS RATE=$RATE TIME_LIMIT=$TIME_LIMIT RUNS=$RUNS"
} | tee "$OUT/host.txt" >&2

# The workloads are generated once, before any node runs.
for client in $CLIENTS; do
  case $client in
    n3node) "$N3NODE" bench gen -n "$TXS" --cache-dir "$CACHE" >&2 ;;
    neo-bench)
      src=${NEOBENCH_SRC:-$CACHE/neo-bench-$NEOBENCH_REF}
      if [[ ! -d $src/cmd ]]; then
        log "fetching neo-bench $NEOBENCH_REF from $NEOBENCH_REPO"
        rm -rf "$src.part"
        git clone -q "$NEOBENCH_REPO" "$src.part"
        git -C "$src.part" checkout -q "$NEOBENCH_REF"
        mv "$src.part" "$src"
      fi
      if [[ ! -x $src/cmd/bin/bench || ! -x $src/cmd/bin/gen ]]; then
        log "building neo-bench in $src"
        (cd "$src/cmd" && go build -trimpath -o bin/bench ./bench && go build -trimpath -o bin/gen ./gen) >&2
      fi
      NEOBENCH_BIN=$src/cmd/bin/bench NEOBENCH_GEN=$src/cmd/bin/gen
      if [[ ! -s /tokencontract/token.nef ]]; then
        ln -sfn "$src/.docker/rpc/tokencontract" /tokencontract 2>/dev/null || {
          log "neo-bench needs /tokencontract: run  sudo ln -sfn $src/.docker/rpc/tokencontract /tokencontract"
          exit 2
        }
      fi
      nb_dump=$CACHE/neo-bench-NEO-1-1-$TXS.txs
      if [[ ! -s $nb_dump ]]; then
        log "generating neo-bench's dump of $TXS transactions"
        (cd "$CACHE" && "$NEOBENCH_GEN" -cnt "$TXS" -type NEO -from 1 -to 1 -out "$nb_dump.part" >&2)
        mv "$nb_dump.part" "$nb_dump"
      fi
      echo "neo-bench: $NEOBENCH_BIN ($NEOBENCH_REF), dump $nb_dump" | tee -a "$OUT/host.txt" >&2
      ;;
    *) log "unknown client $client (n3node, neo-bench)"; exit 2 ;;
  esac
done

node_pid=""
stop_node() {
  [[ -n $node_pid ]] || return 0
  kill -INT "$node_pid" 2>/dev/null || true
  for _ in $(seq 1 300); do
    kill -0 "$node_pid" 2>/dev/null || break
    sleep 0.1
  done
  kill -KILL "$node_pid" 2>/dev/null || true
  wait "$node_pid" 2>/dev/null || true
  node_pid=""
}
trap stop_node EXIT

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }


# profile_run <dir> <bench log>: CPU profiles at PROFILE_AT seconds after the load
# starts (the bench log's "load:" line), then heap and allocation profiles.
profile_run() {
  local out=$1 blog=$2 base="http://127.0.0.1:$pprof/debug/pprof" t0 now at
  for _ in $(seq 1 1200); do
    grep -q '^bench: load:' "$blog" 2>/dev/null && break
    sleep 0.25
  done
  t0=$(date +%s)
  for at in $PROFILE_AT; do
    now=$(date +%s)
    ((t0 + at > now)) && sleep $((t0 + at - now))
    curl -fsS -m $((PROFILE_SECONDS + 30)) -o "$out/cpu-${at}s.pprof" "$base/profile?seconds=$PROFILE_SECONDS" || true
  done
  curl -fsS -m 30 -o "$out/heap.pprof" "$base/heap" || true
  curl -fsS -m 30 -o "$out/heap.txt" "$base/heap?debug=1" || true
  curl -fsS -m 30 -o "$out/allocs.pprof" "$base/allocs" || true
}

# run_one <node> <client> <run number>: fresh chain, start, bench, stop.
run_one() {
  local kind=$1 client=$2 i=$3 dir="$WORK/chain-$1-$3" res="$OUT/$1-$3"
  [[ $client == n3node ]] || res="$OUT/$1-$2-$3"
  rm -rf "$dir"
  mkdir -p "$dir"
  sed -e "s/127\.0\.0\.1:40333/127.0.0.1:$p2p/; s/127\.0\.0\.1:40332/127.0.0.1:$rpc/" \
    "$root/pkg/bench/testdata/neogo-single.yml" >"$dir/protocol.yml"
  cp "$root/pkg/config/wallets/wallet1_solo.json" "$dir/"
  if ((PPROF)); then
    # Both nodes read the same Pprof section (neo-go's format).
    sed -i -e "/^  Pprof:/,/^  [A-Z]/ s/^    Enabled: false$/    Enabled: true\n    Addresses:\n      - \"127.0.0.1:$pprof\"/" "$dir/protocol.yml"
  fi
  for p in $p2p $rpc; do
    port_free "$p" || { log "port $p is in use"; return 1; }
  done
  wait_quiet
  local desc
  case $kind in
    neogo)
      desc="neo-go 0.120.0"
      "$NEOGO" node --config-file "$dir/protocol.yml" --relative-path "$dir" >"$dir/node.log" 2>&1 &
      ;;
    n3node | n3node-base | n3node-small | n3node-mem | n3node-leveldb | n3node-pebble)
      desc=$kind
      local cfg=$dir/protocol.yml bin=$N3NODE extra="" db=$N3NODE_DB
      local cache=${N3NODE_PEBBLE_CACHE_MIB:-} memtable=${N3NODE_PEBBLE_MEMTABLE_MIB:-}
      local lcache=${N3NODE_LEVELDB_CACHE_MIB:-} lwbuf=${N3NODE_LEVELDB_WRITEBUFFER_MIB:-}
      local memlimit=${N3NODE_MEMORY_LIMIT_MIB:-}
      case $kind in
        n3node-base) bin=${N3NODE_BASE:?N3NODE_BASE names the base binary} cache="" memtable="" lcache="" lwbuf="" memlimit="" ;;
        n3node-small) cache=${SMALL_CACHE_MIB:-8} memtable=${SMALL_MEMTABLE_MIB:-8} ;;
        n3node-mem) extra="--memory-limit ${MEM_LIMIT_MIB:-96}" ;;
        n3node-leveldb) db=leveldb ;;
        n3node-pebble) db=pebble ;;
      esac
      if [[ -n $cache$memtable$lcache$lwbuf$memlimit ]]; then
        # n3node's own keys, which neo-go would reject, so in n3node's copy only.
        local edits=()
        [[ -z $cache$memtable ]] ||
          edits+=(-e "s/^  DBConfiguration:$/  DBConfiguration:\n    PebbleDBOptions:\n      CacheSizeMiB: ${cache:-0}\n      MemTableSizeMiB: ${memtable:-0}/")
        [[ -z $lcache$lwbuf ]] ||
          edits+=(-e "s/^    LevelDBOptions:$/    LevelDBOptions:\n      CacheSizeMiB: ${lcache:-0}\n      WriteBufferSizeMiB: ${lwbuf:-0}/")
        [[ -z $memlimit ]] ||
          edits+=(-e "s/^ApplicationConfiguration:$/ApplicationConfiguration:\n  MemoryLimitMiB: $memlimit/")
        cfg=$dir/protocol-n3node.yml
        sed "${edits[@]}" "$dir/protocol.yml" >"$cfg"
      fi
      local args=${N3NODE_RUN_ARGS//CONFIG/$cfg}
      args=${args//DIR/$dir}
      # shellcheck disable=SC2086
      "$bin" run $args --db "$db" $extra >"$dir/node.log" 2>&1 &
      ;;
  esac
  node_pid=$!
  local up=0
  for _ in $(seq 1 600); do
    if curl -fsS -m 1 -H 'Content-Type: application/json' \
      -d '{"jsonrpc":"2.0","id":1,"method":"getblockcount","params":[]}' "http://127.0.0.1:$rpc" >/dev/null 2>&1; then
      up=1
      break
    fi
    kill -0 "$node_pid" 2>/dev/null || break
    sleep 0.1
  done
  if ((!up)); then
    log "$desc did not start; its log:"
    tail -n 20 "$dir/node.log" >&2
    stop_node
    return 1
  fi
  log "run $i: $desc (pid $node_pid)"
  local ok=0 prof_pid=""
  if ((PPROF)); then
    mkdir -p "$res"
    profile_run "$res" "$res.bench.log" &
    prof_pid=$!
  fi
  if [[ $client == neo-bench ]]; then
    local nb_mode=(-m wrk -w "$WORKERS")
    ((RATE > 0)) && nb_mode=(-m rate -q "$RATE" -w "$WORKERS")
    # `bench external` starts measuring at neo-bench's "Started test from
    # block = N" and then logs "bench: load: ...", which profile_run waits for.
    "$N3NODE" bench external -a "http://127.0.0.1:$rpc" --pid "$node_pid" --report "$res.neo-bench.report" \
      -o "$res" -d "$desc, neo-bench, run $i" -- \
      "$NEOBENCH_BIN" "${nb_mode[@]}" -z "$TIME_LIMIT" -a "127.0.0.1:$rpc" -i "$nb_dump" \
      -o "$res.neo-bench.report" -d "$desc" --disable-stats \
      2> >(tee "$res.bench.log" >&2) || ok=$?
  else
    "$N3NODE" bench -a "http://127.0.0.1:$rpc" -w "$WORKERS" -r "$RATE" -n "$TXS" -z "$TIME_LIMIT" \
      --pid "$node_pid" --cache-dir "$CACHE" -o "$res" -d "$desc, run $i" 2> >(tee "$res.bench.log" >&2) || ok=$?
  fi
  if [[ -n $prof_pid ]]; then
    kill "$prof_pid" 2>/dev/null || true
    wait "$prof_pid" 2>/dev/null || true
  fi
  stop_node
  if ((KEEP_CHAINS == 0)); then
    rm -rf "$dir/chain"
  fi
  return $ok
}

declare -A done_runs
order=($NODES)
for i in $(seq 1 "$RUNS"); do
  # Interleave: odd runs in the given order, even runs reversed.
  seq_nodes=("${order[@]}")
  if ((i % 2 == 0)); then
    seq_nodes=()
    for ((k = ${#order[@]} - 1; k >= 0; k--)); do seq_nodes+=("${order[k]}"); done
  fi
  for kind in "${seq_nodes[@]}"; do
    for client in $CLIENTS; do
      res=$OUT/$kind-$i
      [[ $client == n3node ]] || res=$OUT/$kind-$client-$i
      if run_one "$kind" "$client" "$i"; then
        done_runs[$kind/$client]+="${done_runs[$kind/$client]:+,}$res"
      else
        log "run $i of $kind with $client failed"
      fi
    done
  done
done

if ((${#done_runs[@]} == 0)); then
  log "no run succeeded"
  exit 1
fi
# One table per client: its runs of every node kind, ratios to the first kind.
{
  for client in $CLIENTS; do
    args=()
    for kind in "${order[@]}"; do
      [[ -n ${done_runs[$kind/$client]:-} ]] || continue
      name=$kind
      [[ $kind == neogo ]] && name=neo-go
      args+=("$name=${done_runs[$kind/$client]}")
    done
    ((${#args[@]} > 0)) || continue
    echo "# client $client: $TXS txs, $WORKERS workers, rate $RATE, time limit $TIME_LIMIT, $(date -u +%F)"
    echo
    "$N3NODE" bench compare "${args[@]}"
    echo
  done
} | tee "$OUT/comparison.md"
log "results in $OUT"

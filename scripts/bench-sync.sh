#!/usr/bin/env bash
# P2P catch-up speed of n3node beside neo-go 0.120.0 on this machine (docs/perf.md, "Sync").
#
# Makes a chain of BLOCKS blocks of TXS NEO/GAS transfers each (internal/benchchain, cached),
# restores it into a source node of every kind in SOURCES, and then, for every source and
# every kind in SYNCERS, starts a fresh node whose only seed is the source and times it from
# its start until it reports the top height (getblockcount), with its CPU time and peak RSS
# from /proc. Runs are interleaved (SYNCERS in order, reversed every other round). Neither
# node runs consensus, so the source's chain stays still. The configuration is the reference
# chain's (testdata/refchain/protocol.yml: one validator, 1 s blocks, hardforks from 0).
#
# Environment (defaults in brackets):
#   BLOCKS [20000]  TXS [200]  ACCOUNTS [2000]   the chain
#   SOURCES ["n3node"]        source node kinds: n3node, neogo
#   SYNCERS ["neogo n3node"]  syncing node kinds: n3node, neogo
#   RUNS [2]                  rounds
#   N3NODE_DB [pebble]        n3node's database engine (both roles); neo-go runs LevelDB
#   WORK [/tmp/n3node-bench-sync]  OUT [$WORK/results-<time>]
#   BASE_PORT [30500]         source P2P BASE_PORT+1, RPC +2; syncer P2P +11, RPC +12
#   NEOGO, N3NODE             binaries [scripts/get-neogo.sh; built into $WORK]
#   SYNC_TIMEOUT [3600]       seconds a syncer may take
#   QUIET_BUSY [15] QUIET_WAIT [300]  wait for a quiet host before each run (as bench-vs-neogo.sh)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=bench-lib.sh
source "$root/scripts/bench-lib.sh"
BLOCKS=${BLOCKS:-20000}
TXS=${TXS:-200}
ACCOUNTS=${ACCOUNTS:-2000}
SOURCES=${SOURCES:-n3node}
SYNCERS=${SYNCERS:-"neogo n3node"}
RUNS=${RUNS:-2}
N3NODE_DB=${N3NODE_DB:-pebble}
WORK=${WORK:-/tmp/n3node-bench-sync}
OUT=${OUT:-$WORK/results-$(date +%Y%m%d-%H%M%S)}
BASE_PORT=${BASE_PORT:-30500}
SYNC_TIMEOUT=${SYNC_TIMEOUT:-3600}
QUIET_BUSY=${QUIET_BUSY:-15}
QUIET_WAIT=${QUIET_WAIT:-300}
src_p2p=$((BASE_PORT + 1)) src_rpc=$((BASE_PORT + 2))
dst_p2p=$((BASE_PORT + 11)) dst_rpc=$((BASE_PORT + 12))
tck=$(getconf CLK_TCK)

log() { echo "bench-sync: $*" >&2; }
mkdir -p "$WORK" "$OUT"

need_binaries
{
  host_info
  echo "neo-go: $("$NEOGO" --version | tr '\n' ' ')"
  echo "n3node: $("$N3NODE" --version); database $N3NODE_DB"
  echo "chain: BLOCKS=$BLOCKS TXS=$TXS ACCOUNTS=$ACCOUNTS; SOURCES=$SOURCES SYNCERS=$SYNCERS RUNS=$RUNS"
} | tee "$OUT/host.txt" >&2

dump=$WORK/chain-$BLOCKS-$TXS-$ACCOUNTS.acc
if [[ ! -s $dump ]]; then
  log "generating the chain ($BLOCKS blocks of $TXS transfers)"
  (cd "$root" && go run ./internal/benchchain/cmd/benchchain -blocks "$BLOCKS" -txs "$TXS" \
    -accounts "$ACCOUNTS" -o "$dump.part")
  mv "$dump.part" "$dump"
fi
top=-1 # the source's height, read when it first runs (the dump adds funding blocks)

# config <dir> <p2p> <rpc> <seed or "">: the reference chain's configuration,
# consensus off, the given ports and seed.
config() {
  local dir=$1 p2p=$2 rpc=$3 seed=$4 minpeers=0
  [[ -z $seed ]] || minpeers=1 # neo-go dials its seeds only while below MinPeers
  mkdir -p "$dir"
  sed -e "s/127\.0\.0\.1:40333/127.0.0.1:$p2p/; s/127\.0\.0\.1:40332/127.0.0.1:$rpc/" \
    -e '/^  Consensus:/,/^  [A-Z]/ s/^    Enabled: true$/    Enabled: false/' \
    -e "s/^  SeedList: \[\]$/  SeedList: [${seed:+\"$seed\"}]/" \
    -e "s/^    MinPeers: 0$/    MinPeers: $minpeers/" \
    "$root/testdata/refchain/protocol.yml" >"$dir/protocol.yml"
  cp "$root/pkg/config/wallets/wallet1_solo.json" "$dir/"
}

pids=()
cleanup() {
  for p in "${pids[@]}"; do
    kill -INT "$p" 2>/dev/null || true
  done
  for p in "${pids[@]}"; do
    for _ in $(seq 1 100); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$p" 2>/dev/null || true
  done
  pids=()
}
trap cleanup EXIT

height() { # height <rpc port>: getblockcount - 1, or -1
  local n
  n=$(curl -fsS -m 2 -H 'Content-Type: application/json' \
    -d '{"jsonrpc":"2.0","id":1,"method":"getblockcount","params":[]}' "http://127.0.0.1:$1" 2>/dev/null |
    sed -n 's/.*"result":\([0-9]*\).*/\1/p')
  echo $((${n:-0} - 1))
}


# start <kind> <dir>: runs a node of kind in dir, prints its pid.
start() {
  local kind=$1 dir=$2
  case $kind in
    neogo) (cd "$dir" && exec "$NEOGO" node --config-file protocol.yml --relative-path . >node.log 2>&1) & ;;
    n3node) (cd "$dir" && exec "$N3NODE" run --config protocol.yml --relative-path . --db "$N3NODE_DB" >node.log 2>&1) & ;;
    *) log "unknown node kind $kind"; exit 2 ;;
  esac
  echo $!
}

# The sources: restored once, then started for the runs that use them.
for src in $SOURCES; do
  sdir=$WORK/source-$src-$N3NODE_DB-$BLOCKS-$TXS-$ACCOUNTS
  if [[ ! -f $sdir/restored ]]; then
    rm -rf "$sdir"
    config "$sdir" "$src_p2p" "$src_rpc" ""
    log "restoring the chain into the $src source"
    t0=$(date +%s.%N)
    case $src in
      neogo) (cd "$sdir" && "$NEOGO" db restore --config-file protocol.yml --relative-path . -i "$dump" >restore.log 2>&1) ;;
      n3node) (cd "$sdir" && "$N3NODE" db restore --config protocol.yml --db "$N3NODE_DB" --no-progress -i "$dump" >restore.log 2>&1) ;;
    esac
    echo "$src restore: $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN{printf "%.1f", b-a}') s" | tee -a "$OUT/host.txt" >&2
    touch "$sdir/restored"
  fi
done

echo "source,syncer,run,seconds,blocks_per_s,txs_per_s,cpu_s,cpu_per_block_ms,peak_rss_mib" >"$OUT/sync.csv"
order=($SYNCERS)
for i in $(seq 1 "$RUNS"); do
  seq_nodes=("${order[@]}")
  if ((i % 2 == 0)); then
    seq_nodes=()
    for ((k = ${#order[@]} - 1; k >= 0; k--)); do seq_nodes+=("${order[k]}"); done
  fi
  for src in $SOURCES; do
    sdir=$WORK/source-$src-$N3NODE_DB-$BLOCKS-$TXS-$ACCOUNTS
    for dst in "${seq_nodes[@]}"; do
      wait_quiet
      spid=$(start "$src" "$sdir")
      pids=("$spid")
      for _ in $(seq 1 600); do (($(height "$src_rpc") >= 0)) && break; sleep 0.2; done
      ((top >= 0)) || top=$(height "$src_rpc")
      if (($(height "$src_rpc") < top || top <= 0)); then
        log "the $src source did not come up at height $top"; tail -5 "$sdir/node.log" >&2; exit 1
      fi
      ddir=$WORK/sync-$dst-$i
      rm -rf "$ddir"
      config "$ddir" "$dst_p2p" "$dst_rpc" "127.0.0.1:$src_p2p"
      t0=$(date +%s.%N)
      dpid=$(start "$dst" "$ddir")
      pids+=("$dpid")
      log "run $i: $dst syncing from $src (pid $dpid)"
      ok=0 last=-1 cpu=0 hwm=0
      while :; do
        h=$(height "$dst_rpc")
        # Read /proc before the node can stop: CPU ticks and the RSS high-water mark.
        if [[ -r /proc/$dpid/stat ]]; then
          cpu=$(awk '{print $14+$15}' "/proc/$dpid/stat")
          hwm=$(awk '/^VmHWM:/{print $2}' "/proc/$dpid/status")
        fi
        if ((h >= top)); then ok=1; break; fi
        kill -0 "$dpid" 2>/dev/null || break
        if (($(date +%s) - ${t0%.*} > SYNC_TIMEOUT)); then break; fi
        if ((h / 1000 != last / 1000)); then log "  height $h"; last=$h; fi
        sleep 0.2
      done
      t1=$(date +%s.%N)
      cleanup
      if ((!ok)); then
        log "$dst did not reach height $top from $src (at $h)"; tail -5 "$ddir/node.log" >&2
        continue
      fi
      awk -v s="$src" -v d="$dst" -v i="$i" -v a="$t0" -v b="$t1" -v n="$top" -v tx="$TXS" -v c="$cpu" -v tck="$tck" -v hwm="$hwm" \
        'BEGIN { t = b - a; cs = c / tck; printf "%s,%s,%d,%.1f,%.1f,%.0f,%.1f,%.2f,%.1f\n", s, d, i, t, n / t, n * tx / t, cs, 1000 * cs / n, hwm / 1024 }' |
        tee -a "$OUT/sync.csv" >&2
      rm -rf "$ddir"
    done
  done
done

# Medians per source and syncer, and syncer ratios against neo-go from the same source.
python3 - "$OUT/sync.csv" <<'EOF' | tee "$OUT/summary.md"
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
groups = {}
for r in rows:
    groups.setdefault((r["source"], r["syncer"]), []).append(r)
print("| source | syncer | runs | seconds | blocks/s | txs/s | CPU s | CPU ms/block | peak RSS MiB | speed / neo-go's |")
print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
med = lambda rs, k: statistics.median(float(r[k]) for r in rs)
for (s, d), rs in sorted(groups.items()):
    base = groups.get((s, "neogo"))
    ratio = f"{med(rs, 'blocks_per_s') / med(base, 'blocks_per_s'):.2f}" if base else "—"
    print(f"| {s} | {d} | {len(rs)} | {med(rs, 'seconds'):.1f} | {med(rs, 'blocks_per_s'):.1f} | {med(rs, 'txs_per_s'):.0f} "
          f"| {med(rs, 'cpu_s'):.1f} | {med(rs, 'cpu_per_block_ms'):.2f} | {med(rs, 'peak_rss_mib'):.1f} | {ratio} |")
EOF
log "results in $OUT"

#!/usr/bin/env bash
# Compile time of `n3node contract compile` beside neo-go 0.120.0's (docs/perf.md, "Compiler").
#
# Times both CLIs, one process per contract as a user runs them, on (a) our corpus
# (pkg/compiler/testdata/corpus, every contract) and (b) each of neo-go's examples
# (taken with `git archive v0.120.0 examples` from a snapshot of the neo-go repository),
# ROUNDS times, interleaved; prints the median wall time and CPU time (user+sys) of
# each side and the ratio. Outputs go to a scratch directory; nothing is compared here
# (make compiler-diff does that).
#
# Environment: ROUNDS [5]; NEOGO [scripts/get-neogo.sh]; N3NODE [built];
#   NEOGO_REPO [/work/.mirror/nspcc-dev+neo-go/repo]; WORK [/tmp/n3node-compile-time]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
ROUNDS=${ROUNDS:-5}
WORK=${WORK:-/tmp/n3node-compile-time}
NEOGO_REPO=${NEOGO_REPO:-/work/.mirror/nspcc-dev+neo-go/repo}
mkdir -p "$WORK"
if [[ -z ${N3NODE:-} ]]; then
  N3NODE=$WORK/n3node
  (cd "$root" && go build -o "$N3NODE" ./cmd/n3node)
fi
NEOGO=${NEOGO:-$(bash "$root/scripts/get-neogo.sh")}
(cd "$root/pkg/compiler/testdata/corpus" && go mod download)

# The contracts: "<dir> <config>" lines.
list=$WORK/contracts.txt
: >"$list"
for d in "$root"/pkg/compiler/testdata/corpus/*/; do
  d=${d%/}
  case $(basename "$d") in lib | rejects) continue ;; esac
  cfg=$d/contract.yml
  if [[ ! -f $cfg ]]; then
    cfg=$WORK/cfg-$(basename "$d").yml
    printf 'name: %s\n' "$(basename "$d")" >"$cfg"
  fi
  echo "corpus $d $cfg" >>"$list"
done
if [[ -d $NEOGO_REPO ]]; then
  rm -rf "$WORK/examples"
  git -C "$NEOGO_REPO" archive v0.120.0 examples | tar -x -C "$WORK"
  while IFS= read -r y; do
    echo "example $(dirname "$y") $y" >>"$list"
  done < <(find "$WORK/examples" -name '*.yml' | sort)
  # Warm the module cache for the examples (they are nested modules).
  while IFS= read -r m; do (cd "$(dirname "$m")" && go mod download 2>/dev/null || true); done < <(find "$WORK/examples" -name go.mod)
else
  echo "compile-time: no neo-go snapshot at $NEOGO_REPO: corpus only" >&2
fi

# one <tool> <dir> <cfg>: prints "wall cpu" seconds of one compilation, or "fail".
one() {
  local tool=$1 dir=$2 cfg=$3 out=$WORK/out-$1 bin
  mkdir -p "$out"
  bin=$N3NODE
  [[ $tool == neogo ]] && bin=$NEOGO
  if /usr/bin/time -f '%e %U %S' -o "$WORK/time.txt" "$bin" contract compile -i "$dir" -c "$cfg" \
    -o "$out/c.nef" -m "$out/c.manifest.json" >/dev/null 2>"$WORK/err-$tool.txt"; then
    awk '{printf "%.3f %.3f\n", $1, $2 + $3}' "$WORK/time.txt"
  else
    echo fail
  fi
}

csv=$WORK/times.csv
echo "round,set,contract,tool,wall_s,cpu_s" >"$csv"
for r in $(seq 1 "$ROUNDS"); do
  tools=(neogo n3node)
  ((r % 2 == 0)) && tools=(n3node neogo)
  while read -r set dir cfg; do
    for tool in "${tools[@]}"; do
      t=$(one "$tool" "$dir" "$cfg")
      [[ $t == fail ]] && continue
      echo "$r,$set,$(basename "$dir"),$tool,${t/ /,}" >>"$csv"
    done
  done <"$list"
  echo "compile-time: round $r done" >&2
done

python3 - "$csv" <<'EOF'
import csv, statistics, sys
from collections import defaultdict
rows = list(csv.DictReader(open(sys.argv[1])))
# Per round and set: the sum over contracts that both tools compiled.
both = defaultdict(set)
for r in rows:
    both[(r["round"], r["set"], r["contract"])].add(r["tool"])
tot = defaultdict(lambda: [0.0, 0.0, 0])
per = defaultdict(list)
for r in rows:
    key = (r["round"], r["set"], r["contract"])
    if len(both[key]) != 2:
        continue
    t = tot[(r["set"], r["tool"], r["round"])]
    t[0] += float(r["wall_s"]); t[1] += float(r["cpu_s"]); t[2] += 1
    per[(r["set"], r["contract"], r["tool"])].append(float(r["wall_s"]))
print("| set | contracts | neo-go wall s | n3node wall s | wall ratio | neo-go CPU s | n3node CPU s | CPU ratio |")
print("|---|---:|---:|---:|---:|---:|---:|---:|")
for s in sorted({k[0] for k in tot}):
    med = lambda tool, i: statistics.median(v[i] for k, v in tot.items() if k[0] == s and k[1] == tool)
    n = max(v[2] for k, v in tot.items() if k[0] == s)
    ng, nn, cg, cn = med("neogo", 0), med("n3node", 0), med("neogo", 1), med("n3node", 1)
    print(f"| {s} | {n} | {ng:.2f} | {nn:.2f} | {nn/ng:.2f} | {cg:.2f} | {cn:.2f} | {cn/cg:.2f} |")
# The slowest example (by neo-go's median wall time).
ex = {c: statistics.median(v) for (s, c, tool), v in per.items() if s == "example" and tool == "neogo"}
if ex:
    c = max(ex, key=ex.get)
    ours = statistics.median(per[("example", c, "n3node")])
    print(f"\nLargest example by neo-go's time: {c}: neo-go {ex[c]:.3f} s, n3node {ours:.3f} s (median wall, {len(per[('example', c, 'neogo')])} rounds)")
EOF

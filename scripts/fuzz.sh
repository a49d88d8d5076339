#!/usr/bin/env bash
# Runs every fuzz target of the main module (each `func FuzzX` in a _test.go
# file; nested modules have their own make targets), and stops at the first
# failure. A crasher lands
# in the package's testdata/fuzz/FuzzX/ and then runs as a plain test: fix the
# code, keep the file as a seed.
#
#   FUZZTIME     time (or Nx executions) per target          (default 30s)
#   FUZZMINTIME  bound on minimizing each new input           (default 2s)
#                (Go's default, 60s, lets one large seed eat the whole run)
#   FUZZPAR      fuzzing workers per target                   (default: GOMAXPROCS)
#   FUZZPKG      a grep -E pattern on package directories     (default: all)
#   FUZZRUN      a grep -E pattern on target names            (default: all)
set -euo pipefail
cd "$(dirname "$0")/.."
go=${GO:-go}
fuzztime=${FUZZTIME:-30s}
mintime=${FUZZMINTIME:-2s}
par=()
[[ -n ${FUZZPAR:-} ]] && par=(-test.parallel="$FUZZPAR")

# Nested modules (a go.mod below the root: internal/bintriediff,
# internal/neogodiff, testdata) have their own make targets.
prune=()
while read -r m; do
	prune+=(-path "$(dirname "$m")" -prune -o)
done < <(find . -mindepth 2 -name go.mod)
mapfile -t dirs < <(find . "${prune[@]}" -name '*_test.go' -print |
	xargs grep -l '^func Fuzz' | xargs -n1 dirname | sort -u | grep -E "${FUZZPKG:-.}")
# Each package's instrumented test binary is built once (go test -c -fuzz)
# and run once per target in the package directory (for testdata/), with
# the fuzz cache where `go test -fuzz` keeps it.
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
cache=$($go env GOCACHE)/fuzz
n=0
start=$SECONDS
for d in "${dirs[@]}"; do
	mapfile -t targets < <(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$d"/*_test.go | sed 's/^func //' |
		sort -u | grep -E "${FUZZRUN:-.}" || true)
	[[ ${#targets[@]} -gt 0 && -n ${targets[0]} ]] || continue
	pkg=$($go list "$d")
	$go test -c -fuzz=. -o "$bin/t.test" "$d"
	for t in "${targets[@]}"; do
		echo "== $d $t"
		# Go's fuzzer reports "context deadline exceeded" as a failure when
		# the time runs out while it minimizes a new interesting input (not a
		# crasher: none is written). That is no finding, so it is a pass;
		# any other failure stops the run.
		if ! (cd "$d" && "$bin/t.test" -test.run='^$' -test.fuzz="^$t\$" -test.fuzztime="$fuzztime" \
			-test.fuzzminimizetime="$mintime" -test.fuzzcachedir="$cache/$pkg" "${par[@]}") >"$bin/out" 2>&1; then
			cat "$bin/out"
			if grep -q 'context deadline exceeded' "$bin/out" && ! grep -q 'Failing input written to' "$bin/out"; then
				echo "fuzz: $t: time ran out while minimizing an interesting input (no crasher); counted as a pass"
			else
				exit 1
			fi
		else
			cat "$bin/out"
		fi
		n=$((n + 1))
	done
done
echo "fuzz: $n targets, ${fuzztime} each, $((SECONDS - start))s"

#!/usr/bin/env bash
# Runs every fuzz target of the main module (each `func FuzzX` in a _test.go
# file; the nested module internal/bintriediff has its own make target), one
# `go test -fuzz` per target, and stops at the first failure. A crasher lands
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

mapfile -t dirs < <(find . -name '*_test.go' -not -path './internal/bintriediff/*' \
	-exec grep -l '^func Fuzz' {} + | xargs -n1 dirname | sort -u | grep -E "${FUZZPKG:-.}")
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
		(cd "$d" && "$bin/t.test" -test.run='^$' -test.fuzz="^$t\$" -test.fuzztime="$fuzztime" \
			-test.fuzzminimizetime="$mintime" -test.fuzzcachedir="$cache/$pkg" "${par[@]}")
		n=$((n + 1))
	done
done
echo "fuzz: $n targets, ${fuzztime} each, $((SECONDS - start))s"

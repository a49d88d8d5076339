#!/usr/bin/env bash
# Runs the tests neo-go v0.120.0 keeps beside its example contracts
# (examples/*/…_test.go, written for neo-go's neotest) against n3node's
# pkg/neotest, after changing only import paths (docs/compiler.md).
#
# Each example directory with tests is taken from a snapshot of the neo-go
# repository (N3NODE_NEOGO_REPO, default /work/.mirror/nspcc-dev+neo-go/repo,
# `git archive v0.120.0 examples`), copied into a temp dir, its imports of
# neo-go's test-side packages rewritten by the fixed mapping below, its
# go.mod pointed at this checkout instead of neo-go, and `go test` run there.
# Prints one line per example (PASS/FAIL) and exits non-zero on a failure;
# EXAMPLES_KEEP=1 keeps the temp dir.
set -uo pipefail

GO=${GO:-go}
REPO=${N3NODE_NEOGO_REPO:-/work/.mirror/nspcc-dev+neo-go/repo}
TAG=v0.120.0
ROOT=$(cd "$(dirname "$0")/.." && pwd)

# neo-go import path -> n3node import (with the name the code uses).
MAPPING=(
	'"github.com/nspcc-dev/neo-go/pkg/neotest"|"github.com/n3node/n3node/pkg/neotest"'
	'"github.com/nspcc-dev/neo-go/pkg/neotest/chain"|"github.com/n3node/n3node/pkg/neotest/chain"'
	'"github.com/nspcc-dev/neo-go/pkg/compiler"|"github.com/n3node/n3node/pkg/compiler"'
	'"github.com/nspcc-dev/neo-go/pkg/vm/stackitem"|"github.com/n3node/n3node/pkg/vm/stackitem"'
	'"github.com/nspcc-dev/neo-go/pkg/util"|util "github.com/n3node/n3node/pkg/crypto/hash"'
	'"github.com/nspcc-dev/neo-go/pkg/core/interop/storage"|storage "github.com/n3node/n3node/pkg/neotest"'
)

tmp=$(mktemp -d)
if [ -z "${EXAMPLES_KEEP:-}" ]; then trap 'rm -rf "$tmp"' EXIT; else echo "temp dir: $tmp"; fi
git -C "$REPO" archive "$TAG" examples | tar -x -C "$tmp" || { echo "cannot read $TAG examples from $REPO"; exit 2; }

fail=0
for dir in $(cd "$tmp" && find examples -name '*_test.go' -printf '%h\n' | sort -u); do
	d="$tmp/$dir"
	for f in "$d"/*.go; do
		for m in "${MAPPING[@]}"; do
			from=${m%%|*} to=${m#*|}
			sed -i "s#^\([[:space:]]*\)\(import \)\?${from}\$#\1\2${to}#" "$f"
		done
	done
	(cd "$d" && "$GO" mod edit -droprequire github.com/nspcc-dev/neo-go \
		-require github.com/n3node/n3node@v0.0.0 -replace "github.com/n3node/n3node=$ROOT" -go="$(awk '/^go /{print $2}' "$ROOT/go.mod")")
	log="$tmp/$(echo "$dir" | tr / _).log"
	if (cd "$d" && GOFLAGS=-mod=mod "$GO" test -count=1 ./... >"$log" 2>&1); then
		echo "PASS $dir"
	else
		echo "FAIL $dir"
		sed 's/^/    /' "$log" | tail -40
		fail=1
	fi
done
exit $fail

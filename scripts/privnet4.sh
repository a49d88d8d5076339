#!/usr/bin/env bash
# Starts the four validators of n3node's 4-node private network on loopback
# (embedded configs privnet4-1..4: P2P 127.0.0.1:20333-20336, RPC
# http://127.0.0.1:30333-30336, 1-second blocks, every hardfork from genesis)
# and stops them all on Ctrl-C (SIGINT/SIGTERM). See docs/network.md.
#
#   scripts/privnet4.sh            # build bin/n3node, run in ./privnet4
#   DIR=/tmp/p4 FRESH=1 scripts/privnet4.sh   # another directory, wiped first
#
# Environment: N3NODE_BIN (binary to run; default: build bin/n3node), DIR
# (working directory: databases under DIR/data/privnet4-N, logs in
# DIR/node-N.log; default ./privnet4), FRESH=1 (delete DIR first).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
dir=${DIR:-$PWD/privnet4}
bin=${N3NODE_BIN:-}
if [[ -z $bin ]]; then
	bin=$root/bin/n3node
	echo "building $bin" >&2
	(cd "$root" && go build -o "$bin" ./cmd/n3node)
fi
if [[ ${FRESH:-} == 1 ]]; then
	rm -rf "$dir"
fi
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

pids=()
stop() {
	trap - INT TERM
	echo "stopping the validators (${pids[*]})" >&2
	for pid in "${pids[@]}"; do
		kill -TERM "$pid" 2>/dev/null || true
	done
	status=0
	for pid in "${pids[@]}"; do
		wait "$pid" || status=$?
	done
	exit "$status"
}
trap stop INT TERM

for n in 1 2 3 4; do
	"$bin" run --network privnet4 --node "$n" --relative-path "$dir" >>"$dir/node-$n.log" 2>&1 &
	pids+=($!)
	echo "validator $n: pid $!, RPC http://127.0.0.1:$((30332 + n)), log $dir/node-$n.log" >&2
done
echo "running; Ctrl-C stops all four" >&2

# If one validator exits on its own, say so and keep the others running
# (three of four keep making blocks); Ctrl-C still stops the rest.
while true; do
	for i in "${!pids[@]}"; do
		pid=${pids[$i]}
		if [[ -n $pid ]] && ! kill -0 "$pid" 2>/dev/null; then
			wait "$pid" && rc=0 || rc=$?
			echo "validator $((i + 1)) (pid $pid) exited with status $rc; see $dir/node-$((i + 1)).log" >&2
			unset 'pids[i]'
		fi
	done
	if [[ ${#pids[@]} -eq 0 ]]; then
		exit 1
	fi
	sleep 1 &
	wait $! || true
done

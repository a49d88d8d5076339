# Shell functions shared by the side-by-side benchmark scripts (sourced, not run).
# The caller defines log() and sets root, WORK, QUIET_BUSY and QUIET_WAIT.

# need_binaries: N3NODE (built into WORK unless given) and NEOGO (fetched unless given).
need_binaries() {
  if [[ -z ${N3NODE:-} ]]; then
    N3NODE=$WORK/n3node
    log "building n3node"
    (cd "$root" && go build -o "$N3NODE" ./cmd/n3node)
  fi
  NEOGO=${NEOGO:-$(bash "$root/scripts/get-neogo.sh")}
}

# host_info: the lines every result directory's host.txt starts with.
host_info() {
  echo "date: $(date -u +%FT%TZ)"
  echo "host: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(uname -sr)"
}

# busy_pct: share of the host busy over 3 seconds, from /proc/stat.
busy_pct() {
  local a b
  a=$(awk '/^cpu /{print $2+$3+$4+$5+$6+$7+$8+$9, $5+$6; exit}' /proc/stat)
  sleep 3
  b=$(awk '/^cpu /{print $2+$3+$4+$5+$6+$7+$8+$9, $5+$6; exit}' /proc/stat)
  awk -v a="$a" -v b="$b" 'BEGIN { split(a, x, " "); split(b, y, " "); t = y[1] - x[1]; i = y[2] - x[2];
    printf "%.0f", (t > 0 ? 100 * (t - i) / t : 0) }'
}

# wait_quiet: waits (up to QUIET_WAIT s) until the host is less than QUIET_BUSY % busy.
wait_quiet() {
  local waited=0 busy
  while :; do
    busy=$(busy_pct)
    if ((busy < QUIET_BUSY)); then
      return 0
    fi
    if ((waited >= QUIET_WAIT)); then
      log "host still ${busy}% busy after ${QUIET_WAIT}s; running anyway"
      return 0
    fi
    ((waited == 0)) && log "waiting for the host to calm down (${busy}% busy, want < ${QUIET_BUSY}%)"
    waited=$((waited + 3))
  done
}

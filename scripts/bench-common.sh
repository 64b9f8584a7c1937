# Helpers shared by the registry benchmarks (scripts/bench-registry.sh, scripts/bench-fleet.sh); sourced, not run.
# The sourcing script sets bench_name (the prefix of its messages) and, before using the wrk helpers, work (its
# temp folder).

say() { echo "$bench_name: $*" >&2; }
fail() { say "$*"; exit 1; }
calc() { awk "BEGIN { printf \"%s\", $* }"; }
f0() { calc "sprintf(\"%.0f\", $1)"; }
f1() { calc "sprintf(\"%.1f\", $1)"; }
f2() { calc "sprintf(\"%.2f\", $1)"; }
met() { if (($(calc "($1) ? 1 : 0"))); then echo yes; else echo "**no**"; fi; }
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# Builds the release executables the benchmarks run, unless BENCH_SKIP_BUILD=1 (then they must already be there).
bench_build() {  # PRODUCT...
  local product build_log
  if [[ "${BENCH_SKIP_BUILD:-0}" != 1 ]]; then
    for product in "$@"; do
      say "building $product (release)"
      build_log=$(mktemp)
      if ! swift build -c release --product "$product" >"$build_log" 2>&1; then
        cat "$build_log" >&2; rm -f "$build_log"; fail "the build of $product failed"
      fi
      rm -f "$build_log"
    done
  fi
  for product in "$@"; do
    [[ -x .build/release/$product ]] || fail "no .build/release/$product"
  done
}

# Warns when a compiler shares the cores with a measurement.
quiet_check() {  # WHAT
  if pgrep -x swift-frontend >/dev/null || pgrep -x swift-build >/dev/null; then
    say "warning: a Swift build is running during $1: its numbers are noisy"
  fi
}

# wrk's script that prints one machine-readable summary line; other scripts may append to it.
write_wrk_report() {  # FILE
  cat >"$1" <<'EOF'
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    "WRK duration_us=%d requests=%d bytes=%d connect=%d read=%d write=%d status=%d timeout=%d p50_us=%d p99_us=%d\n",
    summary.duration, summary.requests, summary.bytes, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(99)))
end
EOF
}
# Readings from the summary line in $work/NAME.wrk.
wrk_field() { sed -n "s/^WRK .*\b$2=\([0-9]*\).*/\1/p" "$work/$1.wrk"; }  # NAME FIELD
wrk_rps() { calc "$(wrk_field "$1" requests) / ($(wrk_field "$1" duration_us) / 1e6)"; }
wrk_mbps() { calc "$(wrk_field "$1" bytes) / ($(wrk_field "$1" duration_us) / 1e6) / 1e6"; }
wrk_errors() {  # non-2xx answers and socket errors
  calc "$(wrk_field "$1" status) + $(wrk_field "$1" connect) + $(wrk_field "$1" read) + $(wrk_field "$1" write) + \
$(wrk_field "$1" timeout)"
}
wrk_ms() { calc "sprintf(\"%.1f\", $(wrk_field "$1" "$2") / 1000)"; }  # NAME FIELD_US

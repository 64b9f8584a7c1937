#!/usr/bin/env bash
# Benchmarks the registry as a fleet deployment on this machine, on loopback only, and prints one markdown table
# (progress goes to standard error): PostgreSQL 15 (Debian's, a throwaway cluster in a temp folder), registry
# replicas on it (`litevision-registry serve --database`), and nginx with the repository's deploy/nginx/nginx.conf
# in front. In each configuration, two wrk processes run at once for BENCH_SECONDS (default 60) through nginx:
#   - 500 connections checking for updates: GET /v1/models/birds?client=device-N (`models info`; N counts up, so
#     every request computes a rollout bucket for another client);
#   - 200 connections downloading bird.tflite: GET /v1/blobs/<sha256>.
# Configurations, in one run: one replica; two replicas; two replicas with nginx's proxy_cache for the model
# files (the deploy configuration as shipped; warmed by one download); and the peer: the same, with the downloads
# served by nginx from the file on disk (a `location` with `alias`, sendfile), as a CDN or static server would.
# Reported: requests/s, MB/s, p50/p99 latency, errors (non-2xx + socket errors), and the CPU seconds the
# replicas and PostgreSQL used (from /proc, utime + stime, PostgreSQL's exited backends included) per 1000
# requests. Everything it starts and its temp folder are removed on exit.
#   scripts/bench-fleet.sh                    # the full run (about 5 minutes of load plus the build)
#   BENCH_SECONDS=10 scripts/bench-fleet.sh   # a quick look
# Other settings: BENCH_WRK_TIMEOUT (default 30s), BENCH_SKIP_BUILD=1 (use .build/release as it is),
# LITEVISION_POSTGRES_BIN (default /usr/lib/postgresql/15/bin), LITEVISION_TEST_DATA (default ../shared).
set -euo pipefail
cd "$(dirname "$0")/.."

data=$(cd "${LITEVISION_TEST_DATA:-../shared}" && pwd)
seconds=${BENCH_SECONDS:-60}
wrk_timeout=${BENCH_WRK_TIMEOUT:-30s}
pg_bin=${LITEVISION_POSTGRES_BIN:-/usr/lib/postgresql/15/bin}
info_connections=500 blob_connections=200
goal_cache_ratio=0.8 goal_replica_rps=0.9 goal_cpu=0.10

say() { echo "bench-fleet: $*" >&2; }
fail() { say "$*"; exit 1; }
[[ "$seconds" =~ ^[0-9]+$ && "$seconds" -ge 2 ]] || fail "BENCH_SECONDS must be a whole number ≥ 2"
bird=$data/models/bird.tflite
[[ -r "$bird" ]] || fail "no $bird (set LITEVISION_TEST_DATA to the shared data folder)"
bird_sha=$(sha256sum "$bird" | cut -d' ' -f1)
bird_size=$(stat -c %s "$bird")

# --- tools and binaries --------------------------------------------------------------------------------------
if ! command -v wrk >/dev/null || ! command -v nginx >/dev/null || [[ ! -x $pg_bin/initdb ]]; then
  scripts/setup.sh --bench
fi
[[ -x $pg_bin/initdb && -x $pg_bin/pg_ctl && -x $pg_bin/psql ]] ||
  fail "PostgreSQL's programs are not in $pg_bin (set LITEVISION_POSTGRES_BIN)"
if [[ "${BENCH_SKIP_BUILD:-0}" != 1 ]]; then
  for product in litevision-registry litevision; do
    say "building $product (release)"
    build_log=$(mktemp)
    if ! swift build -c release --product "$product" >"$build_log" 2>&1; then
      cat "$build_log" >&2; rm -f "$build_log"; fail "the build of $product failed"
    fi
    rm -f "$build_log"
  done
fi
registry_bin=$PWD/.build/release/litevision-registry
cli_bin=$PWD/.build/release/litevision
[[ -x $registry_bin && -x $cli_bin ]] || fail "no $registry_bin or $cli_bin"

# --- temp folder, and cleanup of everything started --------------------------------------------------------
work=$(mktemp -d -t litevision-bench-fleet.XXXXXX)
chmod 755 "$work"
replica_pids=() nginx_pid="" pg_started=0
as_postgres=()
[[ $(id -u) -eq 0 ]] && as_postgres=(runuser -u postgres --)  # PostgreSQL refuses to run as root
stop_replicas() {
  local pid
  for pid in "${replica_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${replica_pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  replica_pids=()
}
stop_nginx() {
  [[ -n "$nginx_pid" ]] || return 0
  kill "$nginx_pid" 2>/dev/null || true
  wait "$nginx_pid" 2>/dev/null || true
  nginx_pid=""
}
cleanup() {
  stop_nginx
  stop_replicas
  ((pg_started)) && "${as_postgres[@]}" "$pg_bin/pg_ctl" -D "$work/pg/data" -m fast -w stop >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

calc() { awk "BEGIN { printf \"%s\", $* }"; }
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
ticks=$(getconf CLK_TCK)

# --- PostgreSQL ------------------------------------------------------------------------------------------------
# Password authentication over TCP, as a deployment has; the password reaches the replicas through the
# environment, never the command line.
password=bench-$RANDOM$RANDOM
mkdir -p "$work/pg"
echo "$password" >"$work/pg/password"
[[ $(id -u) -eq 0 ]] && chown -R postgres: "$work/pg"
"${as_postgres[@]}" "$pg_bin/initdb" -D "$work/pg/data" -U postgres --pwfile "$work/pg/password" \
  --auth-local=trust --auth-host=scram-sha-256 --encoding=UTF8 --locale=C --no-sync >"$work/initdb.log" 2>&1 ||
  { cat "$work/initdb.log" >&2; fail "initdb failed"; }
pg_port=$(free_port)
"${as_postgres[@]}" "$pg_bin/pg_ctl" -D "$work/pg/data" -l "$work/pg/server.log" -w -t 60 \
  -o "-p $pg_port -c listen_addresses=127.0.0.1 -k $work/pg -c max_connections=200" start >/dev/null ||
  { cat "$work/pg/server.log" >&2; fail "PostgreSQL did not start"; }
pg_started=1
PGPASSWORD=$password "$pg_bin/psql" -h 127.0.0.1 -p "$pg_port" -U postgres -d postgres -qAt \
  -c "CREATE DATABASE registry" >/dev/null
postmaster=$(head -n 1 "$work/pg/data/postmaster.pid")
export LITEVISION_REGISTRY_DATABASE_PASSWORD=$password
database=postgres://postgres@127.0.0.1:$pg_port/registry?sslmode=disable
say "PostgreSQL $("$pg_bin/postgres" --version | awk '{ print $3 }') on port $pg_port (pid $postmaster)"

"$registry_bin" token create --database "$database" --role publish >"$work/token"

# --- replicas ----------------------------------------------------------------------------------------------------
replica_urls=()
start_replicas() {  # COUNT
  local index pid url i
  for ((index = 0; index < $1; index++)); do
    "$registry_bin" serve --database "$database" --port 0 >"$work/replica-$index.out" 2>"$work/replica-$index.err" &
    pid=$!
    replica_pids+=("$pid")
    url=""
    for ((i = 0; i < 600; i++)); do
      url=$(sed -n 's/.* at \(http:[^ ]*\).*/\1/p' "$work/replica-$index.out" | head -n 1)
      [[ -n "$url" ]] && curl -sf -o /dev/null "$url/ready" && break
      kill -0 "$pid" 2>/dev/null || { cat "$work/replica-$index.err" >&2; fail "replica $index did not start"; }
      sleep 0.1
    done
    [[ -n "$url" ]] || fail "replica $index printed no address"
    replica_urls+=("$url")
  done
}

# --- nginx: deploy/nginx/nginx.conf with its site values, per configuration --------------------------------------
nginx_port=$(free_port)
start_nginx() {  # REPLICAS CACHE(on|off)
  local conf=$work/nginx-$1-$2.conf folder=$work/nginx-$1-$2 i
  mkdir -p "$folder"
  python3 - "$conf" "$folder" "$nginx_port" "$1" "$2" "$bird" "$(id -un)" "$(id -gn)" "${replica_urls[@]}" <<'PY'
import sys
conf, folder, port, count, cache, bird, user, group = sys.argv[1:9]
replicas = [url.split("//", 1)[1] for url in sys.argv[9:]]
text = open("deploy/nginx/nginx.conf").read()
def replace(old, new):
    global text
    if old not in text:
        sys.exit(f"deploy/nginx/nginx.conf no longer has {old!r}")
    text = text.replace(old, new)
replace("listen 8080;", f"listen 127.0.0.1:{port};")
replace("registry-a:8470", replicas[0])
if int(count) == 1:
    replace("        server registry-b:8470 max_fails=1 fail_timeout=10s;\n", "")
else:
    replace("registry-b:8470", replicas[1])
replace("/var/cache/nginx/litevision", folder)
# A million log lines help nobody here; workers run as the invoking user (who can read the shared data).
replace("access_log /dev/stdout;", "access_log off;")
text = f"user {user} {group};\npid {folder}/nginx.pid;\n" + text
if cache == "off":
    replace("proxy_cache litevision_blobs;", "proxy_cache off;")
# The peer: the same file served by nginx from disk.
replace("        # Model information (rollouts", f"        location = /static/bird.tflite {{ alias {bird}; }}\n\n        # Model information (rollouts")
open(conf, "w").write(text)
PY
  nginx -e "$folder/error.log" -p "$folder" -c "$conf" -g "daemon off;" 2>>"$folder/error.log" &
  nginx_pid=$!
  for ((i = 0; i < 300; i++)); do
    curl -sf -o /dev/null "http://127.0.0.1:$nginx_port/static/bird.tflite" && return 0
    kill -0 "$nginx_pid" 2>/dev/null || break
    sleep 0.1
  done
  cat "$folder/error.log" >&2
  fail "nginx did not start"
}
front=http://127.0.0.1:$nginx_port

# --- wrk ---------------------------------------------------------------------------------------------------------
cat >"$work/report.lua" <<'EOF'
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    "WRK duration_us=%d requests=%d bytes=%d connect=%d read=%d write=%d status=%d timeout=%d p50_us=%d p99_us=%d\n",
    summary.duration, summary.requests, summary.bytes, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(99)))
end
EOF
{ cat <<'EOF'
counter = 0
request = function()
  counter = counter + 1
  return wrk.format("GET", "/v1/models/birds?client=device-" .. counter)
end
EOF
  cat "$work/report.lua"; } >"$work/info.lua"
quiet_check() {
  if pgrep -x swift-frontend >/dev/null || pgrep -x swift-build >/dev/null; then
    say "warning: a Swift build is running during $1: its numbers are noisy"
  fi
}
cpu_ticks() {  # utime + stime of the replicas, and of PostgreSQL with its running and exited backends
  local total=0 pid fields
  for pid in "${replica_pids[@]}" "$postmaster"; do
    read -r -a fields <"/proc/$pid/stat"
    total=$((total + fields[13] + fields[14]))
  done
  read -r -a fields <"/proc/$postmaster/stat"
  total=$((total + fields[15] + fields[16]))
  for pid in $(pgrep -P "$postmaster"); do
    read -r -a fields <"/proc/$pid/stat" 2>/dev/null || continue
    total=$((total + fields[13] + fields[14]))
  done
  echo "$total"
}
wrk_field() { sed -n "s/^WRK .*\b$2=\([0-9]*\).*/\1/p" "$work/$1.wrk"; }
wrk_rps() { calc "$(wrk_field "$1" requests) / ($(wrk_field "$1" duration_us) / 1e6)"; }
wrk_mbps() { calc "$(wrk_field "$1" bytes) / ($(wrk_field "$1" duration_us) / 1e6) / 1e6"; }
wrk_errors() {
  calc "$(wrk_field "$1" status) + $(wrk_field "$1" connect) + $(wrk_field "$1" read) + $(wrk_field "$1" write) + \
$(wrk_field "$1" timeout)"
}
wrk_ms() { calc "sprintf(\"%.1f\", $(wrk_field "$1" "$2") / 1000)"; }

run_load() {  # NAME BLOB_URL: both wrk processes at once; CPU ticks of replicas + PostgreSQL in $work/NAME.cpu
  local name=$1 info_pid blob_pid before
  cmp -s <(curl -sf "$2") "$bird" || fail "$name: $2 is not bird.tflite"
  say "$name: $info_connections connections on model info and $blob_connections on $2 for $seconds s"
  quiet_check "$name"
  before=$(cpu_ticks)
  wrk -t 2 -c "$info_connections" -d "${seconds}s" --timeout "$wrk_timeout" --latency -s "$work/info.lua" \
    "$front/v1/models/birds" >"$work/$name-info.wrk" 2>&1 &
  info_pid=$!
  wrk -t 2 -c "$blob_connections" -d "${seconds}s" --timeout "$wrk_timeout" --latency -s "$work/report.lua" \
    "$2" >"$work/$name-blob.wrk" 2>&1 &
  blob_pid=$!
  wait "$info_pid" || { cat "$work/$name-info.wrk" >&2; fail "wrk failed"; }
  wait "$blob_pid" || { cat "$work/$name-blob.wrk" >&2; fail "wrk failed"; }
  echo $(($(cpu_ticks) - before)) >"$work/$name.cpu"
  quiet_check "$name"
  grep -q '^WRK ' "$work/$name-info.wrk" && grep -q '^WRK ' "$work/$name-blob.wrk" ||
    { cat "$work/$name-info.wrk" "$work/$name-blob.wrk" >&2; fail "wrk printed no summary"; }
}

# --- the runs -----------------------------------------------------------------------------------------------------
start_replicas 1
"$cli_bin" models publish --registry "${replica_urls[0]}" --token-file "$work/token" birds "$bird" >&2
start_nginx 1 off
run_load one "$front/v1/blobs/$bird_sha"
stop_nginx

start_replicas 1  # a second replica beside the first
start_nginx 2 off
run_load two "$front/v1/blobs/$bird_sha"
stop_nginx

start_nginx 2 on
curl -sf -o /dev/null "$front/v1/blobs/$bird_sha"  # the cache warmed by one download
run_load cached "$front/v1/blobs/$bird_sha"
run_load static "$front/static/bird.tflite"
for pid in "${replica_pids[@]}"; do kill -0 "$pid" 2>/dev/null || fail "a replica died under load"; done

# --- the table -----------------------------------------------------------------------------------------------
met() { if (($(calc "($1) ? 1 : 0"))); then echo yes; else echo "**no**"; fi; }
f0() { calc "sprintf(\"%.0f\", $1)"; }
f2() { calc "sprintf(\"%.2f\", $1)"; }
cpu_per_1000() {  # CPU seconds of replicas + PostgreSQL per 1000 requests (info and downloads)
  calc "sprintf(\"%.3f\", $(cat "$work/$1.cpu") / $ticks / (($(wrk_field "$1-info" requests) + $(wrk_field "$1-blob" requests)) / 1000))"
}
row() {  # NAME LABEL
  echo "| $2 | $(f0 "$(wrk_rps "$1-info")") | $(wrk_ms "$1-info" p50_us) / $(wrk_ms "$1-info" p99_us) |" \
    "$(f0 "$(wrk_rps "$1-blob")") | $(f0 "$(wrk_mbps "$1-blob")") | $(wrk_ms "$1-blob" p50_us) / $(wrk_ms "$1-blob" p99_us) |" \
    "$(wrk_errors "$1-info") / $(wrk_errors "$1-blob") | $(f2 "$(cat "$work/$1.cpu") / $ticks") | $(cpu_per_1000 "$1") |"
}
echo "Machine: $(nproc) cores; $(wrk --version 2>&1 | head -n 1 | cut -d' ' -f1-2) (two at once, 2 threads each," \
  "timeout $wrk_timeout); nginx $(nginx -v 2>&1 | sed 's|.*/||') with deploy/nginx/nginx.conf ($(nproc) workers," \
  "access log off); PostgreSQL $("$pg_bin/postgres" --version | awk '{ print $3 }'); everything shares the cores;" \
  "bird.tflite $(f2 "$bird_size / 1e6") MB; 1 MB = 10^6 bytes; ${seconds} s per row; $(date -u +%Y-%m-%d)."
echo
echo "| through nginx | info requests/s | info p50 / p99 (ms) | downloads/s | download MB/s | download p50 / p99 (ms) |" \
  "errors info / downloads | CPU s, replicas + PostgreSQL | CPU s per 1000 requests |"
echo "|---|---|---|---|---|---|---|---|---|"
row one "one replica"
row two "two replicas"
row cached "two replicas, model files cached by nginx"
row static "peer: two replicas for info, the file from disk (nginx \`alias\`)"
echo
errors=$(calc "$(wrk_errors one-info) + $(wrk_errors one-blob) + $(wrk_errors two-info) + $(wrk_errors two-blob) + \
$(wrk_errors cached-info) + $(wrk_errors cached-blob) + $(wrk_errors static-info) + $(wrk_errors static-blob)")
cache_ratio=$(f2 "$(wrk_mbps cached-blob) / $(wrk_mbps static-blob)")
replica_ratio=$(f2 "$(wrk_rps two-info) / $(wrk_rps one-info)")
cpu_ratio=$(f2 "$(cpu_per_1000 two) / $(cpu_per_1000 one)")
echo "| goal | measured | met |"
echo "|---|---|---|"
echo "| no errors in any row | $errors | $(met "$errors == 0") |"
echo "| cached downloads ≥ 0.8× the static file's MB/s | ${cache_ratio}× | $(met "$cache_ratio >= $goal_cache_ratio") |"
echo "| two replicas ≥ 0.9× one replica's info requests/s | ${replica_ratio}× | $(met "$replica_ratio >= $goal_replica_rps") |"
echo "| two replicas' CPU s per 1000 requests within 10 % of one replica's | ${cpu_ratio}× |" \
  "$(met "$cpu_ratio <= 1 + $goal_cpu && $cpu_ratio >= 1 - $goal_cpu") |"

for index in "${!replica_pids[@]}"; do
  if grep -vE '^[^ ]+ (trace|debug|info|notice) ' "$work/replica-$index.err" | grep -q .; then
    say "replica $index logged:"; grep -vE '^[^ ]+ (trace|debug|info|notice) ' "$work/replica-$index.err" | tail -n 10 >&2
  fi
done
exit 0

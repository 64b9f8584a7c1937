#!/usr/bin/env bash
# Benchmarks the registry as a fleet deployment on this machine, on loopback only, and prints its tables
# (progress goes to standard error): PostgreSQL 15 (Debian's, a throwaway cluster in a temp folder), registry
# replicas on it (`litevision-registry serve --database`), and nginx with the repository's deploy/nginx/nginx.conf
# in front. Every run lasts BENCH_SECONDS (default 60) and goes through nginx:
#   - model information alone: 500 connections checking for updates, GET /v1/models/birds?client=device-N
#     (`models info`; N counts up, so every request computes a rollout bucket for another client), with one
#     replica free to use every core, then with each replica pinned to a core of its own (`taskset`: not a
#     cgroup CPU limit, the replica still starts its usual threads): one replica, then two, each as fast as wrk
#     can send (throughput), and each paced (wrk's delay()) so that every replica is asked BENCH_PACED_RATE
#     requests/s: what a second replica costs per request, at the same load per replica (a half-busy server
#     spends more per request than a saturated one, whatever the number of replicas);
#   - updates and downloads at once, two wrk processes: the same 500 connections, and 200 downloading
#     bird.tflite (GET /v1/blobs/<sha256>), with one replica; two (one core each); two with nginx's proxy_cache
#     for the model files (the deploy configuration as shipped; warmed by one download); and the peer: the same,
#     with the downloads served by nginx from the file on disk (a `location` with `alias`, sendfile), as a CDN
#     or static server would.
# Reported: requests/s, MB/s, p50/p99 latency, errors (non-2xx + socket errors), and the CPU seconds the
# replicas and PostgreSQL used (from /proc, utime + stime, PostgreSQL's exited backends included) per 1000
# requests. Everything it starts and its temp folder are removed on exit.
#   scripts/bench-fleet.sh                    # the full run (about 10 minutes of load plus the build)
#   BENCH_SECONDS=10 scripts/bench-fleet.sh   # a quick look
# Other settings: BENCH_WRK_TIMEOUT (default 30s), BENCH_PACED_RATE (default 5000), BENCH_SKIP_BUILD=1 (use
# .build/release as it is), LITEVISION_POSTGRES_BIN (default /usr/lib/postgresql/15/bin), LITEVISION_TEST_DATA
# (default ../shared).
set -euo pipefail
cd "$(dirname "$0")/.."

data=$(cd "${LITEVISION_TEST_DATA:-../shared}" && pwd)
seconds=${BENCH_SECONDS:-60}
wrk_timeout=${BENCH_WRK_TIMEOUT:-30s}
pg_bin=${LITEVISION_POSTGRES_BIN:-/usr/lib/postgresql/15/bin}
info_connections=500 blob_connections=200
goal_cache_ratio=0.8 goal_replica_rps=0.9 goal_cpu=0.10
paced_rate=${BENCH_PACED_RATE:-5000}  # requests/s asked of each replica in the paced rows

bench_name=bench-fleet
source scripts/bench-common.sh
[[ "$seconds" =~ ^[0-9]+$ && "$seconds" -ge 2 ]] || fail "BENCH_SECONDS must be a whole number ≥ 2"
[[ "$paced_rate" =~ ^[0-9]+$ && "$paced_rate" -ge 100 && "$paced_rate" -le 1000000 ]] ||
  fail "BENCH_PACED_RATE must be a whole number of requests/s from 100 to 1000000"
bird=$data/models/bird.tflite
[[ -r "$bird" ]] || fail "no $bird (set LITEVISION_TEST_DATA to the shared data folder)"
bird_sha=$(sha256sum "$bird" | cut -d' ' -f1)
bird_size=$(stat -c %s "$bird")

# --- tools and binaries --------------------------------------------------------------------------------------
if ! command -v wrk >/dev/null || ! command -v nginx >/dev/null || ! command -v taskset >/dev/null ||
  [[ ! -x $pg_bin/initdb ]]; then
  scripts/setup.sh --bench >&2
fi
[[ -x $pg_bin/initdb && -x $pg_bin/pg_ctl && -x $pg_bin/psql ]] ||
  fail "PostgreSQL's programs are not in $pg_bin (set LITEVISION_POSTGRES_BIN)"
bench_build litevision-registry litevision
registry_bin=$PWD/.build/release/litevision-registry
cli_bin=$PWD/.build/release/litevision

# --- temp folder, and cleanup of everything started --------------------------------------------------------
work=$(mktemp -d -t litevision-bench-fleet.XXXXXX)
chmod 755 "$work"
replica_pids=() nginx_pid="" wrk_pids=() pg_started=0
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
  local pid
  for pid in "${wrk_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  stop_nginx
  stop_replicas
  ((pg_started)) && "${as_postgres[@]}" "$pg_bin/pg_ctl" -D "$work/pg/data" -m fast -w stop >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

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
replica_urls=() cores=$(nproc)
start_replicas() {  # COUNT PINNED(yes|no): more replicas beside those running; pinned: replica k on core k
  local index pid url i pin=() first=${#replica_pids[@]}
  for ((index = first; index < first + $1; index++)); do
    [[ $2 == yes ]] && pin=(taskset -c "$((index % cores))")
    : >"$work/replica-$index.out"  # there before the replica runs: read below at once
    "${pin[@]}" "$registry_bin" serve --database "$database" --port 0 \
      >"$work/replica-$index.out" 2>"$work/replica-$index.err" &
    pid=$!
    replica_pids+=("$pid")
    url="" ready=0
    for ((i = 0; i < 600; i++)); do
      url=$(sed -n 's/.* at \(http:[^ ]*\).*/\1/p' "$work/replica-$index.out" | head -n 1)
      [[ -n "$url" ]] && curl -sf --max-time 5 -o /dev/null "$url/ready" && { ready=1; break; }
      kill -0 "$pid" 2>/dev/null || { cat "$work/replica-$index.err" >&2; fail "replica $index did not start"; }
      sleep 0.1
    done
    [[ -n "$url" ]] || fail "replica $index printed no address in 60 s"
    ((ready)) || { tail -n 20 "$work/replica-$index.err" >&2; fail "replica $index at $url was not ready in 60 s"; }
    replica_urls+=("$url")
  done
}
check_replica_logs() {  # says what the running replicas logged above level notice
  local index
  for index in "${!replica_pids[@]}"; do
    if grep -qvE '^[^ ]+ (trace|debug|info|notice) ' "$work/replica-$index.err"; then
      say "replica $index logged:"
      grep -vE '^[^ ]+ (trace|debug|info|notice) ' "$work/replica-$index.err" | tail -n 10 >&2
    fi
  done
}
restart_replicas() {  # COUNT PINNED: only these replicas (their logs are checked before they go)
  check_replica_logs
  stop_replicas
  replica_urls=()
  start_replicas "$@"
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
    curl -sf --max-time 5 -o /dev/null "http://127.0.0.1:$nginx_port/static/bird.tflite" && return 0
    kill -0 "$nginx_pid" 2>/dev/null || break
    sleep 0.1
  done
  cat "$folder/error.log" >&2
  fail "nginx did not start"
}
front=http://127.0.0.1:$nginx_port

# --- wrk ---------------------------------------------------------------------------------------------------------
write_wrk_report "$work/report.lua"
{ cat <<'EOF'
counter = 0
request = function()
  counter = counter + 1
  return wrk.format("GET", "/v1/models/birds?client=device-" .. counter)
end
EOF
  cat "$work/report.lua"; } >"$work/info.lua"
paced_script() {  # REPLICAS: info.lua with each connection pausing so that each replica gets $paced_rate requests/s
  # (a closed loop: the response time adds to the pause; the rate achieved is checked after the runs)
  local pause=$((info_connections * 1000 / (paced_rate * $1)))
  ((pause >= 1)) || fail "BENCH_PACED_RATE $paced_rate is too high for $info_connections connections"
  { cat "$work/info.lua"; echo "delay = function() return $pause end"; } >"$work/info-paced-$1.lua"
  echo "$work/info-paced-$1.lua"
}
cpu_ticks() {  # utime + stime of the replicas, then of PostgreSQL with its running and exited backends
  local replicas=0 postgres=0 pid fields
  for pid in "${replica_pids[@]}"; do
    read -r -a fields 2>/dev/null <"/proc/$pid/stat" || fail "replica (pid $pid) is no longer running"
    replicas=$((replicas + fields[13] + fields[14]))
  done
  read -r -a fields 2>/dev/null <"/proc/$postmaster/stat" || fail "PostgreSQL (pid $postmaster) is no longer running"
  postgres=$((fields[13] + fields[14] + fields[15] + fields[16]))
  for pid in $(pgrep -P "$postmaster"); do
    read -r -a fields 2>/dev/null <"/proc/$pid/stat" || continue  # a backend that just ended
    postgres=$((postgres + fields[13] + fields[14]))
  done
  echo "$replicas $postgres"
}
cpu_since() {  # BEFORE: the ticks used since `cpu_ticks` printed BEFORE, replicas and PostgreSQL
  local now ticks
  ticks=$(cpu_ticks)  # a line of its own: a failure here stops the script
  read -r -a now <<<"$ticks"
  read -r -a before <<<"$1"
  echo "$((now[0] - before[0])) $((now[1] - before[1]))"
}
run_load() {  # NAME BLOB_URL: both wrk processes at once; CPU ticks of replicas + PostgreSQL in $work/NAME.cpu
  local name=$1 info_pid blob_pid before
  cmp -s <(curl -sf --max-time 30 "$2") "$bird" || fail "$name: $2 is not bird.tflite"
  say "$name: $info_connections connections on model info and $blob_connections on $2 for $seconds s"
  quiet_check "$name"
  before=$(cpu_ticks)
  wrk -t 2 -c "$info_connections" -d "${seconds}s" --timeout "$wrk_timeout" --latency -s "$work/info.lua" \
    "$front/v1/models/birds" >"$work/$name-info.wrk" 2>&1 &
  info_pid=$!
  wrk -t 2 -c "$blob_connections" -d "${seconds}s" --timeout "$wrk_timeout" --latency -s "$work/report.lua" \
    "$2" >"$work/$name-blob.wrk" 2>&1 &
  blob_pid=$!
  wrk_pids=("$info_pid" "$blob_pid")
  wait "$info_pid" || { cat "$work/$name-info.wrk" >&2; fail "wrk failed"; }
  wait "$blob_pid" || { cat "$work/$name-blob.wrk" >&2; fail "wrk failed"; }
  wrk_pids=()
  cpu_since "$before" >"$work/$name.cpu"
  quiet_check "$name"
  grep -q '^WRK ' "$work/$name-info.wrk" && grep -q '^WRK ' "$work/$name-blob.wrk" ||
    { cat "$work/$name-info.wrk" "$work/$name-blob.wrk" >&2; fail "wrk printed no summary"; }
}

run_info() {  # NAME [SCRIPT]: model information alone, one wrk; CPU ticks in $work/NAME.cpu
  local name=$1 script=${2:-$work/info.lua} before
  say "$name: $info_connections connections on model info alone for $seconds s ($(basename "$script"))"
  quiet_check "$name"
  before=$(cpu_ticks)
  [[ -r "$script" ]] || fail "$name: no wrk script $script"
  wrk -t 2 -c "$info_connections" -d "${seconds}s" --timeout "$wrk_timeout" --latency -s "$script" \
    "$front/v1/models/birds" >"$work/$name.wrk" 2>&1 &
  wrk_pids=("$!")  # in the background, so that a signal stops the script (and wrk) at once
  wait "${wrk_pids[0]}" || { cat "$work/$name.wrk" >&2; fail "wrk failed"; }
  wrk_pids=()
  cpu_since "$before" >"$work/$name.cpu"
  quiet_check "$name"
  grep -q '^WRK ' "$work/$name.wrk" || { cat "$work/$name.wrk" >&2; fail "wrk printed no summary"; }
}

# --- the runs -----------------------------------------------------------------------------------------------------
start_replicas 1 no
"$cli_bin" models publish --registry "${replica_urls[0]}" --token-file "$work/token" birds "$bird" >&2
start_nginx 1 off
run_info one-free
stop_nginx

restart_replicas 1 yes
start_nginx 1 off
run_info one-alone
run_info one-paced "$(paced_script 1)"
run_load one "$front/v1/blobs/$bird_sha"
stop_nginx

start_replicas 1 yes  # a second replica beside the first, on the other core
start_nginx 2 off
run_info two-alone
run_info two-paced "$(paced_script 2)"
run_load two "$front/v1/blobs/$bird_sha"
stop_nginx

start_nginx 2 on
curl -sf --max-time 30 -o /dev/null "$front/v1/blobs/$bird_sha"  # the cache warmed by one download
run_load cached "$front/v1/blobs/$bird_sha"
run_load static "$front/static/bird.tflite"
for pid in "${replica_pids[@]}"; do kill -0 "$pid" 2>/dev/null || fail "a replica died under load"; done

# --- the table -----------------------------------------------------------------------------------------------
cpu_total() { awk '{ print $1 + $2 }' "$work/$1.cpu"; }  # ticks of replicas and PostgreSQL
cpu_s() {  # NAME: "total (replicas / PostgreSQL)" CPU seconds
  local parts
  read -r -a parts <"$work/$1.cpu"
  echo "$(f2 "$(cpu_total "$1") / $ticks") ($(f2 "${parts[0]} / $ticks") / $(f2 "${parts[1]} / $ticks"))"
}
cpu_per_1000_exact() {  # NAME WRK...: CPU seconds of replicas + PostgreSQL per 1000 requests, unrounded
  local name=$1 requests=0 run
  shift
  for run in "$@"; do requests=$((requests + $(wrk_field "$run" requests))); done
  calc "$(cpu_total "$name") / $ticks / ($requests / 1000)"
}
cpu_per_1000() {  # NAME WRK...: the same, for the table
  calc "sprintf(\"%.3f\", $(cpu_per_1000_exact "$@"))"
}
row() {  # NAME LABEL
  echo "| $2 | $(f0 "$(wrk_rps "$1-info")") | $(wrk_ms "$1-info" p50_us) / $(wrk_ms "$1-info" p99_us) |" \
    "$(f0 "$(wrk_rps "$1-blob")") | $(f0 "$(wrk_mbps "$1-blob")") | $(wrk_ms "$1-blob" p50_us) / $(wrk_ms "$1-blob" p99_us) |" \
    "$(wrk_errors "$1-info") / $(wrk_errors "$1-blob") | $(cpu_s "$1") | $(cpu_per_1000 "$1" "$1-info" "$1-blob") |"
}
info_row() {  # NAME LABEL
  echo "| $2 | $(f0 "$(wrk_rps "$1")") | $(wrk_ms "$1" p50_us) / $(wrk_ms "$1" p99_us) | $(wrk_errors "$1") |" \
    "$(cpu_s "$1") | $(cpu_per_1000 "$1" "$1") |"
}
echo "Machine: $(nproc) cores; $(wrk --version 2>&1 | head -n 1 | cut -d' ' -f1-2) (2 threads each," \
  "timeout $wrk_timeout); nginx $(nginx -v 2>&1 | sed 's|.*/||') with deploy/nginx/nginx.conf ($(nproc) workers," \
  "access log off); PostgreSQL $("$pg_bin/postgres" --version | awk '{ print $3 }'); replicas on a core each" \
  "but the first row; nginx, wrk and PostgreSQL share every core;" \
  "bird.tflite $(f2 "$bird_size / 1e6") MB; 1 MB = 10^6 bytes; ${seconds} s per row; $(date -u +%Y-%m-%d)."
echo
echo "Model information alone, $info_connections connections through nginx:"
echo
echo "| replicas | requests/s | p50 / p99 (ms) | errors | CPU s, replicas + PostgreSQL (replicas / PostgreSQL) | CPU s per 1000 requests |"
echo "|---|---|---|---|---|---|"
info_row one-free "one, free to use all $cores cores"
info_row one-alone "one, on one core"
info_row two-alone "two, on a core each"
info_row one-paced "one, on one core, paced: $paced_rate requests/s asked"
info_row two-paced "two, on a core each, paced: $paced_rate requests/s asked of each"
echo
echo "Updates checked and models downloaded at once: $info_connections connections on model information and" \
  "$blob_connections downloading, two wrk through nginx:"
echo
echo "| through nginx | info requests/s | info p50 / p99 (ms) | downloads/s | download MB/s | download p50 / p99 (ms) |" \
  "errors info / downloads | CPU s, replicas + PostgreSQL (replicas / PostgreSQL) | CPU s per 1000 requests |"
echo "|---|---|---|---|---|---|---|---|---|"
row one "one replica (one core)"
row two "two replicas (a core each)"
row cached "two replicas, model files cached by nginx"
row static "peer: two replicas for info, the file from disk (nginx \`alias\`)"
echo
errors=0
all_runs="one-free one-alone two-alone one-paced two-paced one-info one-blob two-info two-blob cached-info cached-blob
  static-info static-blob"
for run in $all_runs; do
  errors=$(calc "$errors + $(wrk_errors "$run")")
done
cache_ratio=$(f2 "$(wrk_mbps cached-blob) / $(wrk_mbps static-blob)")
replica_ratio=$(f2 "$(wrk_rps two-alone) / $(wrk_rps one-alone)")
cpu_ratio=$(f2 "$(cpu_per_1000_exact two-paced two-paced) / $(cpu_per_1000_exact one-paced one-paced)")
saturated_cpu_ratio=$(f2 "$(cpu_per_1000_exact two-alone two-alone) / $(cpu_per_1000_exact one-alone one-alone)")
mixed_cpu_ratio=$(f2 "$(cpu_per_1000_exact two two-info two-blob) / $(cpu_per_1000_exact one one-info one-blob)")
# The paced rows compare like with like only if each replica got about the rate asked.
cpu_met=$(met "$cpu_ratio <= 1 + $goal_cpu")
for paced in "one-paced 1" "two-paced 2"; do
  read -r run count <<<"$paced"
  got=$(calc "$(wrk_rps "$run") / $count")
  if (($(calc "($got < 0.85 * $paced_rate) || ($got > 1.05 * $paced_rate)"))); then
    say "$run: each replica answered $(f0 "$got") requests/s, not the $paced_rate asked: the paced rows do not" \
      "compare like with like (lower BENCH_PACED_RATE)"
    cpu_met="— (the rate asked was not reached)"
  fi
done
echo "| goal | measured | met |"
echo "|---|---|---|"
echo "| no errors in any run | $errors | $(met "$errors == 0") |"
echo "| cached downloads ≥ 0.8× the static file's MB/s | ${cache_ratio}× | $(met "$cache_ratio >= $goal_cache_ratio") |"
echo "| model information: two replicas ≥ 0.9× one replica's requests/s | ${replica_ratio}× |" \
  "$(met "$replica_ratio >= $goal_replica_rps") |"
# A second replica may cost less per request, never more than 10 % more: what coordination would cost.
echo "| model information: two replicas' CPU s per 1000 requests at most 10 % above one replica's, each replica" \
  "asked the same rate (paced rows) | ${cpu_ratio}× | $cpu_met |"
echo "| (the same, unpaced: all the machine can send, spread over one replica or two) | ${saturated_cpu_ratio}× | — |"
echo "| (mixed load: two replicas' CPU s per 1000 requests against one's; the mix of requests differs) |" \
  "${mixed_cpu_ratio}× | — |"

for run in $all_runs; do
  if (($(wrk_errors "$run") > 0)); then
    say "$run errors: non-2xx $(wrk_field "$run" status), connect $(wrk_field "$run" connect), read" \
      "$(wrk_field "$run" read), write $(wrk_field "$run" write), timeout $(wrk_field "$run" timeout)"
  fi
done
for log in "$work"/nginx-*/error.log; do
  if grep -q '\[\(error\|crit\|alert\|emerg\)\]' "$log"; then
    say "nginx ($(basename "$(dirname "$log")")) logged:"
    grep '\[\(error\|crit\|alert\|emerg\)\]' "$log" | tail -n 5 >&2
  fi
done
check_replica_logs
exit 0

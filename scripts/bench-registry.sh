#!/usr/bin/env bash
# Benchmarks the model registry server (litevision-registry) against nginx on this machine, on loopback only,
# and prints one markdown table (progress goes to standard error):
#   1. blob downloads: wrk, 200 connections, BENCH_SECONDS (default 60) each, GET bird.tflite from the registry's
#      /v1/blobs/<sha256> and then the same file from nginx (sendfile on, 2 workers, its own config in a temp dir):
#      requests/s, bytes/s, errors (non-2xx + socket errors); the registry's RSS sampled every second
#      (/proc/PID/status VmRSS) during its run: peak (VmHWM), first and last 10 s averages
#   2. model info: wrk --latency, 64 connections, BENCH_INFO_SECONDS (default 20), GET /v1/models/birds:
#      requests/s and p99 latency
#   3. `litevision models download` of the largest shared model (fresh cache each run) against `curl -o /dev/null`
#      of the same blob, and against `curl -o FILE && sync FILE` (a download that is on disk when it ends, as an
#      install must be): median of BENCH_DOWNLOAD_RUNS (default 3) wall times each, in MB/s (1 MB = 10^6 bytes)
# Everything it starts (registry, nginx, samplers) and its temp folder are removed on exit.
#   scripts/bench-registry.sh                      # the full run (about 2.5 minutes of load plus the build)
#   BENCH_SECONDS=10 BENCH_INFO_SECONDS=5 scripts/bench-registry.sh   # a quick look
# Other settings: BENCH_WRK_TIMEOUT (wrk's per-request timeout, default 30s: a 3.6 MB response shared by
# 200 connections may take over wrk's own 2 s default, which wrk would count as an error), BENCH_SKIP_BUILD=1
# (use the binaries in .build/release as they are), LITEVISION_TEST_DATA (default ../shared).
set -euo pipefail
cd "$(dirname "$0")/.."

data=$(cd "${LITEVISION_TEST_DATA:-../shared}" && pwd)
blob_seconds=${BENCH_SECONDS:-60}
info_seconds=${BENCH_INFO_SECONDS:-20}
download_runs=${BENCH_DOWNLOAD_RUNS:-3}
wrk_timeout=${BENCH_WRK_TIMEOUT:-30s}
blob_connections=200 info_connections=64 wrk_threads=2
goal_blob_ratio=0.5 goal_peak_mb=150 goal_flat=0.10 goal_info_rps=10000 goal_info_p99_ms=20 goal_download_ratio=0.8

bench_name=bench-registry
source scripts/bench-common.sh
[[ "$blob_seconds" =~ ^[0-9]+$ && "$blob_seconds" -ge 2 ]] || fail "BENCH_SECONDS must be a whole number ≥ 2"
[[ "$info_seconds" =~ ^[0-9]+$ && "$info_seconds" -ge 1 ]] || fail "BENCH_INFO_SECONDS must be a whole number ≥ 1"
[[ "$download_runs" =~ ^[0-9]+$ && "$download_runs" -ge 1 ]] || fail "BENCH_DOWNLOAD_RUNS must be a whole number ≥ 1"

bird=$data/models/bird.tflite
[[ -r "$bird" ]] || fail "no $bird (set LITEVISION_TEST_DATA to the shared data folder)"
largest=$(ls -S "$data"/models/*.tflite | head -n 1)
largest_name=$(basename "$largest" .tflite)

# --- tools and binaries --------------------------------------------------------------------------------------
if ! command -v wrk >/dev/null || ! command -v nginx >/dev/null || ! command -v curl >/dev/null; then
  scripts/setup.sh --bench
fi
bench_build litevision-registry litevision
registry_bin=.build/release/litevision-registry
cli_bin=.build/release/litevision

# --- temp folder, and cleanup of everything started --------------------------------------------------------
work=$(mktemp -d -t litevision-bench-registry.XXXXXX)
registry_pid="" nginx_pid="" sampler_pid=""
cleanup() {
  local pid
  for pid in "$sampler_pid" "$registry_pid" "$nginx_pid"; do
    [[ -n "$pid" ]] && kill "$pid" 2>/dev/null || true
  done
  for pid in "$sampler_pid" "$registry_pid" "$nginx_pid"; do
    [[ -n "$pid" ]] && wait "$pid" 2>/dev/null || true
  done
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

now_ns() { date +%s%N; }
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
wait_http() {  # URL PID: waits up to 30 s for a 200 from URL while PID lives
  local i
  for ((i = 0; i < 300; i++)); do
    curl -sf -o /dev/null "$1" && return 0
    kill -0 "$2" 2>/dev/null || return 1
    sleep 0.1
  done
  return 1
}

# --- the registry ------------------------------------------------------------------------------------------
"$registry_bin" serve --data "$work/registry" --port 0 >"$work/registry.out" 2>"$work/registry.err" &
registry_pid=$!
for ((i = 0; i < 600; i++)); do
  grep -q "serving .* at http" "$work/registry.out" 2>/dev/null && break
  kill -0 "$registry_pid" 2>/dev/null || { cat "$work/registry.err" >&2; fail "the registry did not start"; }
  sleep 0.1
done
registry=$(sed -n 's/.* at \(http:[^ ]*\).*/\1/p' "$work/registry.out" | head -n 1)
[[ -n "$registry" ]] || fail "the registry printed no address"
say "registry at $registry (pid $registry_pid)"
"$registry_bin" token create --data "$work/registry" --role publish >"$work/token"
"$cli_bin" models publish --registry "$registry" --token-file "$work/token" birds "$bird" >&2
if [[ "$largest_name" != bird ]]; then
  "$cli_bin" models publish --registry "$registry" --token-file "$work/token" "$largest_name" "$largest" >&2
else
  largest_name=birds
fi
blob_path() { curl -sf "$registry/v1/models/$1" | python3 -c 'import json, sys; print(json.load(sys.stdin)["servedBlob"])'; }
bird_blob=$registry$(blob_path birds)
largest_blob=$registry$(blob_path "$largest_name")
largest_size=$(stat -c %s "$largest")

# --- nginx, with its own config, serving the same bird.tflite ------------------------------------------------
mkdir -p "$work/nginx"
# As root nginx would switch its workers to `nobody`, who may not read the data folder: run them as the invoking
# user instead, as an unprivileged nginx would.
user_line=""
[[ $(id -u) -eq 0 ]] && user_line="user $(id -un) $(id -gn);"
for attempt in 1 2 3 4 5; do
  nginx_port=$(free_port)
  cat >"$work/nginx/nginx.conf" <<EOF
$user_line
worker_processes 2;
daemon off;
pid $work/nginx/nginx.pid;
error_log $work/nginx/error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    sendfile on;
    tcp_nopush on;
    keepalive_timeout 60s;
    keepalive_requests 1000000;
    default_type application/octet-stream;
    client_body_temp_path $work/nginx/body;
    proxy_temp_path $work/nginx/proxy;
    fastcgi_temp_path $work/nginx/fastcgi;
    uwsgi_temp_path $work/nginx/uwsgi;
    scgi_temp_path $work/nginx/scgi;
    server {
        listen 127.0.0.1:$nginx_port;
        location = /bird.tflite { alias $bird; }
    }
}
EOF
  nginx -e "$work/nginx/error.log" -p "$work/nginx" -c "$work/nginx/nginx.conf" 2>>"$work/nginx/error.log" &
  nginx_pid=$!
  wait_http "http://127.0.0.1:$nginx_port/bird.tflite" "$nginx_pid" && break
  kill "$nginx_pid" 2>/dev/null || true; wait "$nginx_pid" 2>/dev/null || true; nginx_pid=""
done
[[ -n "$nginx_pid" ]] || { cat "$work/nginx/error.log" >&2; fail "nginx did not start"; }
nginx_url=http://127.0.0.1:$nginx_port/bird.tflite
say "nginx at $nginx_url (pid $nginx_pid)"
cmp -s <(curl -sf "$bird_blob") "$bird" || fail "the registry's blob is not bird.tflite"
cmp -s <(curl -sf "$nginx_url") "$bird" || fail "nginx's file is not bird.tflite"

# --- wrk -------------------------------------------------------------------------------------------------------
write_wrk_report "$work/report.lua"
run_wrk() {  # NAME CONNECTIONS SECONDS URL: runs wrk, keeps its output in $work/NAME.wrk
  say "wrk: $2 connections for $3 s against $4"
  quiet_check "$1"
  wrk -t "$wrk_threads" -c "$2" -d "${3}s" --timeout "$wrk_timeout" --latency -s "$work/report.lua" "$4" \
    >"$work/$1.wrk" 2>&1 || { cat "$work/$1.wrk" >&2; fail "wrk failed"; }
  quiet_check "$1"
  grep -q '^WRK ' "$work/$1.wrk" || { cat "$work/$1.wrk" >&2; fail "wrk printed no summary"; }
}
wrk_error_detail() {
  echo "non-2xx $(wrk_field "$1" status), connect $(wrk_field "$1" connect), read $(wrk_field "$1" read), \
write $(wrk_field "$1" write), timeout $(wrk_field "$1" timeout)"
}
rss_kb() { awk -v k="$2" '$1 == k ":" { print $2 }' "/proc/$1/status"; }

idle_rss_kb=$(rss_kb "$registry_pid" VmRSS)
# One sample a second from 1 s into the run (the first would otherwise be the idle RSS before wrk connects).
(while sleep 1 && kill -0 "$registry_pid" 2>/dev/null; do rss_kb "$registry_pid" VmRSS; done) >"$work/rss.txt" &
sampler_pid=$!
run_wrk registry-blob "$blob_connections" "$blob_seconds" "$bird_blob"
kill "$sampler_pid" 2>/dev/null || true; wait "$sampler_pid" 2>/dev/null || true; sampler_pid=""
kill -0 "$registry_pid" 2>/dev/null || fail "the registry died under load"
peak_rss_kb=$(rss_kb "$registry_pid" VmHWM)
after_rss_kb=$(rss_kb "$registry_pid" VmRSS)
samples=$(wc -l <"$work/rss.txt")
window=$((samples / 2 < 10 ? samples / 2 : 10))  # the first and last 10 s, never overlapping
((window >= 1)) || window=1
first_rss_mb=$(head -n "$window" "$work/rss.txt" | awk '{ s += $1 } END { printf "%.1f", s / NR / 1024 }')
last_rss_mb=$(tail -n "$window" "$work/rss.txt" | awk '{ s += $1 } END { printf "%.1f", s / NR / 1024 }')
sampled_peak_mb=$(sort -n "$work/rss.txt" | tail -n 1 | awk '{ printf "%.1f", $1 / 1024 }')

run_wrk nginx-blob "$blob_connections" "$blob_seconds" "$nginx_url"
run_wrk registry-info "$info_connections" "$info_seconds" "$registry/v1/models/birds"

# --- downloads ---------------------------------------------------------------------------------------------------
say "downloads of $largest_name.tflite ($largest_size bytes): litevision models download and curl, $download_runs runs each"
curl -sf -o /dev/null "$largest_blob"
quiet_check downloads
: >"$work/dl.txt"; : >"$work/curl.txt"; : >"$work/curl-durable.txt"; : >"$work/noop.txt"
for ((run = 1; run <= download_runs; run++)); do
  cache=$work/cache-$run
  start=$(now_ns)
  "$cli_bin" models download --registry "$registry" "$largest_name" --cache "$cache" --json >"$work/dl-$run.json"
  echo $(($(now_ns) - start)) >>"$work/dl.txt"
  grep -q "\"sha256\":\"$(sha256sum "$largest" | cut -d' ' -f1)\"" "$work/dl-$run.json" ||
    fail "litevision models download printed an unexpected answer: $(cat "$work/dl-$run.json")"
  start=$(now_ns)
  curl -sSf -o /dev/null "$largest_blob"
  echo $(($(now_ns) - start)) >>"$work/curl.txt"
  # The durable peer: curl writing the file, then fsync of it (coreutils `sync FILE`), as an install must.
  rm -f "$work/curl-file"
  start=$(now_ns)
  curl -sSf -o "$work/curl-file" "$largest_blob" && sync "$work/curl-file"
  echo $(($(now_ns) - start)) >>"$work/curl-durable.txt"
  start=$(now_ns)  # the same command again, with the model already in the cache: no transfer
  "$cli_bin" models download --registry "$registry" "$largest_name" --cache "$cache" --json >/dev/null
  echo $(($(now_ns) - start)) >>"$work/noop.txt"
done
dl_ms=$(median <"$work/dl.txt" | awk '{ printf "%.1f", $1 / 1e6 }')
curl_ms=$(median <"$work/curl.txt" | awk '{ printf "%.1f", $1 / 1e6 }')
durable_ms=$(median <"$work/curl-durable.txt" | awk '{ printf "%.1f", $1 / 1e6 }')
noop_ms=$(median <"$work/noop.txt" | awk '{ printf "%.1f", $1 / 1e6 }')

# --- the table -----------------------------------------------------------------------------------------------
reg_rps=$(wrk_rps registry-blob) ngx_rps=$(wrk_rps nginx-blob)
reg_mbps=$(wrk_mbps registry-blob) ngx_mbps=$(wrk_mbps nginx-blob)
reg_err=$(wrk_errors registry-blob) ngx_err=$(wrk_errors nginx-blob)
peak_mb=$(f1 "$peak_rss_kb / 1024")
info_rps=$(wrk_rps registry-info) info_err=$(wrk_errors registry-info)
info_p99_ms=$(f2 "$(wrk_field registry-info p99_us) / 1000")
info_p50_ms=$(f2 "$(wrk_field registry-info p50_us) / 1000")
dl_mbps=$(f1 "$largest_size / ($dl_ms / 1000) / 1e6")
curl_mbps=$(f1 "$largest_size / ($curl_ms / 1000) / 1e6")
durable_mbps=$(f1 "$largest_size / ($durable_ms / 1000) / 1e6")
beyond_ms=$(f1 "$dl_ms - $noop_ms")
bird_mb=$(f1 "$(stat -c %s "$bird") / 1e6")
largest_mb=$(f1 "$largest_size / 1e6")
blob_ratio=$(f2 "$reg_mbps / $ngx_mbps")

echo "Machine: $(nproc) cores; $(wrk --version 2>&1 | head -n 1 | cut -d' ' -f1-2), $wrk_threads threads, timeout $wrk_timeout;" \
  "nginx $(nginx -v 2>&1 | sed 's|.*/||') (sendfile on, 2 workers); registry, nginx and wrk share the cores;" \
  "1 MB = 10^6 bytes; $(date -u +%Y-%m-%d)."
echo
echo "| measure | registry | peer | ratio | goal | met |"
echo "|---|---|---|---|---|---|"
echo "| bird.tflite blob ($bird_mb MB), $blob_connections connections, ${blob_seconds} s: requests/s | $(f0 "$reg_rps") |" \
  "nginx $(f0 "$ngx_rps") | $(f2 "$reg_rps / $ngx_rps")× | | — |"
echo "| bird.tflite blob: MB/s | $(f0 "$reg_mbps") | nginx $(f0 "$ngx_mbps") | ${blob_ratio}× |" \
  "≥ 0.5× nginx | $(met "$blob_ratio >= $goal_blob_ratio") |"
echo "| bird.tflite blob: errors (non-2xx + socket) | $reg_err ($(wrk_error_detail registry-blob)) |" \
  "nginx $ngx_err | — | none | $(met "$reg_err == 0") |"
echo "| registry RSS, idle before the blob run (MB) | $(f1 "$idle_rss_kb / 1024") | — | — | | — |"
echo "| registry peak RSS during the blob run (VmHWM; sampled max $sampled_peak_mb) (MB) | $peak_mb | — | — |" \
  "≤ $goal_peak_mb MB | $(met "$peak_mb <= $goal_peak_mb") |"
echo "| registry RSS, average of the first / last ${window} s of the blob run (MB) | $first_rss_mb / $last_rss_mb | — |" \
  "$(f2 "$last_rss_mb / $first_rss_mb")× | flat (last within 10 % of first) |" \
  "$(met "$last_rss_mb <= $first_rss_mb * (1 + $goal_flat)") |"
echo "| model info \`GET /v1/models/birds\`, $info_connections connections, ${info_seconds} s: requests/s |" \
  "$(f0 "$info_rps") | — | — | ≥ 10,000 | $(met "$info_rps >= $goal_info_rps") |"
echo "| model info: p99 latency (p50 $info_p50_ms) (ms) | $info_p99_ms | — | — | ≤ $goal_info_p99_ms ms |" \
  "$(met "$info_p99_ms <= $goal_info_p99_ms") |"
echo "| model info: errors (non-2xx + socket) | $info_err | — | — | | — |"
echo "| download $largest_name.tflite ($largest_mb MB), median of $download_runs, whole command: MB/s (ms) |" \
  "$dl_mbps ($dl_ms) | curl $curl_mbps ($curl_ms) | $(f2 "$dl_mbps / $curl_mbps")× | ≥ 0.8× curl |" \
  "$(met "$dl_mbps >= $curl_mbps * $goal_download_ratio") |"
echo "| download, the same against a durable peer: curl -o FILE, then fsync (\`sync FILE\`): MB/s (ms) |" \
  "$dl_mbps ($dl_ms) | curl + sync $durable_mbps ($durable_ms) | $(f2 "$dl_mbps / $durable_mbps")× | | — |"
echo "| download: \`litevision models download\` with the model already cached, no transfer (ms) | $noop_ms | — | — | | — |"

# The registry's RSS after the load and any warning or error it logged, for the record.
say "registry RSS after the blob run: $(f1 "$after_rss_kb / 1024") MB; now $(f1 "$(rss_kb "$registry_pid" VmRSS) / 1024") MB"
if grep -vE '^[^ ]+ (trace|debug|info|notice) ' "$work/registry.err" | grep -q .; then
  say "the registry logged:"; grep -vE '^[^ ]+ (trace|debug|info|notice) ' "$work/registry.err" | tail -n 20 >&2
fi
grep -q . "$work/nginx/error.log" && { say "nginx logged:"; tail -n 20 "$work/nginx/error.log" >&2; }
exit 0

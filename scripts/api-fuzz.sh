#!/usr/bin/env bash
# Fuzzes the model registry's HTTP API against its own OpenAPI document with schemathesis:
# starts `litevision-registry serve` on loopback (a fresh data folder, any free port), publishes one real model
# (bird.tflite from LITEVISION_TEST_DATA, default ../shared) so that there is something to read, then lets
# schemathesis generate valid and invalid requests for every operation of /openapi.yaml and check that the
# server never answers 5xx and that every status, content type, header and body is the one the document states.
# Exits non-zero on any failure. scripts/setup.sh --dev installs schemathesis.
#   scripts/api-fuzz.sh                           about a minute on 2 cores once the registry is built
#   API_FUZZ_EXAMPLES=1000 scripts/api-fuzz.sh    more examples per operation (default 300; 1000: ~2.5 min)
#   API_FUZZ_SEED=N scripts/api-fuzz.sh           repeat a run (each run picks and prints a random seed)
#   API_FUZZ_SKIP_BUILD=1 scripts/api-fuzz.sh     use .build/release/litevision-registry as it is
set -euo pipefail
cd "$(dirname "$0")/.."
data_root=${LITEVISION_TEST_DATA:-$(cd .. && pwd)/shared}
model="$data_root/models/bird.tflite"
examples=${API_FUZZ_EXAMPLES:-300}
if [[ ! -f "$model" ]]; then
  echo "api-fuzz: no $model (set LITEVISION_TEST_DATA to the folder with models/)" >&2
  exit 2
fi
# pip puts the command in python3's scripts folder, which may not be on PATH.
schemathesis=$(command -v schemathesis || true)
if [[ -z "$schemathesis" ]]; then
  schemathesis="$(python3 -c 'import sysconfig; print(sysconfig.get_path("scripts"))')/schemathesis"
fi
if [[ ! -x "$schemathesis" ]]; then
  echo "api-fuzz: schemathesis is not installed (scripts/setup.sh --dev installs it)" >&2
  exit 2
fi

work=$(mktemp -d)
server_pid=
cleanup() {
  if [[ -n "$server_pid" ]]; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Built in scripts/test.sh's configuration (release, -enable-testing), so that after its build this is a
# no-op: other flags would recompile every module (minutes), and test.sh's next build all of them again.
# API_FUZZ_SKIP_BUILD=1 uses .build/release/litevision-registry as it is.
registry=.build/release/litevision-registry
if [[ "${API_FUZZ_SKIP_BUILD:-0}" != 1 ]]; then
  if ! swift build -c release --product litevision-registry -Xswiftc -enable-testing >"$work/build.log" 2>&1; then
    grep -vE '^\[[0-9]+/[0-9]+\]' "$work/build.log" >&2
    echo "api-fuzz: the build failed" >&2
    exit 1
  fi
fi
if [[ ! -x "$registry" ]]; then
  echo "api-fuzz: no $registry (build it, or leave API_FUZZ_SKIP_BUILD unset)" >&2
  exit 2
fi

# Loopback must never go through a proxy from the environment (curl and schemathesis would both use it).
export NO_PROXY=127.0.0.1,localhost no_proxy=127.0.0.1,localhost

"$registry" serve --data "$work/data" --port 0 >"$work/server.log" 2>&1 &
server_pid=$!
port=
for _ in $(seq 1 600); do
  port=$(sed -n 's|^litevision registry: serving .* at http://127\.0\.0\.1:\([0-9]*\)$|\1|p' "$work/server.log")
  [[ -n "$port" ]] && break
  if ! kill -0 "$server_pid" 2>/dev/null; then
    echo "api-fuzz: the registry exited before serving:" >&2
    cat "$work/server.log" >&2
    exit 1
  fi
  sleep 0.1
done
if [[ -z "$port" ]]; then
  echo "api-fuzz: the registry did not start within 60 s:" >&2
  cat "$work/server.log" >&2
  exit 1
fi
base="http://127.0.0.1:$port"
token=$("$registry" token create --data "$work/data" --role publish)

status=$(curl -sS -o "$work/published.json" -w '%{http_code}' -X POST -H "Authorization: Bearer $token" \
  --data-binary "@$model" "$base/v1/models/birds/versions")
if [[ "$status" != 201 ]]; then
  echo "api-fuzz: publishing $model answered $status: $(cat "$work/published.json")" >&2
  exit 1
fi

# Checks: everything schemathesis has, except two that do not fit this API:
#   positive_data_acceptance: a body the document allows (any bytes) is refused with 422 unless it is a real
#     .tflite model, which no generator makes; and a valid name of a model that does not exist is 404.
#   unsupported_method: Hummingbird answers a method a path does not have with 404, not 405.
# The stateful phase has nothing to run on: the document has no links, since a generated body is never published.
# Two passes, so that the published model is there for the whole first one: every operation but deleteVersion
# (promote and rollout keep it readable), then deleteVersion alone (which deletes version 1).
# Schemathesis warns that POST .../versions "mostly rejected generated data" (422): expected, see above.
# It runs in the temp folder, where it keeps its cache (.schemathesis/).
seed=${API_FUZZ_SEED:-$RANDOM$RANDOM}
echo "api-fuzz: schemathesis $("$schemathesis" --version | sed 's/.*version //') against $base/openapi.yaml," \
  "$examples examples per operation, seed $seed (API_FUZZ_SEED=$seed repeats this run)"
fuzz() {
  (cd "$work" && "$schemathesis" run "$base/openapi.yaml" \
    --header "Authorization: Bearer $token" \
    --checks all \
    --exclude-checks positive_data_acceptance,unsupported_method \
    --phases examples,coverage,fuzzing \
    --max-examples "$examples" \
    --seed "$seed" \
    --generation-database none \
    --request-timeout 30 \
    --workers 2 \
    --no-color \
    --output-truncate false \
    "$@")
}
failed=0
fuzz --exclude-operation-id deleteVersion || failed=1
fuzz --include-operation-id deleteVersion || failed=1
if ((failed)); then
  echo "api-fuzz: schemathesis found failures (above); the registry's log ends with:" >&2
  tail -n 30 "$work/server.log" >&2
  exit 1
fi
echo "api-fuzz: no failures"

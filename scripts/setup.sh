#!/usr/bin/env bash
# Installs everything LiteVision needs on a Debian machine with the Swift toolchain:
#   - Debian C libraries: libjpeg-turbo, libpng, zlib, stb_image's header (libstb-dev: `.mediapipe` preprocessing
#     decodes files with it, as MediaPipe does); FFmpeg (libavdevice for V4L2 cameras) and Cairo for video and
#     drawing (LiteVisionVideo, LiteVisionDrawing and the CLI only);
#     pkg-config to find them; libcurl (loaded at run time, to download models); SQLite (the model registry);
#     libmosquitto (the MQTT client library of LiteVisionMQTT, which `litevision-media` links for `track --mqtt`)
#   - the official LiteRT runtime, pinned: pip's ai-edge-litert==2.3.0 (it ships libLiteRt.so)
#   - for tests (--dev): Pillow, to compute reference outputs for new photos with ../shared/tools/reference.py;
#     MediaPipe Tasks 1.2.2, whose results the `.mediapipe` preprocessing must reproduce (MediaPipeParityTests);
#     pycocotools 2.0.11 and TrackEval 1.3.0 (PyPI's `trackeval`, which works with current numpy), the reference
#     tools `litevision eval` must equal (EvalCLITests);
#     schemathesis 4.32.5, to fuzz the registry's HTTP API against its OpenAPI document (scripts/api-fuzz.sh);
#     openssl, iproute2 and util-linux for the registry tests (certificates, network namespaces, tmpfs, runuser);
#     PostgreSQL 15 (Debian's postgresql), which the registry's replica tests start on loopback themselves, as the
#     user postgres, in a temporary folder (Debian's own cluster and service, if they start, are left alone);
#     nginx, run by the tests with deploy/nginx/nginx.conf on a free port; PyYAML (scripts/check-deploy.py);
#     the loopback streaming servers of the live video tests: GStreamer's RTSP server for Debian's python3
#     (gir1.2-gst-rtsp-server-1.0, python3-gi, GStreamer's base, good and bad plugins; scripts/rtsp-test-server.py);
#     the mosquitto broker and its command-line clients (mosquitto_sub, mosquitto_passwd) for the MQTT tests;
#     the tracking comparison (benchmarks/tracking_bench.py: its test and scripts/bench-tracking.sh): roboflow's
#     trackers 2.6.1 (the peers; numpy, scipy and supervision, no torch), TrackEval 1.3.0 (the scores; works with
#     numpy 2) and py-motmetrics 1.4.0 (whose package data has MOT15's TUD-Campus and TUD-Stadtmitte ground truth)
#   - for benchmarks (--bench): the test tools (MediaPipe Tasks is also the peer the benchmark compares with);
#     GNU time (CPU per frame in scripts/bench-streams.sh); wrk (load generator) and nginx (the static-file peer;
#     installed with --dev already) for scripts/bench-registry.sh, which runs nginx with its own config on a free
#     loopback port (Debian's nginx service, if it starts, is left alone)
# It is idempotent and quiet when everything is already there.
set -euo pipefail

LITERT_VERSION=2.3.0
MEDIAPIPE_VERSION=1.2.2
SCHEMATHESIS_VERSION=4.32.5
PYCOCOTOOLS_VERSION=2.0.11
TRACKERS_VERSION=2.6.1
TRACKEVAL_VERSION=1.3.0
MOTMETRICS_VERSION=1.4.0
dev=0 bench=0
[[ "${1:-}" == "--dev" ]] && dev=1
[[ "${1:-}" == "--bench" ]] && dev=1 bench=1

as_root() { if [[ $(id -u) -eq 0 ]]; then "$@"; else sudo "$@"; fi; }

apt_packages=(libturbojpeg0-dev libjpeg62-turbo-dev libpng-dev libstb-dev zlib1g-dev pkg-config libsqlite3-dev
              libavformat-dev libavdevice-dev libavcodec-dev libswscale-dev libavutil-dev libcairo2-dev libcurl4
              libmosquitto-dev)
# The tests make TLS certificates (openssl), network namespaces with a modem-named link (iproute2) and a
# small tmpfs for a full disk (mount, util-linux); the PostgreSQL tests run initdb and postgres as the user postgres
# (runuser, util-linux); nginx runs deploy/nginx/nginx.conf before two replicas; the ffmpeg command makes videos of
# every odd size the video tests decode.
if ((dev)); then apt_packages+=(openssl iproute2 util-linux postgresql nginx ffmpeg); fi
# The MQTT tests (Tests/LiteVisionMQTTTests) start Debian's mosquitto broker on loopback, subscribe with mosquitto_sub
# and make password files with mosquitto_passwd (mosquitto-clients).
if ((dev)); then apt_packages+=(mosquitto mosquitto-clients); fi
# The live video tests start real streaming servers on loopback (Tests/LiteVisionTestSupport): an RTSP camera is
# GStreamer's RTSP server run by Debian's /usr/bin/python3 through gi (qtdemux and rtph264pay are in the good
# plugins, h264parse in the bad ones); the HTTP (MJPEG, HLS) and UDP (MPEG-TS) servers use python3 and ffmpeg.
if ((dev)); then
  apt_packages+=(gir1.2-gst-rtsp-server-1.0 python3-gi gstreamer1.0-plugins-base gstreamer1.0-plugins-good
                 gstreamer1.0-plugins-bad)
fi
# The live view tests (`track --serve`) render the page in a real browser: Debian's headless chromium.
if ((dev)); then apt_packages+=(chromium); fi
if ((bench)); then apt_packages+=(wrk time); fi
need_apt=()
for pkg in "${apt_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || need_apt+=("$pkg")
done
if ((${#need_apt[@]})); then
  echo "setup: installing Debian packages: ${need_apt[*]}"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

pip_has() { local v; v=$(python3 -m pip show "$1" 2>/dev/null | sed -n "s/^Version: //p"); [[ "$v" == "$2" ]]; }
pip_install() { python3 -m pip install -q --disable-pip-version-check --root-user-action=ignore "$@"; }

if ! pip_has ai-edge-litert "$LITERT_VERSION"; then
  echo "setup: installing the LiteRT runtime (ai-edge-litert==$LITERT_VERSION)"
  pip_install "ai-edge-litert==$LITERT_VERSION"
fi
if ((dev)); then
  python3 -c "import PIL" 2>/dev/null || { echo "setup: installing Pillow"; pip_install pillow; }
  # scripts/check-deploy.py reads the Kubernetes manifests (DeployManifestTests).
  python3 -c "import yaml" 2>/dev/null || { echo "setup: installing PyYAML"; pip_install pyyaml; }
  if ! pip_has mediapipe "$MEDIAPIPE_VERSION"; then
    echo "setup: installing MediaPipe Tasks $MEDIAPIPE_VERSION (MediaPipeParityTests; the benchmark's peer)"
    pip_install "mediapipe==$MEDIAPIPE_VERSION"
  fi
  if ! pip_has pycocotools "$PYCOCOTOOLS_VERSION" || ! pip_has trackeval "$TRACKEVAL_VERSION"; then
    echo "setup: installing pycocotools $PYCOCOTOOLS_VERSION and TrackEval $TRACKEVAL_VERSION (EvalCLITests)"
    pip_install "pycocotools==$PYCOCOTOOLS_VERSION" "trackeval==$TRACKEVAL_VERSION"
  fi
  if ! pip_has schemathesis "$SCHEMATHESIS_VERSION"; then
    echo "setup: installing schemathesis $SCHEMATHESIS_VERSION (scripts/api-fuzz.sh)"
    pip_install "schemathesis==$SCHEMATHESIS_VERSION"
  fi
  if ! pip_has trackers "$TRACKERS_VERSION" || ! pip_has trackeval "$TRACKEVAL_VERSION" \
    || ! pip_has motmetrics "$MOTMETRICS_VERSION"; then
    echo "setup: installing trackers $TRACKERS_VERSION, TrackEval $TRACKEVAL_VERSION and py-motmetrics $MOTMETRICS_VERSION (tracking comparison)"
    pip_install "trackers==$TRACKERS_VERSION" "trackeval==$TRACKEVAL_VERSION" "motmetrics==$MOTMETRICS_VERSION"
  fi
fi
# Make libLiteRt.so findable by the dynamic loader, so programs start without asking python3 where it is.
lib_dir=$(python3 -c "import ai_edge_litert, os; print(os.path.dirname(ai_edge_litert.__file__))")
if [[ $(id -u) -eq 0 && "$(readlink -f /usr/local/lib/libLiteRt.so 2>/dev/null)" != "$lib_dir/libLiteRt.so" ]]; then
  ln -sf "$lib_dir/libLiteRt.so" /usr/local/lib/libLiteRt.so
  ldconfig
fi

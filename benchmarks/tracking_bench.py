"""The tracking quality benchmark: LiteVision's tracker next to roboflow's `trackers` 2.6.1 on the same detections,
all scored by TrackEval. scripts/bench-tracking.sh runs it and prints its one table; Tests/LiteVisionCLITests runs
its `compare` command on two simulated draws.

    python3 benchmarks/tracking_bench.py table --litevision .build/release/litevision [--seeds 1,2,3]
        [--level normal|heavy|Fn|Fh]
    python3 benchmarks/tracking_bench.py compare --litevision PATH --sequence sim-crossing --seed 1 [--scene-seed 0]
        [--level normal|heavy|U|P|Pp|Ppp|S|Q|V|W|Fn|Fh] [--frame-step K] [--variant ...]
    python3 benchmarks/tracking_bench.py write --sequence TUD-Campus --seed 1 --folder DIR   (gt.txt, det.txt)

Sequences: TUD-Campus, TUD-Stadtmitte and the simulated scenes by default; `--sequences` also takes the
moving-camera variants of the simulated scenes (tracking_scenes.MOVING_SEQUENCES, e.g. sim-crowd-pan).
`--frame-step K` plays every sequence at 1/K of its frame rate (every K-th frame, before the noise is drawn).

For each sequence (ground truth: tracking_scenes.py) and noise seed, detections are made with the noise model of
`tracking_scenes.noisy_detections` and written as a MOTChallenge detection file; then
- LiteVision: `litevision track --detections det.txt --frame-rate F --image-size WxH --mot out.txt --timing`, whose
  `--timing` line gives the time of the tracker's update loop alone (the file read and written outside it);
- each roboflow tracker (SORT, ByteTrack, OC-SORT, BoT-SORT with camera-motion compensation off), with its defaults
  and the sequence's frame rate, fed the same rows as `supervision.Detections` made beforehand, timing the loop of
  `update()` calls alone;
`--variant "filled=--interpolate 20" --interpolate-peers 20` adds LiteVision with each object's gaps of up to 20
frames filled offline (`track --interpolate`), and the peers with theirs filled the same way (`interpolated`).
A variant whose arguments hold `--reidentify` reads the same rows with an appearance vector after the tenth field
(`tracking_scenes.with_appearance`), from a second file; the others, and the peers, read the rows without one.
Every output is scored by TrackEval 1.3.0 (MotChallenge2DBox, benchmark MOT15: no distractor preprocessing)
for HOTA, IDF1, MOTA and ID switches.
"""

import argparse
import contextlib
import io
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tracking_generic  # noqa: E402
import tracking_scenes  # noqa: E402

PEERS = ("SORT", "ByteTrack", "OC-SORT", "BoT-SORT")
TIMING = re.compile(r"tracker: (\d+) frames in ([0-9.]+) ms")


def write_rows(path, rows):
    with open(path, "w") as f:
        f.write("".join(r + "\n" for r in rows))


def run_litevision(binary, det_path, seq, out_path, extra=()):
    """Runs `litevision track --detections`; returns its tracker-only frames per second."""
    command = [binary, "track", "--detections", det_path, "--frame-rate", f"{seq.frame_rate:g}",
               "--image-size", f"{seq.width}x{seq.height}", "--mot", out_path, "--timing", *extra]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed ({result.returncode}): {result.stderr}")
    match = TIMING.search(result.stderr)
    if not match:
        raise SystemExit(f"no timing line from litevision: {result.stderr}")
    frames, ms = int(match.group(1)), float(match.group(2))
    return frames / (ms / 1000) if ms > 0 else float("inf")


def make_peer(name, frame_rate):
    import trackers
    if name == "SORT":
        return trackers.SORTTracker(frame_rate=frame_rate)
    if name == "ByteTrack":
        return trackers.ByteTrackTracker(frame_rate=frame_rate)
    if name == "OC-SORT":
        return trackers.OCSORTTracker(frame_rate=frame_rate)
    if name == "BoT-SORT":
        return trackers.BoTSORTTracker(frame_rate=frame_rate, enable_cmc=False)
    raise ValueError(name)


def detections_per_frame(det_rows, frames):
    """`supervision.Detections` for frames 1...frames from detection rows."""
    import supervision as sv
    per = [[] for _ in range(frames)]
    for row in det_rows:
        p = row.split(",")
        per[int(p[0]) - 1].append([float(v) for v in p[2:7]])
    out = []
    for boxes in per:
        if boxes:
            a = np.array(boxes, dtype=np.float64)
            xyxy = np.stack([a[:, 0], a[:, 1], a[:, 0] + a[:, 2], a[:, 1] + a[:, 3]], axis=1)
            out.append(sv.Detections(xyxy=xyxy, confidence=a[:, 4].astype(np.float32),
                                     class_id=np.zeros(len(a), dtype=int)))
        else:
            out.append(sv.Detections.empty())
    return out


def run_peer(name, det_rows, seq):
    """Runs a roboflow tracker on the rows; returns its MOT rows and frames per second (the update loop alone)."""
    frames = detections_per_frame(det_rows, len(seq.frames))
    tracker = make_peer(name, seq.frame_rate)
    results = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        start = time.perf_counter()
        for detections in frames:
            results.append(tracker.update(detections))
        elapsed = time.perf_counter() - start
    rows = []
    for t, tracked in enumerate(results):
        if tracked.tracker_id is None:
            continue
        for box, tid, score in zip(tracked.xyxy, tracked.tracker_id, tracked.confidence
                                   if tracked.confidence is not None else np.ones(len(tracked))):
            if tid < 0:
                continue
            x0, y0, x1, y1 = (float(v) for v in box)
            rows.append(f"{t + 1},{int(tid)},{x0:.2f},{y0:.2f},{x1 - x0:.2f},{y1 - y0:.2f},{float(score):.4f},-1,-1,-1")
    return rows, len(frames) / elapsed


def score(jobs, folder):
    """TrackEval's HOTA, IDF1, MOTA and IDSW of each output. `jobs`: {sequence key: (Sequence, {tracker: rows})}."""
    import trackeval
    trackers_seen = sorted({t for _, outputs in jobs.values() for t in outputs})
    gt_folder, tr_folder = os.path.join(folder, "gt"), os.path.join(folder, "trackers")
    for key, (seq, outputs) in jobs.items():
        os.makedirs(os.path.join(gt_folder, key, "gt"), exist_ok=True)
        write_rows(os.path.join(gt_folder, key, "gt", "gt.txt"), seq.gt_rows())
        for tracker in trackers_seen:
            os.makedirs(os.path.join(tr_folder, tracker, "data"), exist_ok=True)
            write_rows(os.path.join(tr_folder, tracker, "data", key + ".txt"), outputs.get(tracker, []))
    eval_config = trackeval.Evaluator.get_default_eval_config()
    eval_config.update(PRINT_RESULTS=False, PRINT_CONFIG=False, TIME_PROGRESS=False, OUTPUT_SUMMARY=False,
                       OUTPUT_DETAILED=False, PLOT_CURVES=False, LOG_ON_ERROR=None, DISPLAY_LESS_PROGRESS=True)
    data_config = trackeval.datasets.MotChallenge2DBox.get_default_dataset_config()
    data_config.update(GT_FOLDER=gt_folder, TRACKERS_FOLDER=tr_folder, BENCHMARK="MOT15", SKIP_SPLIT_FOL=True,
                       SEQ_INFO={key: len(seq.frames) for key, (seq, _) in jobs.items()},
                       TRACKERS_TO_EVAL=trackers_seen, PRINT_CONFIG=False)
    metrics = [trackeval.metrics.HOTA(), trackeval.metrics.CLEAR({"PRINT_CONFIG": False}),
               trackeval.metrics.Identity({"PRINT_CONFIG": False})]
    with contextlib.redirect_stdout(io.StringIO()):
        results, _ = trackeval.Evaluator(eval_config).evaluate(
            [trackeval.datasets.MotChallenge2DBox(data_config)], metrics)
    out = {}
    for tracker, per_seq in results["MotChallenge2DBox"].items():
        for key, classes in per_seq.items():
            if key == "COMBINED_SEQ":
                continue
            r = classes["pedestrian"]
            out[(key, tracker)] = {
                "HOTA": float(np.mean(r["HOTA"]["HOTA"])) * 100, "IDF1": float(r["Identity"]["IDF1"]) * 100,
                "MOTA": float(r["CLEAR"]["MOTA"]) * 100, "IDSW": int(r["CLEAR"]["IDSW"]),
                "DetA": float(np.mean(r["HOTA"]["DetA"])) * 100, "AssA": float(np.mean(r["HOTA"]["AssA"])) * 100,
                "DetRe": float(np.mean(r["HOTA"]["DetRe"])) * 100, "DetPr": float(np.mean(r["HOTA"]["DetPr"])) * 100}
    return out


def interpolated(rows, max_gap):
    """MOT rows with each ID's gaps of 1 to `max_gap` frames filled on the line between the boxes on either side,
    with the earlier box's score, as `litevision track --detections --interpolate` fills LiteVision's own
    (`ObjectTracker.interpolatingGaps`): for the peers' rows, so that they can be compared with it on equal terms."""
    reports = {}
    for row in rows:
        p = row.split(",")
        reports.setdefault(int(float(p[1])), []).append((int(p[0]), [float(v) for v in p[2:6]], p[6]))
    out = list(rows)
    for tid, seen in reports.items():
        seen.sort(key=lambda r: r[0])
        for (first, a, score), (last, b, _) in zip(seen, seen[1:]):
            if 2 <= last - first <= max_gap + 1:
                for frame in range(first + 1, last):
                    share = (frame - first) / (last - first)
                    x, y, w, h = (a[i] + (b[i] - a[i]) * share for i in range(4))
                    out.append(f"{frame},{tid},{x:.2f},{y:.2f},{w:.2f},{h:.2f},{score},-1,-1,-1")
    return out


def interpolate_gap(extra):
    """The N of `--interpolate N` (or `--interpolate=N`) in a variant's arguments, or None."""
    for i, argument in enumerate(extra):
        if argument == "--interpolate" and i + 1 < len(extra) and extra[i + 1].isdigit():
            return int(extra[i + 1])
        if argument.startswith("--interpolate=") and argument.partition("=")[2].isdigit():
            return int(argument.partition("=")[2])
    return None


def evaluate(litevision, cases, level, variants, folder, frame_step=1, scene_seed=0, interpolate_peers=None):
    """Runs every tracker on every case `(sequence name, seed)` (simulated scenes made with `scene_seed`), and with
    `interpolate_peers` also scores each peer's rows interpolated (`interpolated`) as `PEER+iN`; returns
    {(case key, tracker): metrics + fps}."""
    jobs, fps = {}, {}
    for name, seed in cases:
        seq = tracking_scenes.every_nth_frame(tracking_scenes.load(name, scene_seed), frame_step)
        key = f"{name}-s{seed}"
        # The other noise models make no appearance vectors.
        sources = [] if level in tracking_scenes.NOISE_LEVELS else None
        det_rows = tracking_scenes.noisy_detections(seq, seed, level, sources)
        det_path = os.path.join(folder, key + ".det.txt")
        write_rows(det_path, det_rows)
        appearance_path = os.path.join(folder, key + ".det-appearance.txt")
        if any("--reidentify" in extra for _, extra in variants):
            if sources is None:
                raise SystemExit(f"noise model {level}: no appearance vectors for --reidentify (normal or heavy)")
            write_rows(appearance_path, tracking_scenes.with_appearance(seq, seed, det_rows, sources))
        outputs = {}
        for label, extra in variants:
            out_path = os.path.join(folder, f"{key}.{label}.txt")
            path = appearance_path if "--reidentify" in extra else det_path
            fps[(key, label)] = run_litevision(litevision, path, seq, out_path, extra)
            outputs[label] = open(out_path).read().splitlines()
        for peer in PEERS:
            outputs[peer], fps[(key, peer)] = run_peer(peer, det_rows, seq)
            if interpolate_peers:
                label = f"{peer}+i{interpolate_peers}"
                outputs[label], fps[(key, label)] = interpolated(outputs[peer], interpolate_peers), fps[(key, peer)]
        jobs[key] = (seq, outputs)
    scores = score(jobs, os.path.join(folder, "eval"))
    for k in scores:
        scores[k]["fps"] = fps[k]
    return scores


def best_of_peers(peer_scores):
    """`{peer: metrics}` of one draw → (the best HOTA, the best IDF1, the peer with the best HOTA): the bar each goal
    of issue 28 sets on that draw."""
    return (max(r["HOTA"] for r in peer_scores.values()), max(r["IDF1"] for r in peer_scores.values()),
            max(peer_scores, key=lambda p: peer_scores[p]["HOTA"]))


def parse_variants(texts):
    """`--variant LABEL=ARGS` (extra `track` arguments, space-separated); LiteVision's defaults always come first."""
    variants = [("LiteVision", [])]
    for text in texts or []:
        label, _, args = text.partition("=")
        variants.append((label, args.split()))
    return variants


def table(args):
    names = args.sequences.split(",") if args.sequences else list(tracking_scenes.TUD_SEQUENCES + tracking_scenes.SIM_SEQUENCES)
    seeds = [int(s) for s in args.seeds.split(",")]
    variants = parse_variants(args.variant)
    with tempfile.TemporaryDirectory(prefix="litevision-tracking-bench-") as folder:
        scores = evaluate(args.litevision, [(n, s) for n in names for s in seeds], args.level, variants, folder,
                          args.frame_step, interpolate_peers=args.interpolate_peers)
    ours = variants[0][0]
    filled_peers = [f"{p}+i{args.interpolate_peers}" for p in PEERS] if args.interpolate_peers else []
    trackers = [label for label, _ in variants] + list(PEERS) + filled_peers
    played = f", 1/{args.frame_step} of the frame rate" if args.frame_step > 1 else ""
    print(f"| sequence (noise seed, {args.level} noise{played}) | tracker | HOTA | IDF1 | MOTA | IDSW | "
          "fps (tracker only) |")
    print("|---|---|---:|---:|---:|---:|---:|")
    verdicts = []
    for name in names:
        for seed in seeds:
            key = f"{name}-s{seed}"
            for tracker in trackers:
                r = scores[(key, tracker)]
                print(f"| {name} ({seed}) | {tracker} | {r['HOTA']:.1f} | {r['IDF1']:.1f} | {r['MOTA']:.1f} | "
                      f"{r['IDSW']} | {r['fps']:,.0f} |")
            best_hota, best_idf1, best_peer = best_of_peers({p: scores[(key, p)] for p in PEERS})
            fewest_idsw = min(scores[(key, p)]["IDSW"] for p in PEERS)
            fastest = max(scores[(key, p)]["fps"] for p in PEERS)
            o = scores[(key, ours)]
            verdicts.append((key, o["HOTA"] >= best_hota, o["IDF1"] >= best_idf1,
                             f"{o['IDSW']} vs {scores[(key, best_peer)]['IDSW']} ({best_peer}); fewest {fewest_idsw}",
                             o["IDSW"] < scores[(key, best_peer)]["IDSW"], o["fps"] >= 20 * fastest,
                             o["HOTA"] - best_hota, o["IDF1"] - best_idf1, o["fps"] / fastest))
    print()
    print("| sequence | HOTA ≥ best peer | IDF1 ≥ best peer | IDSW < best peer's (by HOTA) | fps ≥ 20× fastest peer |")
    print("|---|---|---|---|---|")
    yes = lambda b, d=None: ("yes" if b else "**no**") + (f" ({d:+.1f})" if d is not None else "")
    for key, h, i, text, s, f, dh, di, ratio in verdicts:
        print(f"| {key} | {yes(h, dh)} | {yes(i, di)} | {yes(s)}: {text} | {yes(f)} ({ratio:,.0f}×) |")
    if len(verdicts) > 1:
        n = len(verdicts)
        both = sum(h and i for _, h, i, *_ in verdicts)
        mean_h = sum(v[6] for v in verdicts) / n
        mean_i = sum(v[7] for v in verdicts) / n
        ours_sw = sum(scores[(v[0], ours)]["IDSW"] for v in verdicts)
        best_sw = sum(scores[(v[0], max(PEERS, key=lambda p: scores[(v[0], p)]["HOTA"]))]["IDSW"] for v in verdicts)
        print()
        print(f"Over the {n} sequences x draws: HOTA ≥ best peer in {sum(v[1] for v in verdicts)}, IDF1 ≥ best peer in "
              f"{sum(v[2] for v in verdicts)}, both in {both}; mean HOTA − best peer {mean_h:+.1f}, mean IDF1 − best "
              f"peer {mean_i:+.1f}; ID switches {ours_sw} (the best peer's by HOTA: {best_sw}).")
    for label, extra in variants:
        if filled_peers and interpolate_gap(extra) == args.interpolate_peers:
            keys = [f"{name}-s{seed}" for name in names for seed in seeds]
            wins = [(scores[(k, label)]["HOTA"] >= max(scores[(k, p)]["HOTA"] for p in filled_peers),
                     scores[(k, label)]["IDF1"] >= max(scores[(k, p)]["IDF1"] for p in filled_peers)) for k in keys]
            print(f"{label} next to the peers interpolated the same way ({', '.join(filled_peers)}): HOTA ≥ the best "
                  f"in {sum(h for h, _ in wins)} of {len(keys)}, IDF1 ≥ the best in {sum(i for _, i in wins)}, both in "
                  f"{sum(h and i for h, i in wins)}.")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({f"{k[0]}|{k[1]}": v for k, v in scores.items()}, f, indent=1)


def compare(args):
    """One case, as JSON: {tracker: {HOTA, IDF1, MOTA, IDSW, fps}} (the test asserts on it)."""
    with tempfile.TemporaryDirectory(prefix="litevision-tracking-compare-") as folder:
        scores = evaluate(args.litevision, [(args.sequence, args.seed)], args.level, parse_variants(args.variant),
                          folder, args.frame_step, args.scene_seed)
    print(json.dumps({tracker: v for (_, tracker), v in scores.items()}, sort_keys=True))


def write(args):
    seq = tracking_scenes.every_nth_frame(tracking_scenes.load(args.sequence), args.frame_step)
    os.makedirs(args.folder, exist_ok=True)
    write_rows(os.path.join(args.folder, "gt.txt"), seq.gt_rows())
    sources = []
    rows = tracking_scenes.noisy_detections(seq, args.seed, args.level, sources)
    write_rows(os.path.join(args.folder, "det.txt"), rows)
    if args.appearance:
        write_rows(os.path.join(args.folder, "det-appearance.txt"),
                   tracking_scenes.with_appearance(seq, args.seed, rows, sources))
    print(json.dumps({"frames": len(seq.frames), "width": seq.width, "height": seq.height,
                      "frameRate": seq.frame_rate}))


def gap_frames(text):
    """`--interpolate-peers`: a whole number 1...1000, as `track --interpolate` takes."""
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= 1000:
        raise argparse.ArgumentTypeError(f"a whole number of frames from 1 to 1000, got {text!r}")
    return int(text)


def frame_step(text):
    """`--frame-step`: a whole number 1...100."""
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= 100:
        raise argparse.ArgumentTypeError(f"a whole number of frames from 1 to 100, got {text!r}")
    return int(text)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    t = sub.add_parser("table")
    t.add_argument("--litevision", required=True)
    t.add_argument("--sequences")
    t.add_argument("--seeds", default="1")
    t.add_argument("--level", default="normal",
                   choices=sorted(tracking_scenes.NOISE_LEVELS) + sorted(tracking_scenes.CONFIDENT_FALSE_MODELS),
                   help="normal or heavy, or Fn or Fh: those with false boxes scored as surely as real ones")
    t.add_argument("--variant", action="append", help="LABEL=EXTRA TRACK ARGUMENTS: another LiteVision row")
    t.add_argument("--json", help="also write every number to this file")
    t.add_argument("--interpolate-peers", type=gap_frames, metavar="N",
                   help="also score each peer with its gaps of up to N frames filled as --interpolate N fills "
                   "LiteVision's (rows PEER+iN; a variant with --interpolate is then compared with them)")
    c = sub.add_parser("compare")
    c.add_argument("--litevision", required=True)
    c.add_argument("--sequence", required=True)
    c.add_argument("--seed", type=int, default=1)
    c.add_argument("--scene-seed", type=int, default=0,
                   help="another simulated scene of the sequence (0: the one by default; TUD sequences have one)")
    c.add_argument("--level", default="normal",
                   choices=sorted(tracking_scenes.NOISE_LEVELS) + sorted(tracking_scenes.OTHER_NOISE_MODELS)
                   + sorted(tracking_scenes.UNSEEN_NOISE_MODELS) + sorted(tracking_scenes.CONFIDENT_FALSE_MODELS)
                   + sorted(tracking_generic.GENERIC_NOISE_MODELS),
                   help="normal or heavy, or one of the other noise models (tracking_scenes.OTHER_NOISE_MODELS, "
                   "UNSEEN_NOISE_MODELS, CONFIDENT_FALSE_MODELS; tracking_generic.GENERIC_NOISE_MODELS for the gen-* "
                   "scenes)")
    c.add_argument("--variant", action="append", help="LABEL=EXTRA TRACK ARGUMENTS: another LiteVision entry")
    w = sub.add_parser("write")
    w.add_argument("--sequence", required=True)
    w.add_argument("--seed", type=int, default=1)
    w.add_argument("--level", default="normal",
                   choices=sorted(tracking_scenes.NOISE_LEVELS) + sorted(tracking_scenes.CONFIDENT_FALSE_MODELS))
    w.add_argument("--folder", required=True)
    w.add_argument("--appearance", action="store_true", help="also det-appearance.txt, rows with appearance vectors")
    for sub_parser in (t, c, w):
        sub_parser.add_argument("--frame-step", type=frame_step, default=1,
                                help="play the sequences at 1/K of their frame rate (every K-th frame)")
    args = parser.parse_args()
    {"table": table, "compare": compare, "write": write}[args.command](args)


if __name__ == "__main__":
    main()

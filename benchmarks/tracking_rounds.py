"""The draw sets of docs/tracking-quality.md's rounds: LiteVision's tracker against the best of roboflow's four
trackers on each draw, summed per set, as the rounds' tables give them.

    python3 benchmarks/tracking_rounds.py --litevision .build/release/litevision --sets K,L [--label NAME]
        [--cache DIR] [--jobs N] [--extra="TRACK ARGUMENTS"] [--interpolate-peers N]

A draw is a sequence, a scene seed (the simulated scenes only), a noise seed and a noise level
(tracking_scenes.noisy_detections); the sets are those the rounds name (`SETS` below): `chosen` (the first round's 50
draws), `aside` (the second round's 42), `fourth` (the fourth round's 84), `A` to `L` (42 each, made two at a time: A
and B in the seventh round, C and D in the eighth, E and F in the ninth, G to L in the thirteenth to fifteenth), and
`step2`, `step3`, `step5` (the five sequences played at 1/2, 1/3 and 1/5 of their frame rate, noise seeds 1-4, both
levels: the fifteenth round's), and `other`, `other-low` (156 and 60 draws of the six other noise models of
tracking_scenes.OTHER_NOISE_MODELS, at the own and at half the frame rate: the twenty-seventh round's), and `unseen`,
`unseen-low` (52 and 20 draws of the two models of tracking_scenes.UNSEEN_NOISE_MODELS, made after the thirty-first
round as a check on detectors no rule was tuned on), and `confident-false`, `confident-false-low` (40 and 20 draws of
tracking_scenes.CONFIDENT_FALSE_MODELS, false boxes scored as surely as real ones, at the own and a third of the frame
rate: the thirty-fourth round's), and `generic` (70 draws of tracking_generic.py's scenes and noise: walkers, cars and
bouncing boxes, made with code of their own: the thirty-seventh round's), `dense` (20 draws of the same walkers, three
times as many: made after the fortieth round), `precise` (35 draws of the generic scenes under a detector with a fifth
of the generic jitter: the forty-first round's), `midway` (the same with half of it: the forty-third round's) and
`clutter` (`midway`'s detector with stretches of background boxed in most frames, as a class-agnostic localizer
does, its own noise draws: the forty-fourth round's).
Groups of sets are summed too when all their sets are named: `older` (chosen, aside, fourth, A to D: 344 draws), `EF`,
`GH`, `IJ`, `KL`.

For each draw the detections and the four peers' outputs and scores are made once and kept in the cache folder
(default .build/tracking-rounds: about 1 s per draw and peer the first time); LiteVision runs every time, with
`--extra` added to its `track --detections` arguments. Printed per set: the draws where LiteVision's HOTA and IDF1
are both at least the best peer's, the mean differences to the best peer (HOTA, IDF1: each the best of the four on
that draw), and LiteVision's ID switches (the best peer's by HOTA in parentheses). `--label` names LiteVision's
outputs in the cache, and a JSON file of every draw's numbers beside them (lv-LABEL.json). Nothing in the cache
records the noise model or the peers' version: delete it after changing either. `--interpolate-peers N` compares with
the peers' outputs with their gaps of up to N frames filled (`tracking_bench.interpolated`, as `--extra="--interpolate
N"` fills LiteVision's): docs/tracking-quality.md's "Filling gaps offline".
"""

import argparse
import json
import os
import sys
import tempfile
from multiprocessing import Pool

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tracking_bench  # noqa: E402
import tracking_generic  # noqa: E402
import tracking_scenes  # noqa: E402

FIVE = tracking_scenes.TUD_SEQUENCES + tracking_scenes.SIM_SEQUENCES
LEVELS = ("normal", "heavy")


def block(noise_seeds, scene_seeds, scene_noise):
    """The five sequences × `noise_seeds` × both levels, plus the simulated scenes made again with `scene_seeds` ×
    noise seed `scene_noise` × both levels: the shape of the sets A to L (42 draws)."""
    draws = [(n, 0, s, level, 1) for n in FIVE for s in noise_seeds for level in LEVELS]
    draws += [(n, c, scene_noise, level, 1) for n in tracking_scenes.SIM_SEQUENCES for c in scene_seeds
              for level in LEVELS]
    return draws


# name: draws (sequence, scene seed, noise seed, noise level, frame step)
SETS = {
    "chosen": [(n, 0, s, level, 1) for n in FIVE for s in range(1, 6) for level in LEVELS],
    "aside": [(n, 0, s, level, 1) for n in FIVE for s in (6, 7, 8) for level in LEVELS]
    + [(n, c, 11, level, 1) for n in tracking_scenes.SIM_SEQUENCES for c in (1, 2) for level in LEVELS],
    "fourth": [(n, 0, s, level, 1) for n in FIVE for s in range(21, 27) for level in LEVELS]
    + [(n, c, 12, level, 1) for n in tracking_scenes.SIM_SEQUENCES for c in (3, 4, 5, 6) for level in LEVELS],
    "A": block((31, 32, 33), (7, 8), 13), "B": block((41, 42, 43), (9, 10), 14),
    "C": block((51, 52, 53), (11, 12), 15), "D": block((61, 62, 63), (13, 14), 16),
    "E": block((71, 72, 73), (15, 16), 17), "F": block((81, 82, 83), (17, 18), 18),
    "G": block((91, 92, 93), (19, 20), 19), "H": block((101, 102, 103), (21, 22), 20),
    "I": block((111, 112, 113), (23, 24), 21), "J": block((121, 122, 123), (25, 26), 22),
    "K": block((131, 132, 133), (27, 28), 23), "L": block((141, 142, 143), (29, 30), 24),
}
for _step in (2, 3, 5):
    SETS[f"step{_step}"] = [(n, 0, s, level, _step) for n in FIVE for s in (1, 2, 3, 4) for level in LEVELS]
# The other noise models (tracking_scenes.OTHER_NOISE_MODELS): per model the five sequences × noise seeds 1-4 and the
# simulated scenes made again with scene seeds 1 and 2 × noise seed 5 (26 draws), and at half the frame rate the five
# sequences × noise seeds 1 and 2 (10 draws).
SETS["other"] = [(n, 0, s, m, 1) for m in tracking_scenes.OTHER_NOISE_MODELS for n in FIVE for s in (1, 2, 3, 4)]
SETS["other"] += [(n, c, 5, m, 1) for m in tracking_scenes.OTHER_NOISE_MODELS for n in tracking_scenes.SIM_SEQUENCES
                  for c in (1, 2)]
SETS["other-low"] = [(n, 0, s, m, 2) for m in tracking_scenes.OTHER_NOISE_MODELS for n in FIVE for s in (1, 2)]
# The two models made after the thirty-first round (tracking_scenes.UNSEEN_NOISE_MODELS), as a check on detectors no
# rule was tuned on: the same shapes as `other` and `other-low` (52 and 20 draws).
SETS["unseen"] = [(n, 0, s, m, 1) for m in tracking_scenes.UNSEEN_NOISE_MODELS for n in FIVE for s in (1, 2, 3, 4)]
SETS["unseen"] += [(n, c, 5, m, 1) for m in tracking_scenes.UNSEEN_NOISE_MODELS
                   for n in tracking_scenes.SIM_SEQUENCES for c in (1, 2)]
SETS["unseen-low"] = [(n, 0, s, m, 2) for m in tracking_scenes.UNSEEN_NOISE_MODELS for n in FIVE for s in (1, 2)]
# False boxes scored as surely as the real ones (tracking_scenes.CONFIDENT_FALSE_MODELS, the thirty-fourth round's).
SETS["confident-false"] = [(n, 0, s, m, 1) for m in tracking_scenes.CONFIDENT_FALSE_MODELS for n in FIVE
                           for s in (1, 2, 3, 4)]
SETS["confident-false-low"] = [(n, 0, s, m, 3) for m in tracking_scenes.CONFIDENT_FALSE_MODELS for n in FIVE
                               for s in (1, 2)]
# The generic scenes and noise model of tracking_generic.py (made after the thirty-sixth round, unlike the benchmark's
# pedestrians): each scene made with seeds 1-5, its noise drawn with the same seed, at both levels (70 draws).
SETS["generic"] = [(n, s, s, m, 1) for n in tracking_generic.GENERIC_SEQUENCES for s in range(1, 6)
                   for m in tracking_generic.GENERIC_LEVELS]
# Three times as many walkers (tracking_generic.DENSE_SEQUENCES), seeds 1-5 as for `generic` (20 draws).
SETS["dense"] = [(n, s, s, m, 1) for n in tracking_generic.DENSE_SEQUENCES for s in range(1, 6)
                 for m in tracking_generic.GENERIC_LEVELS]
# The generic scenes under a precise detector (tracking_generic's "Gp": a fifth of the jitter), seeds 1-5 (35 draws).
SETS["precise"] = [(n, s, s, "Gp", 1) for n in tracking_generic.GENERIC_SEQUENCES for s in range(1, 6)]
# The same under a detector halfway between (tracking_generic's "Gm": half the jitter), seeds 1-5 (35 draws).
SETS["midway"] = [(n, s, s, "Gm", 1) for n in tracking_generic.GENERIC_SEQUENCES for s in range(1, 6)]
# The same detector with stretches of background boxed in most frames, its own noise draws (tracking_generic's
# "Gc": the forty-fourth round's).
SETS["clutter"] = [(n, s, s, "Gc", 1) for n in tracking_generic.GENERIC_SEQUENCES for s in range(1, 6)]
GROUPS = {"older": ("chosen", "aside", "fourth", "A", "B", "C", "D"), "EF": ("E", "F"), "GH": ("G", "H"),
          "IJ": ("I", "J"), "KL": ("K", "L")}


def key(draw):
    name, scene, noise, level, step = draw
    named = (level in tracking_scenes.OTHER_NOISE_MODELS or level in tracking_scenes.UNSEEN_NOISE_MODELS
             or level in tracking_scenes.CONFIDENT_FALSE_MODELS or level in tracking_generic.GENERIC_NOISE_MODELS)
    model = level if named else level[0]
    return f"{name}{'@' + str(step) if step > 1 else ''}-c{scene}-s{noise}-{model}"


def sequence(draw):
    name, scene, _, _, step = draw
    return tracking_scenes.every_nth_frame(tracking_scenes.load(name, scene), step)


def write_atomically(path, text):
    """Writes `text` to `path` through a temporary file of its own in the same folder: a run stopped halfway, or
    another run writing the same file, never leaves a partial one."""
    handle, temporary = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".tmp-")
    try:
        with os.fdopen(handle, "w") as f:
            f.write(text)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def rows_text(rows):
    return "".join(r + "\n" for r in rows)


def prepare(job):
    """Writes a draw's detections and the four peers' outputs into the cache, unless they are there."""
    draw, cache = job
    folder = os.path.join(cache, key(draw))
    os.makedirs(folder, exist_ok=True)
    seq = sequence(draw)
    det = os.path.join(folder, "det.txt")
    if not os.path.exists(det):
        write_atomically(det, rows_text(tracking_scenes.noisy_detections(seq, draw[2], draw[3])))
    rows = None
    for peer in tracking_bench.PEERS:
        out = os.path.join(folder, peer + ".txt")
        if not os.path.exists(out):
            rows = rows or open(det).read().splitlines()
            write_atomically(out, rows_text(tracking_bench.run_peer(peer, rows, seq)[0]))


def fill_peers(job):
    """Writes the four peers' outputs of a draw with their gaps filled (`PEER+iN.txt`), unless they are there."""
    draw, cache, gap = job
    folder = os.path.join(cache, key(draw))
    for peer in tracking_bench.PEERS:
        out = os.path.join(folder, f"{peer}+i{gap}.txt")
        if not os.path.exists(out):
            rows = open(os.path.join(folder, peer + ".txt")).read().splitlines()
            write_atomically(out, rows_text(tracking_bench.interpolated(rows, gap)))


def run_litevision(job):
    draw, cache, binary, label, extra = job
    folder = os.path.join(cache, key(draw))
    try:
        tracking_bench.run_litevision(binary, os.path.join(folder, "det.txt"), sequence(draw),
                                      os.path.join(folder, f"lv-{label}.txt"), extra)
    except SystemExit as failure:  # a pool's worker loses a SystemExit: its map would wait forever
        raise RuntimeError(f"{key(draw)}: {failure}") from None


def score(job):
    """TrackEval's scores of the named outputs (peers by name, LiteVision as lv-LABEL) of some draws."""
    draws, cache, names = job
    outputs = {}
    for draw in draws:
        folder = os.path.join(cache, key(draw))
        outputs[key(draw)] = (sequence(draw), {n: open(os.path.join(folder, n + ".txt")).read().splitlines()
                                               for n in names})
    with tempfile.TemporaryDirectory(prefix="litevision-tracking-rounds-") as folder:
        return {f"{k}|{t}": v for (k, t), v in tracking_bench.score(outputs, folder).items()}


def scored(pool, draws, cache, names, jobs):
    parts = pool.map(score, [(draws[i::jobs], cache, names) for i in range(jobs) if draws[i::jobs]])
    return {k: v for part in parts for k, v in part.items()}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--litevision", required=True)
    parser.add_argument("--sets", required=True, help="comma-separated: " + ", ".join(SETS))
    parser.add_argument("--label", default="LiteVision", help="a name for this run's outputs in the cache")
    parser.add_argument("--cache", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".build",
                                                        "tracking-rounds"))
    parser.add_argument("--jobs", type=int, default=min(os.cpu_count() or 1, 64))
    parser.add_argument("--extra", default="", help="more `litevision track` arguments, space-separated")
    parser.add_argument("--interpolate-peers", type=int, metavar="N",
                        help="compare with the peers' outputs with gaps of up to N frames filled (1 to 1000)")
    args = parser.parse_args()
    names = args.sets.split(",")
    unknown = [n for n in names if n not in SETS]
    if unknown:
        raise SystemExit(f"unknown set {', '.join(unknown)}: {', '.join(SETS)}")
    if not args.label.replace("-", "").replace("_", "").isalnum():
        raise SystemExit(f"--label takes letters, digits, - and _, got {args.label!r}")
    if args.interpolate_peers is not None and not 1 <= args.interpolate_peers <= 1000:
        raise SystemExit(f"--interpolate-peers takes 1 to 1000 frames, got {args.interpolate_peers}")
    if not 1 <= args.jobs <= 64:
        raise SystemExit(f"--jobs takes 1 to 64, got {args.jobs}")
    if not os.access(args.litevision, os.X_OK):
        raise SystemExit(f"--litevision {args.litevision}: not an executable file (swift build -c release --product "
                         "litevision)")
    draws = list(dict.fromkeys(d for n in names for d in SETS[n]))
    cache = os.path.abspath(args.cache)
    peer_file = os.path.join(cache, "peer-scores.json")
    with Pool(args.jobs) as pool:
        pool.map(prepare, [(d, cache) for d in draws])
        peers = json.load(open(peer_file)) if os.path.exists(peer_file) else {}
        peer_names = list(tracking_bench.PEERS)
        if args.interpolate_peers:
            pool.map(fill_peers, [(d, cache, args.interpolate_peers) for d in draws])
            peer_names = [f"{p}+i{args.interpolate_peers}" for p in tracking_bench.PEERS]
        missing = [d for d in draws if f"{key(d)}|{peer_names[0]}" not in peers]
        if missing:
            peers.update(scored(pool, missing, cache, peer_names, args.jobs))
            write_atomically(peer_file, json.dumps(peers))
        pool.map(run_litevision, [(d, cache, args.litevision, args.label, args.extra.split()) for d in draws])
        ours = scored(pool, draws, cache, ["lv-" + args.label], args.jobs)
    results = {}
    for d in draws:
        k = key(d)
        r = ours[f"{k}|lv-{args.label}"]
        theirs = {p: peers[f"{k}|{p}"] for p in peer_names}
        best_hota, best_idf1, best_peer = tracking_bench.best_of_peers(theirs)
        results[k] = dict(r, dHOTA=r["HOTA"] - best_hota, dIDF1=r["IDF1"] - best_idf1,
                          both=r["HOTA"] >= best_hota and r["IDF1"] >= best_idf1,
                          bestPeerIDSW=theirs[best_peer]["IDSW"])
    write_atomically(os.path.join(cache, f"lv-{args.label}.json"), json.dumps(results, indent=0))

    print("| set | draws | both ≥ best peer | mean HOTA − best | mean IDF1 − best | ID switches (best peers') |")
    print("|---|---:|---:|---:|---:|---:|")

    def line(name, keys):
        n = len(keys)
        mean = lambda field: sum(results[k][field] for k in keys) / n  # noqa: E731
        total = lambda field: sum(results[k][field] for k in keys)  # noqa: E731
        print(f"| {name} | {n} | {total('both')} | {mean('dHOTA'):+.2f} | {mean('dIDF1'):+.2f} | {total('IDSW')} "
              f"({total('bestPeerIDSW')}) |")

    for n in names:
        line(n, [key(d) for d in SETS[n]])
    for group, members in GROUPS.items():
        if all(m in names for m in members):
            line(group, list(dict.fromkeys(key(d) for m in members for d in SETS[m])))
    if len(names) > 1:
        line("all", [key(d) for d in draws])


if __name__ == "__main__":
    main()

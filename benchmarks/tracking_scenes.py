"""Ground truth and detector-like input for the tracking benchmark (scripts/bench-tracking.sh) and its test.

Two kinds of sequences, each a list of frames of ground-truth boxes `(id, x, y, w, h)` in pixels:

- MOT15's TUD-Campus and TUD-Stadtmitte: the real ground truth that py-motmetrics ships in its package data
  (640x480, 25 fps). Nothing of it is copied into the repository: it is read from the installed package.
- Simulated pedestrian scenes (`sim-*`), seeded: people walking on a ground plane seen by a fixed camera, whose
  boxes grow as they come nearer; they enter and leave through the image borders, cross and occlude one another by
  depth (the nearer one hides the farther one), stop, and turn. `sim-return` is the scene of re-identification:
  people who walk out of the view and come back, through either border, several times.
- The same simulated scenes seen by a moving camera (`sim-*-pan`, `-shake`, `-zoom`): a seeded global zoom and
  shift per frame applied to the people's whole boxes before they are clipped and hidden (see `camera_path`).

Then `noisy_detections` turns ground truth into what a detector would give, with the noise model documented there,
and `with_appearance` adds each detection an appearance vector (for the tracker's re-identification), with the noise
model documented there. Everything is deterministic for a given seed.
"""

import math
import os

import numpy as np

TUD_SEQUENCES = ("TUD-Campus", "TUD-Stadtmitte")
SIM_SEQUENCES = ("sim-crossing", "sim-crowd", "sim-stop-turn")
REID_SEQUENCES = ("sim-return",)  # re-identification's scene: in the table when named (--sequences)
TEST_SEQUENCES = ("sim-short",)  # the test's small scene, not in the benchmark's table


class Sequence:
    """A sequence's ground truth: `frames[t]` (t from 0) is a list of `(id, x, y, w, h, depth)`; a larger depth is
    farther from the camera."""

    def __init__(self, name, width, height, frame_rate, frames):
        self.name, self.width, self.height, self.frame_rate, self.frames = name, width, height, frame_rate, frames

    def gt_rows(self):
        """MOTChallenge ground-truth rows `frame,id,x,y,w,h,1,-1,-1,-1` (frames from 1)."""
        rows = []
        for t, boxes in enumerate(self.frames):
            for (i, x, y, w, h, _) in boxes:
                rows.append(f"{t + 1},{i},{x:.2f},{y:.2f},{w:.2f},{h:.2f},1,-1,-1,-1")
        return rows


def load(name, scene_seed=0):
    """The sequence `name` (a TUD sequence or a simulated scene; `scene_seed` varies the simulated ones)."""
    if name in TUD_SEQUENCES:
        return load_tud(name)
    if name in SIM_SEQUENCES + REID_SEQUENCES + TEST_SEQUENCES:
        return simulate(name, scene_seed)
    if name.rpartition("-")[2] in CAMERA_MOTIONS:
        return simulate_moving(name, scene_seed)
    import tracking_generic  # the generic scenes (tracking_generic.py), made with their own code
    generic = tracking_generic.GENERIC_SEQUENCES + tracking_generic.DENSE_SEQUENCES
    if name in generic:
        return tracking_generic.generic_sequence(name, scene_seed)
    names = TUD_SEQUENCES + SIM_SEQUENCES + REID_SEQUENCES + MOVING_SEQUENCES + generic
    raise SystemExit(f"unknown sequence {name}: {', '.join(names)} (or any sim scene with -pan, -shake, -zoom)")


def every_nth_frame(seq, step):
    """`seq` played at `1/step` of its frame rate: its frames 1, 1 + step, 1 + 2 * step, ... (objects move `step`
    times farther between frames, as with a slower camera or a detector run on every `step`-th frame)."""
    if step == 1:
        return seq
    played = Sequence(seq.name, seq.width, seq.height, seq.frame_rate / step, seq.frames[::step])
    if hasattr(seq, "visible"):  # a generic scene's visible shares (tracking_generic.generic_sequence)
        played.visible = seq.visible[::step]
    return played


def load_tud(name):
    """A TUD sequence's ground truth from py-motmetrics' package data. Depth: the lower a person's feet in the image,
    the nearer (a fixed camera looking down at a flat street)."""
    try:
        import motmetrics
    except ImportError:
        raise SystemExit("py-motmetrics is missing: run scripts/setup.sh --dev")
    path = os.path.join(os.path.dirname(motmetrics.__file__), "data", name, "gt.txt")
    if not os.path.isfile(path):
        raise SystemExit(f"{path} is missing: py-motmetrics 1.4.0 ships it (scripts/setup.sh --dev)")
    rows = np.loadtxt(path, delimiter=",", ndmin=2)
    count = int(rows[:, 0].max())
    frames = [[] for _ in range(count)]
    for r in rows:
        if r[6] == 0:  # a row marked to be ignored (none in TUD)
            continue
        x, y, w, h = float(r[2]), float(r[3]), float(r[4]), float(r[5])
        frames[int(r[0]) - 1].append((int(r[1]), x, y, w, h, -(y + h)))
    return Sequence(name, 640, 480, 25.0, frames)


# --- Simulated scenes -------------------------------------------------------------------------------------------

# The camera: 1280x720 at 30 fps, looking at a flat ground; a person at depth Z metres is drawn with a height of
# FOCAL * 1.75 / Z pixels, feet at HORIZON + FOCAL * CAMERA_HEIGHT / Z.
SIM_WIDTH, SIM_HEIGHT, SIM_FPS = 1280, 720, 30.0
FOCAL, HORIZON, CAMERA_HEIGHT, PERSON_HEIGHT, PERSON_WIDTH = 900.0, 180.0, 3.0, 1.75, 0.6


def project(X, Z):
    """The box `(x, y, w, h)` of a person standing at ground position (X, Z) (metres; X across, Z depth)."""
    s = FOCAL / Z
    h, w = PERSON_HEIGHT * s, PERSON_WIDTH * s
    feet = HORIZON + CAMERA_HEIGHT * s
    cx = SIM_WIDTH / 2 + X * s
    return cx - w / 2, feet - h, w, h


class Walker:
    """A person following waypoints on the ground, at a speed, pausing where told."""

    def __init__(self, start_frame, path, speed, pauses):
        # path: [(X, Z), ...]; pauses: {waypoint index: frames to stand there}
        self.start, self.path, self.speed, self.pauses = start_frame, path, speed, pauses

    def positions(self, frames):
        """Ground positions per frame from the start frame until the path ends (or `frames`)."""
        out = []
        X, Z = self.path[0]
        for k in range(1, len(self.path)):
            for _ in range(self.pauses.get(k - 1, 0)):
                out.append((X, Z))
            tx, tz = self.path[k]
            dist = math.hypot(tx - X, tz - Z)
            steps = max(1, int(round(dist / (self.speed / SIM_FPS))))
            for s in range(1, steps + 1):
                out.append((X + (tx - X) * s / steps, Z + (tz - Z) * s / steps))
            X, Z = tx, tz
            if self.start + len(out) >= frames:
                break
        return out


def walkers(name, rng):
    """The people of a simulated scene."""
    people = []
    edge = lambda Z: (SIM_WIDTH / 2 + 40) * Z / FOCAL  # |X| just outside the image at depth Z
    if name in ("sim-crossing", "sim-short"):
        # Pairs walking in opposite directions at nearby depths: each crossing hides the farther one for a while.
        # sim-short (the test's scene) is 3 pairs in 5 seconds.
        short = name == "sim-short"
        for k in range(3 if short else 10):
            Z1 = rng.uniform(6, 14)
            Z2 = Z1 + rng.uniform(0.4, 2.5) * rng.choice([-1, 1])
            start = int(rng.integers(0, 40 if short else 240))
            speed1, speed2 = rng.uniform(1.0, 1.8), rng.uniform(1.0, 1.8)
            people.append(Walker(start, [(-edge(Z1), Z1), (edge(Z1), Z1 + rng.uniform(-1, 1))], speed1, {}))
            people.append(Walker(start + int(rng.integers(0, 30)),
                                 [(edge(Z2), Z2), (-edge(Z2), Z2 + rng.uniform(-1, 1))], speed2, {}))
        frames = 150 if short else 420
    elif name == "sim-crowd":
        # Many people entering from either side or from the far end, wandering through waypoints, leaving.
        for k in range(26):
            Z0 = rng.uniform(5, 20)
            side = rng.choice([-1, 1])
            path = [(side * edge(Z0), Z0)]
            for _ in range(int(rng.integers(1, 4))):
                Z = rng.uniform(5, 20)
                path.append((rng.uniform(-0.7, 0.7) * edge(Z), Z))
            Z = rng.uniform(5, 20)
            path.append((rng.choice([-1, 1]) * edge(Z), Z))
            pauses = {1: int(rng.integers(15, 60))} if rng.random() < 0.3 else {}
            people.append(Walker(int(rng.integers(0, 360)), path, rng.uniform(0.8, 1.8), pauses))
        frames = 480
    elif name == "sim-stop-turn":
        # People who stop, turn back or sideways, and walk towards or away from the camera, near one another.
        for k in range(12):
            Z0 = rng.uniform(6, 12)
            side = rng.choice([-1, 1])
            mid_X = rng.uniform(-0.4, 0.4) * edge(Z0)
            path = [(side * edge(Z0), Z0), (mid_X, Z0)]
            turn = rng.integers(0, 3)
            if turn == 0:  # back where they came from
                path.append((side * edge(Z0), Z0 + rng.uniform(-1, 1)))
            elif turn == 1:  # towards the camera, then out sideways
                Zn = max(4.0, Z0 - rng.uniform(2, 5))
                path += [(mid_X, Zn), (-side * edge(Zn), Zn)]
            else:  # away from the camera, then out sideways
                Zf = Z0 + rng.uniform(3, 8)
                path += [(mid_X, Zf), (-side * edge(Zf), Zf)]
            pauses = {1: int(rng.integers(10, 50))}
            people.append(Walker(int(rng.integers(0, 300)), path, rng.uniform(0.9, 1.6), pauses))
        frames = 450
    elif name == "sim-return":
        # People who walk into the view, turn and walk out (most often through the border they came in by), wait
        # off-screen while they walk 0.8-3 m further, and come back, again and again in 20 seconds: each return is a
        # new track for a tracker that follows motion alone. Depths are near one another, so they also cross and hide
        # one another.
        for k in range(10):
            Z = rng.uniform(6, 12)
            side = rng.choice([-1, 1])
            path = [(side * (edge(Z) + rng.uniform(0, 1)), Z)]
            for _ in range(8):
                Z = float(np.clip(Z + rng.uniform(-1.5, 1.5), 5, 14))
                path.append((side * rng.uniform(0.1, 0.9) * edge(Z), Z))
                if rng.random() < 0.3:
                    side = -side
                path.append((side * (edge(Z) + rng.uniform(0.8, 3.0)), Z))
            people.append(Walker(int(rng.integers(0, 90)), path, rng.uniform(1.2, 1.8), {}))
        frames = 600
    else:
        raise SystemExit(f"unknown scene {name}")
    return people, frames


def simulate(name, scene_seed):
    """A simulated scene's ground truth. Boxes are clipped to the image; a person is in the ground truth in a frame
    when some of them is in the image and not hidden by nearer people."""
    return visible_sequence(name, raw_boxes(name, scene_seed))


def raw_boxes(name, scene_seed):
    """Per frame, the whole boxes `(id, x, y, w, h, depth)` of a simulated scene's people, seen by the fixed camera
    (not clipped: they may lie partly or wholly outside the image)."""
    rng = np.random.default_rng([sum(name.encode()), scene_seed])
    people, count = walkers(name, rng)
    raw = [[] for _ in range(count)]
    for i, walker in enumerate(people):
        for k, (X, Z) in enumerate(walker.positions(count)):
            t = walker.start + k
            if t >= count:
                break
            raw[t].append((i + 1, *project(X, Z), Z))
    return raw


def visible_sequence(name, raw):
    """The sequence `name` from whole boxes per frame: each clipped to the image, kept while some of it is visible."""
    frames = []
    for boxes in raw:
        kept = []
        for b in boxes:
            clipped = clip(b[1:5], SIM_WIDTH, SIM_HEIGHT)
            if clipped is None:
                continue
            if visible_fraction(b, boxes, SIM_WIDTH, SIM_HEIGHT) <= 0:
                continue
            kept.append((b[0], *clipped, b[5]))
        frames.append(kept)
    return Sequence(name, SIM_WIDTH, SIM_HEIGHT, SIM_FPS, frames)


# --- Moving cameras ---------------------------------------------------------------------------------------------

# A simulated scene seen by a moving camera: `BASE-MOTION`, BASE a simulated scene and MOTION one of CAMERA_MOTIONS.
# The camera's motion is a per-frame zoom `s` about the image center and a shift `(px, py)` of the view: a whole box
# of the fixed camera at `x` is at `s * (x - 640) + 640 - px` (likewise vertically, about 360), its size times `s`.
# Then the boxes are clipped and hidden as for the fixed camera, so people leave and enter as the view moves. The
# scene (its people and their paths) is BASE's, with the same seed.
CAMERA_MOTIONS = ("pan", "shake", "zoom")
MOVING_SEQUENCES = ("sim-crossing-pan", "sim-crowd-pan", "sim-crowd-shake", "sim-crowd-zoom", "sim-stop-turn-shake",
                    "sim-stop-turn-zoom")


def camera_path(motion, count, rng):
    """Per frame `(s, px, py)` of the camera's motion, seeded by `rng`:
    - pan: the view sweeps right and back at 10 px per frame, 300 px each way (reversing at once: a patrol
      camera), with a slow vertical drift of 40 px;
    - shake: a handheld camera's jitter: an offset that follows `o' = 0.8 o + N(0, 8)` px per axis, plus a jolt of
      25–60 px in a random direction on 2 % of frames;
    - zoom: holds for 40 frames, zooms in to 1.6x over 40 frames (about 1.2 % per frame), holds 40, zooms back out
      over 40, and so on, with a slow horizontal sweep of 4 px per frame.
    """
    out = []
    if motion == "pan":
        for t in range(count):
            phase = (10.0 * t) % 600.0
            px = phase if phase <= 300.0 else 600.0 - phase
            out.append((1.0, px - 150.0, 40.0 * math.sin(2 * math.pi * t / count)))
    elif motion == "shake":
        ox = oy = 0.0
        for _ in range(count):
            ox, oy = 0.8 * ox + rng.normal(0, 8), 0.8 * oy + rng.normal(0, 8)
            if rng.random() < 0.02:
                angle, size = rng.uniform(0, 2 * math.pi), rng.uniform(25, 60)
                ox, oy = ox + size * math.cos(angle), oy + size * math.sin(angle)
            out.append((1.0, ox, oy))
    elif motion == "zoom":
        top = 1.6
        for t in range(count):
            phase = t % 160
            if phase < 40:
                s = 1.0
            elif phase < 80:
                s = top ** ((phase - 40) / 40)
            elif phase < 120:
                s = top
            else:
                s = top ** ((160 - phase) / 40)
            sweep = 4.0 * (t % 100) if (t // 100) % 2 == 0 else 4.0 * (100 - t % 100)
            out.append((s, sweep - 200.0, 0.0))
    else:
        raise SystemExit(f"unknown camera motion {motion}: {', '.join(CAMERA_MOTIONS)}")
    return out


def simulate_moving(name, scene_seed):
    """A simulated scene `BASE-MOTION` seen by a moving camera (see `camera_path`)."""
    base, _, motion = name.rpartition("-")
    if base not in SIM_SEQUENCES or motion not in CAMERA_MOTIONS:
        raise SystemExit(f"unknown sequence {name}")
    raw = raw_boxes(base, scene_seed)
    path = camera_path(motion, len(raw), np.random.default_rng([sum(name.encode()), scene_seed, 1]))
    cx, cy = SIM_WIDTH / 2, SIM_HEIGHT / 2
    moved = [[(i, s * (x - cx) + cx - px, s * (y - cy) + cy - py, s * w, s * h, depth)
              for (i, x, y, w, h, depth) in boxes]
             for boxes, (s, px, py) in zip(raw, path)]
    return visible_sequence(name, moved)


def clip(box, width, height):
    """`(x, y, w, h)` limited to the image, or None when nothing is left."""
    x, y, w, h = box
    x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + w, width), min(y + h, height)
    if x1 - x0 < 1 or y1 - y0 < 1:
        return None
    return x0, y0, x1 - x0, y1 - y0


def visible_fraction(box, others, width, height, samples=12):
    """The share of `box` (`(id, x, y, w, h, depth)`) inside the image and not covered by a nearer box of `others`,
    measured on a grid of samples x 2*samples points."""
    _, x, y, w, h, depth = box
    nearer = [o for o in others if o[5] < depth and o[0] != box[0]]
    xs = x + (np.arange(samples) + 0.5) * w / samples
    ys = y + (np.arange(2 * samples) + 0.5) * h / (2 * samples)
    px, py = np.meshgrid(xs, ys)
    seen = (px >= 0) & (px < width) & (py >= 0) & (py < height)
    for (_, ox, oy, ow, oh, _) in nearer:
        seen &= ~((px >= ox) & (px < ox + ow) & (py >= oy) & (py < oy + oh))
    return float(seen.mean())


# --- The noise model --------------------------------------------------------------------------------------------

NOISE_LEVELS = {
    # name: (position jitter, size jitter, base miss rate, false positives per frame)
    "normal": (0.04, 0.06, 0.05, 0.5),
    "heavy": (0.07, 0.10, 0.12, 1.5),
}


# The benchmark's own model at a level, but with every false box scored uniformly in 0.5-1.0, as sure as the real ones
# (docs/tracking-quality.md, thirty-fourth round): a detector whose scores do not tell its false boxes. The same random
# draws as the level's, but for those scores. name: level.
CONFIDENT_FALSE_MODELS = {"Fn": "normal", "Fh": "heavy"}
CONFIDENT_FALSE_SCORES = (0.5, 1.0)


def noisy_detections(seq, seed, level="normal", sources=None):
    """Detector-like rows from the ground truth of `seq` under the noise model `level`: "normal" or "heavy" (below),
    one of `CONFIDENT_FALSE_MODELS`, or one of `OTHER_NOISE_MODELS` or `UNSEEN_NOISE_MODELS` (see
    `other_noisy_detections` and `unseen_noisy_detections`; no `sources` there)."""
    import tracking_generic
    if level in tracking_generic.GENERIC_NOISE_MODELS:
        if sources is not None:
            raise SystemExit(f"noise model {level}: no appearance vectors (those need the normal or heavy level)")
        return tracking_generic.generic_detections(seq, seed, level)
    if level in CONFIDENT_FALSE_MODELS:
        return benchmark_noisy_detections(seq, seed, CONFIDENT_FALSE_MODELS[level], sources, CONFIDENT_FALSE_SCORES)
    if level in OTHER_NOISE_MODELS or level in UNSEEN_NOISE_MODELS:
        if sources is not None:
            raise SystemExit(f"noise model {level}: no appearance vectors (those need the normal or heavy level)")
        if level in UNSEEN_NOISE_MODELS:
            return unseen_noisy_detections(seq, seed, level)
        return other_noisy_detections(seq, seed, level)
    return benchmark_noisy_detections(seq, seed, level, sources)


def benchmark_noisy_detections(seq, seed, level="normal", sources=None, false_scores=(0.1, 0.7)):
    """Detector-like rows `frame,-1,x,y,w,h,score,-1,-1,-1` from the ground truth of `seq`, seeded.

    The noise model, per ground-truth box in each frame, with `o` the share of the box hidden by nearer people or
    outside the image (see `visible_fraction`):
    - missed with probability `miss + 0.8 * o` (capped at 1): misses grow with occlusion;
    - else detected with a score drawn from N(0.85 - 0.6 * o, 0.08), clipped to 0.02...0.99: partly hidden people
      get low scores, as from a real detector (what ByteTrack's second stage is for); and 8 % of all detections get
      a low score, uniform in 0.1...0.5, whatever their visibility;
    - its centre jittered by N(0, position * w) and N(0, position * h), its width and height multiplied by
      exp(N(0, size)) each;
    - plus false positives, Poisson(fp) per frame: a box of the size of a random ground-truth box of the sequence, at
      a uniform place, score uniform in `false_scores` (0.1...0.7 by default: most below a tracker's high threshold,
      some above);
    - every box is clipped to the image (detectors report boxes inside it) and rows are shuffled within a frame.
    `level` picks (position, size, miss, fp): normal (0.04, 0.06, 0.05, 0.5) or heavy (0.07, 0.10, 0.12, 1.5).
    `sources`, a list, receives for each row the ground-truth ID it comes from (0 for a false positive) and the
    share of the box hidden, for `with_appearance` (the random draws are the same with or without it).
    """
    position, size, miss, fp_rate = NOISE_LEVELS[level]
    rng = np.random.default_rng([seed, sum(seq.name.encode()), len(level)])
    sizes = [(b[3], b[4]) for boxes in seq.frames for b in boxes] or [(40.0, 100.0)]
    rows = []
    for t, boxes in enumerate(seq.frames):
        frame = []
        for b in boxes:
            o = 1.0 - visible_fraction(b, boxes, seq.width, seq.height)
            if rng.random() < min(1.0, miss + 0.8 * o):
                continue
            score = float(np.clip(rng.normal(0.85 - 0.6 * o, 0.08), 0.02, 0.99))
            if rng.random() < 0.08:
                score = float(rng.uniform(0.1, 0.5))
            _, x, y, w, h, _ = b
            cx = x + w / 2 + rng.normal(0, position * w)
            cy = y + h / 2 + rng.normal(0, position * h)
            nw, nh = w * math.exp(rng.normal(0, size)), h * math.exp(rng.normal(0, size))
            frame.append(((cx - nw / 2, cy - nh / 2, nw, nh), score, (b[0], o)))
        false_boxes = []
        add_false_boxes(false_boxes, rng, sizes, seq, fp_rate, *false_scores)
        frame += [(box, score, (0, 0.0)) for box, score in false_boxes]
        rng.shuffle(frame)
        for box, score, source in frame:
            row = detection_row(t, box, score, seq)
            if row is None:
                continue
            rows.append(row)
            if sources is not None:
                sources.append(source)
    return rows


def detection_row(t, box, score, seq):
    """The MOTChallenge detection row of `box` in frame index `t` (from 0), clipped to the image; None when nothing of
    it is inside."""
    clipped = clip(box, seq.width, seq.height)
    if clipped is None:
        return None
    x, y, w, h = clipped
    return f"{t + 1},-1,{x:.2f},{y:.2f},{w:.2f},{h:.2f},{score:.4f},-1,-1,-1"


# The other noise models (docs/tracking-quality.md, eleventh and twenty-seventh rounds): as a check that a rule does
# not hang on the benchmark's own model. Each misses more with occlusion, but scores, misses, jitters and adds false
# boxes differently. name: (seed, miss rule, score rule, centre jitter (share of the size, plus pixels), size jitter,
# false boxes per frame, their scores' range, fixed clutter boxes). Each model has its own seed, so its draws are its
# own: Pp is not P's draws without the clutter.
OTHER_NOISE_MODELS = {
    # misses 0.08 + 0.6·o; every true box scored uniformly in 0.3–1 whatever its visibility
    "U": (100, "linear", "uniform", 0.05, 0, 0.08, 1.0, (0.05, 0.6), 0),
    # misses 12 % of boxes under 70 % hidden, 90 % of the others; N(0.9, 0.05) under 30 % hidden, else N(0.5, 0.15);
    # plus two fixed clutter boxes, each seen in half of the frames, scored 0.35–0.65
    "P": (101, "step", "two-level", 0.02, 3, 0.04, 0.3, (0.3, 0.9), 2),
    "Pp": (102, "step", "two-level", 0.02, 3, 0.04, 0.3, (0.3, 0.9), 0),  # P without the clutter
    "Ppp": (103, "step", "two-level", 0.02, 3, 0.04, 0.3, (0.1, 0.6), 0),  # Pp with weaker false boxes
    # misses 0.1 + 0.5·o; N(0.8, 0.1), and 10 % of the boxes uniform in 0.1–0.5
    "S": (104, "half", "normal", 0.05, 0, 0.05, 1.0, (0.1, 0.6), 0),
    # misses 3 % of boxes under half hidden, 70 % of the others; uniform in 0.5–0.95, or 0.15–0.6 when half hidden
    "Q": (105, "mostly", "visibility", 0.03, 0, 0.05, 2.0, (0.05, 0.45), 0),
}


def other_noisy_detections(seq, seed, model):
    """Detector-like rows `frame,-1,x,y,w,h,score,-1,-1,-1` from the ground truth of `seq` under one of
    `OTHER_NOISE_MODELS`, seeded. `o` is the share of a box hidden, as in `benchmark_noisy_detections`; boxes are
    jittered as there (the centre by N(0, jitter · size + pixels), each side multiplied by exp(N(0, size jitter)));
    false boxes are Poisson per frame, of the size of a random ground-truth box, anywhere."""
    model_seed, miss_rule, score_rule, jitter, pixels, size_jitter, fp_rate, fp_scores, clutter_count = \
        OTHER_NOISE_MODELS[model]
    fp_low, fp_high = fp_scores
    rng = np.random.default_rng([seed, sum(seq.name.encode()), model_seed])
    sizes = [(b[3], b[4]) for boxes in seq.frames for b in boxes] or [(40.0, 100.0)]
    clutter = []
    for _ in range(clutter_count):
        w, h = sizes[int(rng.integers(len(sizes)))]
        clutter.append((rng.uniform(0, seq.width - w), rng.uniform(0, seq.height - h), w, h))
    miss_of = {"linear": lambda o: 0.08 + 0.6 * o, "step": lambda o: 0.12 if o < 0.7 else 0.9,
               "half": lambda o: 0.1 + 0.5 * o, "mostly": lambda o: 0.03 if o < 0.5 else 0.7}[miss_rule]
    rows = []
    for t, boxes in enumerate(seq.frames):
        frame = []
        for b in boxes:
            o = 1.0 - visible_fraction(b, boxes, seq.width, seq.height)
            _, x, y, w, h, _ = b
            if rng.random() < min(1.0, miss_of(o)):
                continue
            if score_rule == "uniform":
                score = rng.uniform(0.3, 1.0)
            elif score_rule == "two-level":
                score = rng.normal(0.9, 0.05) if o < 0.3 else rng.normal(0.5, 0.15)
            elif score_rule == "normal":
                score = rng.normal(0.8, 0.1)
                if rng.random() < 0.1:
                    score = rng.uniform(0.1, 0.5)
            elif score_rule == "visibility":
                score = rng.uniform(0.5, 0.95) if o < 0.5 else rng.uniform(0.15, 0.6)
            else:
                raise ValueError(f"noise model {model}: unknown score rule {score_rule}")
            score = float(np.clip(score, 0.02, 0.99))
            cx = x + w / 2 + rng.normal(0, jitter * w + pixels)
            cy = y + h / 2 + rng.normal(0, jitter * h + pixels)
            nw, nh = w * math.exp(rng.normal(0, size_jitter)), h * math.exp(rng.normal(0, size_jitter))
            frame.append(((cx - nw / 2, cy - nh / 2, nw, nh), score))
        add_false_boxes(frame, rng, sizes, seq, fp_rate, fp_low, fp_high)
        for box in clutter:
            if rng.random() < 0.5:
                frame.append((box, float(rng.uniform(0.35, 0.65))))
        add_frame_rows(rows, frame, rng, t, seq)
    return rows


def add_false_boxes(frame, rng, sizes, seq, rate, low, high):
    """Adds to `frame` Poisson(`rate`) false boxes `(box, score)`, each of the size of a random one of `sizes`, anywhere
    in the image (half of it may lie outside), scored uniformly in `low`...`high`."""
    for _ in range(rng.poisson(rate)):
        w, h = sizes[int(rng.integers(len(sizes)))]
        frame.append(((rng.uniform(-w / 2, seq.width - w / 2), rng.uniform(-h / 2, seq.height - h / 2), w, h),
                      float(rng.uniform(low, high))))


def add_frame_rows(rows, frame, rng, t, seq):
    """Shuffles the `(box, score)` pairs of frame index `t` and adds their detection rows to `rows` (clipped; boxes
    wholly outside the image left out)."""
    rng.shuffle(frame)
    for box, score in frame:
        row = detection_row(t, box, score, seq)
        if row is not None:
            rows.append(row)


# Two noise models made after the thirty-first round of docs/tracking-quality.md, as a check on detectors no rule was
# tuned on (the `unseen` sets of tracking_rounds.py). They differ from all the models above in how they hide, jitter
# and score. name: model seed.
# - V: `o` is the largest share of a box that any other person's box covers, whatever their depths (so the nearer
#   person of two is missed too, by the share of its own box the other covers); missed with probability 0.07 + 0.5·o,
#   scored N(0.9 − 0.4·o, 0.1); the centre jittered by 5 % and the sides by 7 % of the size; 5 % of the boxes come
#   with a detector's duplicate (shifted and resized by 15 %, scored 0.1–0.5); 0.8 false boxes per frame scored
#   0.1–0.8.
# - W: each person's jitter drifts over the frames rather than being drawn anew (an AR(1) offset, correlation 0.85
#   per frame played, of 5 % of the size for the centre and 6 % for the sides; kept as it was while the person is out
#   of the ground truth), as a real detector errs the same way on a person for several frames; misses 0.1 + 0.7·o,
#   with the depth-aware `o` of `benchmark_noisy_detections`; far, small people score lower:
#   N(0.45 + 0.45·min(1, h/200), 0.12) − 0.3·o; 0.5 false boxes per frame scored 0.1–0.6.
UNSEEN_NOISE_MODELS = {"V": 200, "W": 201}


def overlap_fraction(box, others):
    """The largest share of `box` that any one other person's box of `others` covers, whatever their depths (0 for a
    box of no area)."""
    person, x, y, w, h, _ = box
    if w * h <= 0:
        return 0.0
    best = 0.0
    for other in others:
        if other[0] == person:
            continue
        _, ox, oy, ow, oh, _ = other
        iw = max(0.0, min(x + w, ox + ow) - max(x, ox))
        ih = max(0.0, min(y + h, oy + oh) - max(y, oy))
        best = max(best, iw * ih / (w * h))
    return best


def unseen_noisy_detections(seq, seed, model):
    """Detector-like rows `frame,-1,x,y,w,h,score,-1,-1,-1` from the ground truth of `seq` under one of
    `UNSEEN_NOISE_MODELS` (described there), seeded."""
    rng = np.random.default_rng([seed, sum(seq.name.encode()), UNSEEN_NOISE_MODELS[model]])
    sizes = [(b[3], b[4]) for boxes in seq.frames for b in boxes] or [(40.0, 100.0)]
    offsets = {}  # W: each person's drifting offset (centre x, centre y, log width, log height), in sizes
    rows = []
    for t, boxes in enumerate(seq.frames):
        frame = []
        for b in boxes:
            person, x, y, w, h, _ = b
            if model == "V":
                o = overlap_fraction(b, boxes)
                if rng.random() < min(1.0, 0.07 + 0.5 * o):
                    continue
                score = rng.normal(0.9 - 0.4 * o, 0.1)
                e = rng.normal(0, 1, 4) * (0.05, 0.05, 0.07, 0.07)
            else:
                o = 1.0 - visible_fraction(b, boxes, seq.width, seq.height)
                e = rng.normal(0, 1, 4) * (0.05, 0.05, 0.06, 0.06)
                if person in offsets:  # stationary: the offset keeps its deviation
                    e = 0.85 * offsets[person] + math.sqrt(1 - 0.85**2) * e
                offsets[person] = e
                if rng.random() < min(1.0, 0.1 + 0.7 * o):
                    continue
                score = rng.normal(0.45 + 0.45 * min(1.0, h / 200), 0.12) - 0.3 * o
            score = float(np.clip(score, 0.02, 0.99))
            cx, cy = x + w / 2 + e[0] * w, y + h / 2 + e[1] * h
            nw, nh = w * math.exp(e[2]), h * math.exp(e[3])
            frame.append(((cx - nw / 2, cy - nh / 2, nw, nh), score))
            if model == "V" and rng.random() < 0.05:
                shift, scale = rng.normal(0, 0.15, 2), np.exp(rng.normal(0, 0.15, 2))
                dw, dh = nw * scale[0], nh * scale[1]
                frame.append(((cx + shift[0] * w - dw / 2, cy + shift[1] * h - dh / 2, dw, dh),
                              float(rng.uniform(0.1, 0.5))))
        add_false_boxes(frame, rng, sizes, seq, *{"V": (0.8, 0.1, 0.8), "W": (0.5, 0.1, 0.6)}[model])
        add_frame_rows(rows, frame, rng, t, seq)
    return rows


APPEARANCE_LENGTH = 32


def with_appearance(seq, seed, rows, sources):
    """The detection rows `rows` of `noisy_detections` (whose `sources` it filled) with an appearance vector after
    the tenth field, `frame,-1,x,y,w,h,score,-1,-1,-1,f1,...,f32`, seeded (its own random draws: the rows' boxes and
    scores are those of `noisy_detections`, whatever is done here).

    The appearance noise model, standing for a re-identification network's embeddings:
    - each person is a random unit vector of 32 values (uniform on the sphere: two people's vectors have a cosine
      similarity of about N(0, 0.18), at most 0.5 or so among 30 people);
    - a detection of a person with a share `o` of the box hidden is `(1 - o) * u + o * r + n`: `u` the person's vector,
      `r` a random unit vector (whatever hides the person), `n` Gaussian noise of 0.5 / sqrt(32) per value (a norm of
      about 0.5: the cosine similarity of two detections of the same unhidden person is about 0.8);
    - 5 % of detections are corrupted: a random unit vector, nothing like the person (a bad crop, a reflection);
    - a false positive's vector is a random unit vector.
    Values are written with 4 decimals.
    """
    rng = np.random.default_rng([seed, sum(seq.name.encode()), 1729])
    people = sorted({i for boxes in seq.frames for (i, *_) in boxes})
    unit = lambda v: v / np.linalg.norm(v)
    identity = {i: unit(rng.normal(size=APPEARANCE_LENGTH)) for i in people}
    noise = 0.5 / math.sqrt(APPEARANCE_LENGTH)
    out = []
    for row, (person, hidden) in zip(rows, sources):
        random = unit(rng.normal(size=APPEARANCE_LENGTH))
        corrupted = rng.random() < 0.05
        if person == 0 or corrupted:
            vector = random
        else:
            vector = (1 - hidden) * identity[person] + hidden * random + rng.normal(0, noise, APPEARANCE_LENGTH)
        out.append(row + "," + ",".join(f"{v:.4f}" for v in vector))
    return out

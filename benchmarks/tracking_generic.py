"""Generic scenes and a detector noise model of their own, made after the thirty-sixth round of
docs/tracking-quality.md as a check on input unlike the benchmark's pedestrians (tracking_scenes): nothing here shares
the simulated scenes' code or the benchmark's noise model.

Scenes (`gen-*`, seeded; visible ground truth: a box is kept while some of it is in the image and not under nearer
boxes; `gen-*-whole` keeps every box with some part in the image, hidden or not, as MOTChallenge's ground truth does):
- `gen-walk`: 22 people on a ground plane, 1920x1080 at 30 fps, 400 frames, who start inside or at a border, wander
  (their heading drifting at random), some stopping for a while, and leave; farther people are higher in the image.
- `gen-cars`: 18 vehicles in four lanes, 1280x720 at 25 fps, 350 frames: wide boxes crossing the image at 4-14 px a
  frame, some slowing; cars of one lane are at one depth and may drive through one another (neither hides the other).
- `gen-boxes`: 20 boxes of any aspect (width 30-150 px, height half to three times it), 1280x720 at 30 fps, 300
  frames, at 1-8 px a frame on a jittering velocity, bouncing off the image borders, at random depths; each appears
  inside the image and vanishes there after 60-300 frames.
- `gen-flat`: `gen-boxes` all at one depth: boxes pass through one another, both seen.
- `gen-dense` (in `DENSE_SEQUENCES`, not in the `generic` set: made after the fortieth round): `gen-walk` with 70
  people instead of 22 (about 2.3 times as many in view at once).

Noise (`generic_detections`, levels "Gn", "Gh", "Gp", "Gm" and "Gc"), per ground-truth box with `v` the share of it
visible: missed with probability `miss + 0.7 (1 - v)^1.5`; scored `0.35 + 0.55 v + N(0, 0.1)` (clipped to 0.05-0.98),
and one box in ten uniform in 0.05-0.45 instead; its centre jittered by `N(0, pos w)` and `N(0, 0.6 pos h)`, its size by
`exp(N(0, size))` per axis; plus Poisson(`fp`) false boxes a frame of a ground-truth box's size anywhere, scored
Beta(2, 5); boxes clipped to the image. Gn: pos 0.05, size 0.07, miss 0.07, fp 0.8; Gh: 0.08, 0.12, 0.15, 2.0. Gp (a
precise detector, made after the fortieth round): Gn's misses, scores and false boxes with a fifth of its jitter: pos
0.01, size 0.015. Gm (made after the forty-second round): halfway, half of Gn's jitter: pos 0.025, size 0.035. Gc (made
after the forty-third round: background a class-agnostic localizer boxes, as the real one does in the tests' clip seed
303): Gm's jitter, misses, scores and false boxes (its own draws of them, not Gm's: the seed differs, and the
background's boxes come from the same stream), plus three stretches of background boxed in most frames
(`CLUTTER_BOXES`): each 1.5-3 times the area of a ground-truth box, of aspect (width over height) 0.8-2.5, at a fixed
place anywhere in the image, boxed in a frame with probability 0.8 with its edges jittered by `N(0, 0.02)` of its size,
scored around a mean of its own in 0.2-0.55 (`N(0, 0.1)`, clipped to 0.05-0.95): nothing in the ground truth (a
false object for a tracker that follows it), lying over the objects that pass it.
"""

import math

import numpy as np

import tracking_scenes

GENERIC_SEQUENCES = ("gen-walk", "gen-cars", "gen-boxes", "gen-flat", "gen-walk-whole", "gen-cars-whole",
                     "gen-boxes-whole")
DENSE_SEQUENCES = ("gen-dense", "gen-dense-whole")
GENERIC_NOISE_MODELS = {"Gn": (0.05, 0.07, 0.07, 0.8), "Gh": (0.08, 0.12, 0.15, 2.0), "Gp": (0.01, 0.015, 0.07, 0.8),
                        "Gm": (0.025, 0.035, 0.07, 0.8)}
# Gm's detector, plus stretches of background: how many each noise model boxes in most frames (see "Gc" above).
GENERIC_NOISE_MODELS["Gc"] = GENERIC_NOISE_MODELS["Gm"]
CLUTTER_BOXES = {"Gc": 3}
# The two levels of the `generic` and `dense` sets; "Gp" is a precise detector's (the `precise` set), "Gm" one
# halfway between (the `midway` set), "Gc" the same with a localizer's boxes of background (the `clutter` set).
GENERIC_LEVELS = ("Gn", "Gh")


def visible_share(box, nearer, width, height):
    """The share of `box` `(x, y, w, h)` inside the image and not under a box of `nearer`, on a 10 x 20 grid."""
    x, y, w, h = box
    px, py = np.meshgrid(x + (np.arange(10) + 0.5) * w / 10, y + (np.arange(20) + 0.5) * h / 20)
    seen = (px >= 0) & (px < width) & (py >= 0) & (py < height)
    for (ox, oy, ow, oh) in nearer:
        seen &= ~((px >= ox) & (px < ox + ow) & (py >= oy) & (py < oy + oh))
    return float(seen.mean())


def walk_scene(rng, width=1920, height=1080, fps=30, frames=400, people=22):
    focal, horizon, camera_height = 1100.0, 380.0, 1.6
    out = [[] for _ in range(frames)]
    for i in range(people):
        start = int(rng.integers(0, frames - 60))
        Z = rng.uniform(4, 22)
        edge = (width / 2) * Z / focal
        X = rng.uniform(-edge, edge) * 0.9 if rng.random() < 0.5 else rng.choice([-1, 1]) * (edge + 0.5)
        heading = (rng.uniform(0, 2 * math.pi) if abs(X) < edge
                   else (0 if X < 0 else math.pi) + rng.normal(0, 0.4))
        speed = rng.uniform(0.8, 1.8)
        stop_at = int(rng.integers(20, 200)) if rng.random() < 0.35 else -1
        stop_for = int(rng.integers(15, 70))
        turning, stature = rng.uniform(0.005, 0.04), rng.uniform(1.55, 1.9)
        for t in range(start, frames):
            k = t - start
            if not (0 <= stop_at <= k < stop_at + stop_for):
                heading += rng.normal(0, turning)
                X += speed / fps * math.cos(heading)
                Z += speed / fps * math.sin(heading) * 0.6
            if Z < 3 or Z > 30:
                break
            h = stature * focal / Z
            w = 0.41 * h
            x = width / 2 + X * focal / Z - w / 2
            if x > width + 5 or x + w < -5:
                if k > 10:
                    break
                continue
            out[t].append((i + 1, (x, horizon + camera_height * focal / Z - h, w, h), Z))
    return width, height, fps, out


def car_scene(rng, width=1280, height=720, fps=25, frames=350, cars=18):
    lanes = [(300, 0.55), (370, 0.7), (450, 0.85), (560, 1.05)]  # (bottom edge, scale)
    out = [[] for _ in range(frames)]
    for i in range(cars):
        lane = int(rng.integers(0, len(lanes)))
        bottom, scale = lanes[lane]
        direction = 1 if lane % 2 == 0 else -1
        start = int(rng.integers(0, frames - 40))
        speed = rng.uniform(4, 14) * scale
        w = rng.uniform(140, 260) * scale
        h = w * rng.uniform(0.45, 0.75)
        slowing = rng.uniform(0.97, 1.0)
        x = -w if direction > 0 else width
        for t in range(start, frames):
            x += direction * speed
            if rng.random() < 0.3:
                speed = max(1.0, speed * slowing)
            if x > width + 2 or x + w < -2:
                if t - start > 5:
                    break
                continue
            out[t].append((i + 1, (x, bottom - h, w, h), 10 - lane))
    return width, height, fps, out


def box_scene(rng, width=1280, height=720, fps=30, frames=300, count=20, flat=False):
    out = [[] for _ in range(frames)]
    for i in range(count):
        w = rng.uniform(30, 150)
        h = min(w * rng.uniform(0.5, 3.0), 300)
        start, life = int(rng.integers(0, frames - 50)), int(rng.integers(60, 300))
        x, y = rng.uniform(0, width - w), rng.uniform(0, height - h)
        speed, angle = rng.uniform(1, 8), rng.uniform(0, 2 * math.pi)
        vx, vy = speed * math.cos(angle), speed * math.sin(angle)
        depth = 1.0 if flat else rng.uniform(1, 10)
        for t in range(start, min(frames, start + life)):
            vx += rng.normal(0, 0.15)
            vy += rng.normal(0, 0.15)
            x, y = x + vx, y + vy
            if x < 0 or x + w > width:
                vx, x = -vx, min(max(x, 0), width - w)
            if y < 0 or y + h > height:
                vy, y = -vy, min(max(y, 0), height - h)
            out[t].append((i + 1, (x, y, w, h), depth))
    return width, height, fps, out


SCENES = {"gen-walk": walk_scene, "gen-cars": car_scene, "gen-boxes": box_scene,
          "gen-flat": lambda rng: box_scene(rng, flat=True), "gen-dense": lambda rng: walk_scene(rng, people=70)}


def generic_sequence(name, scene_seed):
    """The generic scene `name` (see the module's description) made with `scene_seed`; each box's visible share is
    kept as `seq.visible[t][k]` for the noise model."""
    base = name.removesuffix("-whole")
    rng = np.random.default_rng([scene_seed, sum(base.encode()), 777])
    width, height, fps, raw = SCENES[base](rng)
    frames, visible = [], []
    for boxes in raw:
        kept, shares = [], []
        for (i, box, depth) in boxes:
            share = visible_share(box, [b for (j, b, d) in boxes if d < depth and j != i], width, height)
            clipped = tracking_scenes.clip(box, width, height)
            if clipped is None or (share <= 0 and not name.endswith("-whole")):
                continue
            kept.append((i, *clipped, depth))
            shares.append(share)
        frames.append(kept)
        visible.append(shares)
    seq = tracking_scenes.Sequence(name, width, height, fps, frames)
    seq.visible = visible
    return seq


def generic_detections(seq, seed, model):
    """Detector-like rows from the ground truth of a generic scene under the noise model `model` (a key of
    GENERIC_NOISE_MODELS)."""
    if not hasattr(seq, "visible"):
        raise SystemExit(f"noise model {model} is for the generic scenes: "
                         f"{', '.join(GENERIC_SEQUENCES + DENSE_SEQUENCES)}")
    position, size, miss, fp_rate = GENERIC_NOISE_MODELS[model]
    rng = np.random.default_rng([seed, 4242, sum(model.encode())])
    sizes = [(b[3], b[4]) for boxes in seq.frames for b in boxes] or [(40.0, 100.0)]
    clutter = []
    for _ in range(CLUTTER_BOXES.get(model, 0)):
        w, h = sizes[int(rng.integers(0, len(sizes)))]
        area, aspect = w * h * rng.uniform(1.5, 3.0), rng.uniform(0.8, 2.5)
        cw, ch = min(math.sqrt(area * aspect), seq.width * 0.6), min(math.sqrt(area / aspect), seq.height * 0.6)
        clutter.append(((rng.uniform(0, seq.width - cw), rng.uniform(0, seq.height - ch), cw, ch),
                        rng.uniform(0.2, 0.55)))
    rows = []
    for t, (boxes, shares) in enumerate(zip(seq.frames, seq.visible)):
        frame = []
        for (x, y, w, h), mean in clutter:
            if rng.random() < 0.8:
                left, top = x + rng.normal(0, 0.02 * w), y + rng.normal(0, 0.02 * h)
                right, bottom = x + w + rng.normal(0, 0.02 * w), y + h + rng.normal(0, 0.02 * h)
                frame.append(((left, top, right - left, bottom - top),
                              float(np.clip(mean + rng.normal(0, 0.1), 0.05, 0.95))))
        for b, v in zip(boxes, shares):
            if rng.random() < min(1.0, miss + 0.7 * (1 - v) ** 1.5):
                continue
            score = float(np.clip(0.35 + 0.55 * v + rng.normal(0, 0.1), 0.05, 0.98))
            if rng.random() < 0.1:
                score = float(rng.uniform(0.05, 0.45))
            x, y, w, h = b[1:5]
            cx, cy = x + w / 2 + rng.normal(0, position * w), y + h / 2 + rng.normal(0, position * h * 0.6)
            nw, nh = w * math.exp(rng.normal(0, size)), h * math.exp(rng.normal(0, size))
            frame.append(((cx - nw / 2, cy - nh / 2, nw, nh), score))
        for _ in range(rng.poisson(fp_rate)):
            w, h = sizes[int(rng.integers(0, len(sizes)))]
            frame.append(((rng.uniform(0, seq.width - w), rng.uniform(0, seq.height - h), w, h),
                          float(rng.beta(2, 5))))
        rng.shuffle(frame)
        for box, score in frame:
            row = tracking_scenes.detection_row(t, box, score, seq)
            if row is not None:
                rows.append(row)
    return rows

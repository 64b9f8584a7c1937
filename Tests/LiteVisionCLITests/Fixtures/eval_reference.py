"""The reference numbers for `litevision eval` (EvalCLITests): pycocotools' COCOeval and TrackEval's HOTA, CLEAR
and Identity, run here on data this script generates (seeded) or on files the test made.

    eval_reference.py coco-make SEED DIR [--ids-per-image]
                                                   writes DIR/gt.json and DIR/dets.json, prints the reference
                                                   (--ids-per-image: annotation ids 1, 2, ... in each image)
    eval_reference.py coco GT.json DETS.json       prints the reference for existing files
    eval_reference.py mot-make SEED DIR [--mot17]  writes DIR/gt/SEQ.txt and DIR/results/SEQ.txt, prints the reference
    eval_reference.py mot GT_DIR RES_DIR [--mot17] prints the reference for SEQ.txt files

Prints one JSON object. pycocotools' -1 (undefined) is printed as null, as `litevision eval --json` prints it.
"""
import contextlib
import io
import json
import os
import random
import sys

import numpy as np

STATS = ["AP", "AP50", "AP75", "APs", "APm", "APl", "AR1", "AR10", "AR100", "ARs", "ARm", "ARl"]


KITE = 1234567  # a category id wider than the table's columns


def coco_make(seed, folder, ids_per_image=False):
    rng = random.Random(seed)
    # No ground truth for kite: its AP is undefined.
    categories = [{"id": 1, "name": "person"}, {"id": 3, "name": "car"}, {"id": 7, "name": "dog"},
                  {"id": KITE, "name": "kite"}]
    images = [{"id": i, "file_name": f"{i}.jpg", "width": 640, "height": 480} for i in range(1, 31)]
    annotations, detections = [], []
    for image in images:
        if image["id"] % 7 == 0:
            count = 0  # images without ground truth
        else:
            count = rng.randint(1, 12)
        for _ in range(count):
            category = rng.choice([1, 1, 3, 7])
            size = rng.choice([rng.uniform(4, 30), rng.uniform(33, 95), rng.uniform(100, 300)])
            w, h = size * rng.uniform(0.6, 1.4), size * rng.uniform(0.6, 1.4)
            x, y = rng.uniform(0, 640 - w), rng.uniform(0, 480 - h)
            box = [round(x, 2), round(y, 2), round(w, 2), round(h, 2)]
            # A crowd flag as an integer, a whole float or a boolean, as COCO files write it.
            crowd = rng.choice([1, 2, 1.0, True]) if rng.random() < 0.06 else rng.choice([0, 0, 0.0, False])
            area = box[2] * box[3] * (rng.uniform(0.5, 1.0) if rng.random() < 0.5 else 1.0)
            annotations.append({"id": len(annotations) + 1, "image_id": image["id"], "category_id": category,
                                "bbox": box, "area": area, "iscrowd": crowd})
            # Detections of it: near (true positive at some IoU), duplicates, wrong category.
            for _ in range(rng.choice([0, 1, 1, 1, 2])):
                jitter = rng.choice([0.0, 0.02, 0.08, 0.2])
                dx, dy = rng.gauss(0, jitter) * w, rng.gauss(0, jitter) * h
                dw, dh = w * (1 + rng.gauss(0, jitter)), h * (1 + rng.gauss(0, jitter))
                det_category = category if rng.random() < 0.85 else rng.choice([1, 3, 7, KITE])
                detections.append({"image_id": image["id"], "category_id": det_category,
                                   "bbox": [x + dx, y + dy, max(dw, 0.5), max(dh, 0.5)],
                                   "score": round(rng.random(), 2)})  # two decimals: many ties
        for _ in range(rng.randint(0, 6)):  # false positives
            w, h = rng.uniform(5, 200), rng.uniform(5, 200)
            detections.append({"image_id": image["id"], "category_id": rng.choice([1, 3, 7, KITE, 99]),
                               "bbox": [rng.uniform(0, 600), rng.uniform(0, 440), w, h],
                               "score": round(rng.random(), 2)})
    # One image with more than 100 detections of one category.
    for _ in range(130):
        w, h = rng.uniform(10, 120), rng.uniform(10, 120)
        detections.append({"image_id": 2, "category_id": 1, "bbox": [rng.uniform(0, 500), rng.uniform(0, 400), w, h],
                           "score": round(rng.random(), 1)})
    rng.shuffle(detections)
    if ids_per_image:  # ids repeated across images, as a careless converter writes them
        counts = {}
        for annotation in annotations:
            counts[annotation["image_id"]] = counts.get(annotation["image_id"], 0) + 1
            annotation["id"] = counts[annotation["image_id"]]
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "gt.json"), "w") as f:
        json.dump({"images": images, "categories": categories, "annotations": annotations}, f)
    with open(os.path.join(folder, "dets.json"), "w") as f:
        json.dump(detections, f)
    return coco(os.path.join(folder, "gt.json"), os.path.join(folder, "dets.json"))


def coco(gt_path, dets_path):
    from pycocotools.coco import COCO
    from pycocotools.cocoeval import COCOeval
    with contextlib.redirect_stdout(io.StringIO()):
        gt = COCO(gt_path)
        dt = gt.loadRes(dets_path)
        e = COCOeval(gt, dt, "bbox")
        e.evaluate()
        e.accumulate()
        e.summarize()
    undefined = lambda v: None if v == -1 else float(v)
    result = {name: undefined(value) for name, value in zip(STATS, e.stats)}
    categories = []
    for k, category_id in enumerate(e.params.catIds):
        def mean(s):
            s = s[s > -1]
            return None if len(s) == 0 else float(np.mean(s))
        p = e.eval["precision"]
        categories.append({"id": int(category_id), "AP": mean(p[:, :, k, 0, 2]), "AP50": mean(p[0, :, k, 0, 2]),
                           "AP75": mean(p[5, :, k, 0, 2]), "AR100": mean(e.eval["recall"][:, k, 0, 2])})
    result["categories"] = categories
    return result


def mot_make(seed, folder, mot17):
    rng = random.Random(seed)
    os.makedirs(os.path.join(folder, "gt"), exist_ok=True)
    os.makedirs(os.path.join(folder, "results"), exist_ok=True)
    for s in range(4):
        name = f"seq{s}"
        frames = rng.randint(30, 60)
        gt_rows, tr_rows = [], []
        objects = rng.randint(3, 9)
        next_track = 1
        for obj in range(1, objects + 1):
            start = rng.randint(1, frames // 2)
            end = rng.randint(start + 3, frames)
            x, y = rng.uniform(0, 500), rng.uniform(0, 350)
            w, h = rng.uniform(20, 120), rng.uniform(40, 200)
            vx, vy = rng.uniform(-4, 4), rng.uniform(-3, 3)
            cls = 1 if rng.random() < 0.75 else rng.choice([2, 3, 7, 8, 12])
            track = next_track
            next_track += 1
            for t in range(start, end + 1):
                bx, by = round(x + vx * t, 2), round(y + vy * t, 2)
                flag = 0 if rng.random() < 0.04 else 1
                gt_rows.append((t, obj, bx, by, round(w, 2), round(h, 2), flag, cls, 1))
                if s == 3:
                    continue  # a sequence the tracker found nothing in
                r = rng.random()
                if r < 0.1:
                    continue  # missed
                if r < 0.13:
                    track = next_track  # identity switch to a new track
                    next_track += 1
                noise = rng.choice([0.0, 0.03, 0.1, 0.3])
                tr_rows.append((t, track, round(bx + rng.gauss(0, noise) * w, 2), round(by + rng.gauss(0, noise) * h, 2),
                                round(w * (1 + rng.gauss(0, noise)), 2), round(h * (1 + rng.gauss(0, noise)), 2),
                                round(rng.random(), 3), -1, -1, -1))
        if s != 3:
            for t in range(1, frames + 1):  # false positives
                if rng.random() < 0.3:
                    tr_rows.append((t, 1000 + t, round(rng.uniform(0, 600), 2), round(rng.uniform(0, 400), 2),
                                    round(rng.uniform(10, 90), 2), round(rng.uniform(10, 90), 2), 0.2, -1, -1, -1))
        rng.shuffle(gt_rows)
        rng.shuffle(tr_rows)
        with open(os.path.join(folder, "gt", name + ".txt"), "w") as f:
            f.writelines(",".join(str(v) for v in row) + "\n" for row in gt_rows)
        with open(os.path.join(folder, "results", name + ".txt"), "w") as f:
            f.writelines(",".join(str(v) for v in row) + "\n" for row in tr_rows)
    return mot(os.path.join(folder, "gt"), os.path.join(folder, "results"), mot17)


def mot(gt_folder, results_folder, mot17):
    import trackeval
    names = sorted(n[:-4] for n in os.listdir(gt_folder) if n.endswith(".txt"))

    def last_frame(path):
        with open(path) as f:
            return max([int(float(line.split(",")[0])) for line in f if line.strip()] or [0])
    lengths = {n: max(last_frame(os.path.join(gt_folder, n + ".txt")),
                      last_frame(os.path.join(results_folder, n + ".txt"))) for n in names}
    # TrackEval's trackers folder layout: TRACKERS_FOLDER/TRACKER/SUB/SEQ.txt; the results folder is TRACKER.
    config = {
        "GT_FOLDER": gt_folder, "TRACKERS_FOLDER": os.path.dirname(os.path.abspath(results_folder)),
        "TRACKERS_TO_EVAL": [os.path.basename(os.path.abspath(results_folder))], "TRACKER_SUB_FOLDER": "",
        "SKIP_SPLIT_FOL": True, "GT_LOC_FORMAT": "{gt_folder}/{seq}.txt", "SEQ_INFO": lengths,
        "BENCHMARK": "MOT17", "DO_PREPROC": mot17, "PRINT_CONFIG": False, "OUTPUT_FOLDER": gt_folder,
    }
    dataset = trackeval.datasets.MotChallenge2DBox(config)
    metrics = [trackeval.metrics.HOTA(), trackeval.metrics.CLEAR({"PRINT_CONFIG": False}),
               trackeval.metrics.Identity({"PRINT_CONFIG": False})]
    tracker = config["TRACKERS_TO_EVAL"][0]
    per_sequence = {}
    for name in names:
        raw = dataset.get_raw_seq_data(tracker, name)
        data = dataset.get_preprocessed_seq_data(raw, "pedestrian")
        per_sequence[name] = {m.get_name(): m.eval_sequence(data) for m in metrics}

    def summary(res):
        h, c, i = res["HOTA"], res["CLEAR"], res["Identity"]
        return {"HOTA": float(np.mean(h["HOTA"])), "DetA": float(np.mean(h["DetA"])), "AssA": float(np.mean(h["AssA"])),
                "DetRe": float(np.mean(h["DetRe"])), "DetPr": float(np.mean(h["DetPr"])),
                "AssRe": float(np.mean(h["AssRe"])), "AssPr": float(np.mean(h["AssPr"])),
                "LocA": float(np.mean(h["LocA"])), "MOTA": float(c["MOTA"]), "MOTP": float(c["MOTP"]),
                "IDF1": float(i["IDF1"]), "IDP": float(i["IDP"]), "IDR": float(i["IDR"]), "IDSW": int(c["IDSW"]),
                "FP": int(c["CLR_FP"]), "FN": int(c["CLR_FN"]), "TP": int(c["CLR_TP"]), "IDTP": int(i["IDTP"]),
                "IDFP": int(i["IDFP"]), "IDFN": int(i["IDFN"]), "MT": int(c["MT"]), "PT": int(c["PT"]),
                "ML": int(c["ML"]), "Frag": int(c["Frag"])}
    combined = {m.get_name(): m.combine_sequences({n: per_sequence[n][m.get_name()] for n in names}) for m in metrics}
    result = summary(combined)
    result["sequences"] = {n: summary(per_sequence[n]) for n in names}
    return result


def main(argv):
    command = argv[1]
    if command == "coco-make":
        result = coco_make(int(argv[2]), argv[3], "--ids-per-image" in argv)
    elif command == "coco":
        result = coco(argv[2], argv[3])
    elif command == "mot-make":
        result = mot_make(int(argv[2]), argv[3], "--mot17" in argv)
    elif command == "mot":
        result = mot(argv[2], argv[3], "--mot17" in argv)
    else:
        raise SystemExit(f"unknown command {command}")
    with contextlib.redirect_stdout(sys.__stdout__):
        print(json.dumps(result))


if __name__ == "__main__":
    with contextlib.redirect_stdout(sys.stderr):  # TrackEval prints progress; only the result goes to stdout
        main(sys.argv)

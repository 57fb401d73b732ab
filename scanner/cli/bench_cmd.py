"""``handfoot bench …``: speed measured as medians over repeated runs, never as timed tests."""

from __future__ import annotations

import argparse
import math
import os
import resource
import statistics
import sys
import time
from pathlib import Path

from scanner.cli.common import EXIT_OK, CommandError, print_json
from scanner.cli.cpu import FEATURES, this_cpu
from scanner.cli.deck_cmd import add_deck_argument
from scanner.cli.scan_cmd import add_turns_argument, load_recogniser
from scanner.cli.synth_cmd import frame_size


def register(subcommands: argparse._SubParsersAction) -> None:
    parser = subcommands.add_parser(
        "bench", help="measure speed: bench synth, bench scan, bench pipeline"
    )
    targets = parser.add_subparsers(dest="target", metavar="TARGET", required=True)
    synth = targets.add_parser(
        "synth",
        help="scenes per second on one core",
        description="Render scenes on one core after a warm-up (faces and tables are drawn "
        "once per process and cached) and report the median time per scene.",
    )
    synth.add_argument("--count", type=int, default=60, help="scenes measured (default 60)")
    synth.add_argument(
        "--warmup", type=int, default=5, help="scenes rendered after the caches fill (default 5)"
    )
    synth.add_argument("--size", type=frame_size, default=(1280, 960), help="frame WxH")
    synth.add_argument("--seed", type=int, default=12345)
    synth.add_argument("--json", action="store_true", help="print the figures as JSON")
    synth.set_defaults(run=bench_synth)

    scan = targets.add_parser(
        "scan",
        help="recogniser time per frame",
        description=f"Render COUNT scenes with at least {SCAN_MIN_CARDS} countable cards (in a "
        "separate process, so its memory is not counted), load the models once, and report the "
        "median and p90 time of one read, the median of each of its stages, the load and warm-up "
        "time and the peak memory.",
    )
    scan.add_argument("--count", type=int, default=20, help="frames measured (default 20)")
    scan.add_argument("--size", type=frame_size, default=(1280, 960), help="frame WxH")
    scan.add_argument("--seed", type=int, default=12345)
    scan.add_argument("--threads", type=int, default=1, help="threads per model (default 1)")
    scan.add_argument("--models", type=Path, metavar="DIR", help="folder with the .onnx files")
    add_turns_argument(scan)
    add_deck_argument(scan)
    scan.add_argument("--json", action="store_true", help="print the figures as JSON")
    scan.set_defaults(run=bench_scan)

    pipeline = targets.add_parser(
        "pipeline",
        help="trigger-to-result time of a table scan",
        description="Scan COUNT tables from the synthetic camera (each a new table, each scan "
        "--frames shots of it: capture, read, vote, group, score) after one warm-up scan, and "
        "report the median and p90 time from trigger to result.",
    )
    pipeline.add_argument("--count", type=int, default=10, help="scans measured (default 10)")
    pipeline.add_argument("--frames", type=int, default=3, help="frames per scan (default 3)")
    pipeline.add_argument("--size", type=frame_size, default=(1280, 960), help="frame WxH")
    pipeline.add_argument("--seed", type=int, default=2024)
    pipeline.add_argument("--rules", default="pagat", help="preset or rules file (pagat)")
    pipeline.add_argument("--threads", type=int, default=1, help="threads per model (default 1)")
    pipeline.add_argument("--models", type=Path, metavar="DIR", help="folder with the models")
    add_turns_argument(pipeline)
    pipeline.add_argument("--json", action="store_true", help="print the figures as JSON")
    pipeline.set_defaults(run=bench_pipeline)


SCAN_MIN_CARDS = 40  # a busy table: the frames a read must be fast on
SCAN_TRIES = 10  # scenes rendered per frame wanted, at most


def one_core() -> None:
    """Keep OpenCV (and any BLAS) on one thread, so figures compare across machines."""
    import cv2

    cv2.setNumThreads(1)
    for name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[name] = "1"


def bench_synth(args: argparse.Namespace) -> int:
    if args.count < 1 or args.warmup < 0:
        raise CommandError("--count must be at least 1 and --warmup at least 0")
    one_core()
    from model.synth.scene import render_scene, warm_up

    started = time.perf_counter()
    warm_up()
    for index in range(args.warmup):
        render_scene(args.seed + 1, index, size=args.size)
    warmup_s = time.perf_counter() - started
    times = []
    for index in range(args.count):
        start = time.perf_counter()
        render_scene(args.seed, index, size=args.size)
        times.append(time.perf_counter() - start)
    median = statistics.median(times)
    result = {
        "size": f"{args.size[0]}x{args.size[1]}",
        "scenes": args.count,
        "median_ms": round(median * 1000, 1),
        "p90_ms": _p90_ms(times),
        "scenes_per_s": round(1 / median, 2),
        "warmup_s": round(warmup_s, 1),
    }
    if args.json:
        print_json(result)
    else:
        print(
            f"synth {result['size']}, one core: median {result['median_ms']} ms per scene "
            f"({result['scenes_per_s']} scenes/s), p90 {result['p90_ms']} ms; "
            f"warm-up (every face, table and prop drawn once) {result['warmup_s']} s"
        )
    return EXIT_OK


def _busy_scene(seed: int, index: int, size: tuple[int, int]) -> tuple[bytes, int]:
    """Scene ``index`` as JPEG bytes and its number of countable cards (runs in a child).
    Drawn from the test split: its scenes stay the same when designs are added for training
    (twice the training split's changed the bench's frames, and its figures with them)."""
    from model.synth.scene import render_scene

    scene = render_scene(seed, index, split="test", size=size)
    cards = scene.labels["cards"]
    return scene.jpeg, sum(any(i["visible"] for i in card["indices"]) for card in cards)


def _busy_frames(args: argparse.Namespace) -> list[tuple[bytes, int]]:
    import multiprocessing

    frames = []
    context = multiprocessing.get_context("spawn")  # the renderer's caches stay in the child
    with context.Pool(1) as pool:
        jobs = ((args.seed, index, args.size) for index in range(args.count * SCAN_TRIES))
        for jpeg, cards in pool.imap(_busy_scene_star, jobs):
            if cards >= SCAN_MIN_CARDS:
                frames.append((jpeg, cards))
                if len(frames) == args.count:
                    return frames
    raise CommandError(
        f"only {len(frames)} of {args.count * SCAN_TRIES} scenes showed {SCAN_MIN_CARDS} cards; "
        "try a larger --size"
    )


def _busy_scene_star(job: tuple[int, int, tuple[int, int]]) -> tuple[bytes, int]:
    return _busy_scene(*job)


def _p90_ms(seconds: list[float]) -> float:
    """The 90th percentile (nearest rank) of times in seconds, in milliseconds."""
    return round(sorted(seconds)[math.ceil(0.9 * len(seconds)) - 1] * 1000, 1)


def _stage_words(result: dict) -> str:
    medians = result["stage_median_ms"]
    return "medians: " + ", ".join(f"{stage} {ms}" for stage, ms in medians.items())


def _cpu_words(result: dict) -> str:
    features = ", ".join(result["cpu_features"]) or "none of " + ", ".join(FEATURES)
    return f"CPU {result['cpu']} ({features})"


def _peak_mb() -> float:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 2**20 if sys.platform == "darwin" else peak / 2**10  # bytes vs KiB


def bench_scan(args: argparse.Namespace) -> int:
    if args.count < 1 or args.threads < 1:
        raise CommandError("--count and --threads must be at least 1")
    one_core()
    import cv2
    import numpy as np

    from scanner.vision.recogniser import STAGE_NAMES

    frames = _busy_frames(args)
    started = time.perf_counter()
    recogniser = load_recogniser(args)
    load_s = time.perf_counter() - started
    times, stages, read, scaled = [], [], 0, 0
    for jpeg, _ in frames:
        bgr = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
        frame = cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)
        start = time.perf_counter()
        reading = recogniser.read(frame)
        times.append(time.perf_counter() - start)
        stages.append(reading.timing_ms)
        read += len(reading.cards)
        scaled += reading.scale != 1.0
    result = {
        "size": f"{args.size[0]}x{args.size[1]}",
        "frames": len(frames),
        "threads": args.threads,
        "turns": args.turns,
        "countable_cards_mean": round(statistics.mean(cards for _, cards in frames), 1),
        "cards_read_mean": round(read / len(frames), 1),
        "frames_scaled": scaled,
        "models": list(recogniser.files),
        "median_ms": round(statistics.median(times) * 1000, 1),
        "p90_ms": _p90_ms(times),
        # where a read's time goes: the median of each stage over the frames says which stage
        # a change made faster, where the median frame alone would not
        "stage_median_ms": {
            stage: round(statistics.median(timing[stage] for timing in stages), 1)
            for stage in STAGE_NAMES
        },
        "load_s": round(load_s, 2),
        "peak_rss_mb": round(_peak_mb(), 1),
        **this_cpu(),
    }
    if args.json:
        print_json(result)
    else:
        print(
            f"scan {result['size']}, {args.threads} thread(s), {args.turns} turn(s), "
            f"{result['frames']} frames of "
            f"{result['countable_cards_mean']} countable cards on average "
            f"({result['cards_read_mean']} read), {scaled} read scaled up (their indices small): "
            f"median {result['median_ms']} ms per frame ({_stage_words(result)}), "
            f"p90 {result['p90_ms']} ms; models loaded and warmed up in {result['load_s']} s; "
            f"peak memory {result['peak_rss_mb']} MB ({', '.join(recogniser.files)}); "
            f"{_cpu_words(result)}"
        )
    return EXIT_OK


def bench_pipeline(args: argparse.Namespace) -> int:
    if min(args.count, args.frames, args.threads) < 1:
        raise CommandError("--count, --frames and --threads must be at least 1")
    one_core()
    from scanner.camera import CameraError, open_source
    from scanner.rules_files import load_rules
    from scanner.table.modes import Mode
    from scanner.table.scan import ScanSettings, scan_source

    recogniser = load_recogniser(args)
    settings = ScanSettings(Mode.TABLE, load_rules(args.rules), frames=args.frames)
    times, capture, read, cards = [], [], [], []
    try:
        with open_source(f"synthetic:{args.seed}", size=args.size, deck="standard") as source:
            scan_source(source, recogniser, settings)  # the renderer fills its caches
            for _ in range(args.count):
                source.advance()
                started = time.perf_counter()
                scan = scan_source(source, recogniser, settings)
                times.append(time.perf_counter() - started)
                capture.append(scan.timing_ms["capture"])
                read.append(scan.timing_ms["read"])
                cards.append(len(scan.vote.cards))
    except CameraError as error:
        raise CommandError(str(error)) from None
    result = {
        "size": f"{args.size[0]}x{args.size[1]}",
        "scans": args.count,
        "frames": args.frames,
        "turns": args.turns,
        "cards_mean": round(statistics.mean(cards), 1),
        "median_ms": round(statistics.median(times) * 1000, 1),
        "p90_ms": _p90_ms(times),
        "capture_median_ms": round(statistics.median(capture), 1),
        "read_median_ms": round(statistics.median(read), 1),
        "peak_rss_mb": round(_peak_mb(), 1),
        **this_cpu(),
    }
    if args.json:
        print_json(result)
    else:
        print(
            f"pipeline {result['size']}, {args.frames} frames per table scan, "
            f"{args.turns} turn(s), "
            f"{result['cards_mean']} cards on average: median {result['median_ms']} ms from "
            f"trigger to result, p90 {result['p90_ms']} ms (capturing the synthetic frames "
            f"{result['capture_median_ms']} ms, reading them {result['read_median_ms']} ms); "
            f"peak memory {result['peak_rss_mb']} MB; {_cpu_words(result)}"
        )
    return EXIT_OK

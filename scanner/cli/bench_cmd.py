"""``handfoot bench …``: speed measured as medians over repeated runs, never as timed tests."""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time

from scanner.cli.common import EXIT_OK, CommandError
from scanner.cli.synth_cmd import frame_size


def register(subcommands: argparse._SubParsersAction) -> None:
    parser = subcommands.add_parser("bench", help="measure speed: bench synth")
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
        "p90_ms": round(sorted(times)[int(0.9 * (len(times) - 1))] * 1000, 1),
        "scenes_per_s": round(1 / median, 2),
        "warmup_s": round(warmup_s, 1),
    }
    if args.json:
        print(json.dumps(result))
    else:
        print(
            f"synth {result['size']}, one core: median {result['median_ms']} ms per scene "
            f"({result['scenes_per_s']} scenes/s), p90 {result['p90_ms']} ms; "
            f"warm-up (every face, table and prop drawn once) {result['warmup_s']} s"
        )
    return EXIT_OK

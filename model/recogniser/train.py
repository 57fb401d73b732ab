"""Training the models on the CPU, reproducibly, in steps that survive being cut off: the
command line. ``python -m model.recogniser.train --help`` lists the stages; ``make model`` runs
them all: cut, the locator's first round, mining, the classifier, the locator's warm restarts,
(given ``--grow-steps``) the grown locator, export, then the verifier (``verify.py``), the
refiner (``refine.py``) and the wider classifier (``train_and_export_wider``), mined with the
exported locator, and the face reader (``faces.py``), from the labels alone.
``--classifier-from`` and ``--grow-from`` start from a shipped ONNX model instead
(``onnx_weights.py``). Each model trains in the shared loop (``loop.py``); the locator's and the
classifier's own training is in ``locator.py`` and ``classifier.py``.
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

import torch

from model.recogniser.classifier import merge_crops, train_classifier
from model.recogniser.dataset import cut_classifier_samples, cut_locator_parts
from model.recogniser.locator import (
    Teaching,
    cut_folded_samples,
    fold_locator,
    grow_locator,
    merge_samples,
    train_locator,
    tune_locator,
)
from model.recogniser.targets import PEAKS


def train_and_export_verifier(args: argparse.Namespace) -> None:
    """Mine the verifier's crops with the exported locator (the finished one: the verifier
    judges the marks inference makes), train it, export it beside the other two."""
    from model.recogniser.export import export_verifier
    from model.recogniser.verify import mine_verifier_samples, train_verifier

    samples = args.work / "verifier-samples.npz"
    if not samples.exists():
        locator = args.verify_with or args.out / "locator.onnx"
        mine_verifier_samples(args.scenes, locator, samples, seed=args.seed)
    steps = (args.verifier_steps, args.batch * 8, args.seed)
    train_verifier(samples, args.work, *steps, args.device, args.workers)
    export_verifier(args.work, args.out)


def train_and_export_refiner(args: argparse.Namespace) -> None:
    """Cut the refiner's drawn misses from the scenes' labels and mine the exported locator's
    own marks (the finished one, as for the verifier), train it, export it beside the others."""
    from model.recogniser.export import export_refiner
    from model.recogniser.refine import cut_refiner_samples, mine_refiner_samples, train_refiner

    samples, mined = args.work / "refiner-samples.npz", args.work / "refiner-mined.npz"
    if not samples.exists():
        cut_refiner_samples([args.scenes], samples, seed=args.seed)
    if not mined.exists():
        mine_refiner_samples(args.scenes, args.verify_with or args.out / "locator.onnx", mined)
    steps = (args.refiner_steps, args.batch * 8, args.seed)
    train_refiner(samples, args.work, *steps, mined, args.device, args.workers)
    export_refiner(args.work, args.out)


def train_and_export_face_reader(args: argparse.Namespace) -> None:
    """Cut the face reader's faces from the scenes' labels (``faces.py``), train it, export it
    beside the others."""
    from model.recogniser.export import export_face_reader
    from model.recogniser.faces import cut_face_samples, train_face_reader

    samples = args.work / "face-samples.npz"
    if not samples.exists():
        cut_face_samples(args.scenes, samples, seed=args.seed)
    steps = (args.face_steps, args.batch * 8, args.seed)
    train_face_reader(samples, args.work, *steps, args.device, args.workers)
    export_face_reader(args.work, args.out)


def train_and_export_wider(args: argparse.Namespace) -> None:
    """Cut the wider classifier's crops (``contract.py``) around the scenes' labelled indices,
    mine them at the exported locator's marks (the finished one, as for the verifier), train
    it as the classifier is trained, export it beside the others. No crops half beside an
    index are cut as "not an index": a crop this tall, so moved, still holds the index (the
    wider classifier picks a card, never whether it is one)."""
    from model.recogniser.export import export_wider
    from model.recogniser.mine import mine_classifier_samples
    from model.recogniser.targets import WIDER

    samples, mined = args.work / "wider-samples.npz", args.work / "wider-mined.npz"
    if not samples.exists():
        cut_classifier_samples(args.scenes, samples, seed=args.seed, crop=WIDER, aside=0.0)
    if not mined.exists():
        locator = args.verify_with or args.out / "locator.onnx"
        mine_classifier_samples(args.scenes, locator, mined, wider=True)
    batch = args.batch * 8
    steps = (args.wider_steps, batch, args.seed)
    train_classifier(
        samples, args.work, *steps, mined, name="wider", device=args.device, workers=args.workers
    )
    export_wider(args.work, args.out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m model.recogniser.train")
    parser.add_argument(
        "stage",
        choices=(
            "cut",
            "locator",
            "mine",
            "classifier",
            "grow",
            "tune",
            "fold",
            "verifier",
            "refiner",
            "wider",
            "face",
            "export",
            "average",
            "quantize",
            "all",
        ),
    )
    parser.add_argument("--scenes", type=Path, required=True, help="a folder of `handfoot synth`")
    parser.add_argument("--work", type=Path, required=True, help="samples and checkpoints")
    parser.add_argument(
        "--out",
        type=Path,
        default=Path(__file__).resolve().parent.parent,
        help="where the exported models are written; `tune` and `fold` write their locator "
        "there as locator.onnx (default: model/, the shipped models)",
    )
    parser.add_argument("--locator-steps", type=int, default=20000)
    parser.add_argument(
        "--locator-more",
        type=int,
        nargs="*",
        default=[24000],
        help="steps of each warm restart after --locator-steps (0 restarts: none given)",
    )
    parser.add_argument(
        "--grow-steps",
        type=int,
        default=0,
        help="steps of the fine locator after the restarts (default 0: not grown, see grow.py)",
    )
    parser.add_argument(
        "--grow-from",
        type=Path,
        help="the ONNX locator to grow (default: the trained one in --work)",
    )
    parser.add_argument(
        "--tune-steps",
        type=int,
        default=4000,
        help="steps of `tune` (see tune_locator), and of `fold`",
    )
    parser.add_argument(
        "--tune-from",
        type=Path,
        default=Path(__file__).resolve().parent.parent / "locator.onnx",
        help="the ONNX locator `tune` goes on from (default: the shipped one)",
    )
    parser.add_argument(
        "--real",
        type=Path,
        action="append",
        default=[],
        metavar="FILE.npz",
        help="`tune`, `locator`, `grow`, `all`: locator samples cut from labelled real photos "
        "(python -m model.recogniser.real_marks), mixed with the rendered scenes' (repeat for "
        "more files)",
    )
    parser.add_argument(
        "--window",
        type=int,
        default=0,
        help="every stage that trains the locator: train on a window of this many px drawn in "
        "each sample crop, a multiple of 4 (default 0: the whole crop); 128 of 192 is about "
        "twice as fast a step",
    )
    parser.add_argument(
        "--real-crops",
        type=Path,
        action="append",
        default=[],
        metavar="FILE.npz",
        help="`classifier`, `all`: index crops cut from labelled real photos (python -m "
        "model.recogniser.real_crops), mixed with the rendered scenes' (repeat for more files)",
    )
    parser.add_argument(
        "--real-share",
        type=float,
        default=0.5,
        help="with --real (`tune`, `locator`, `grow`, `all`) and --real-crops (`classifier`, "
        "`all`): the share of the crops drawn from real photos (default 0.5)",
    )
    parser.add_argument(
        "--recolour",
        type=float,
        default=0.0,
        help="the classifier's and the locator's stages: the share of every batch seen dull, "
        "grey or under a colour cast, labels kept (default 0)",
    )
    parser.add_argument(
        "--small-focus",
        type=float,
        default=1.0,
        help="`tune`: crops holding an index under 6 px on its short side drawn this many "
        "times as often (default 1: as any other)",
    )
    parser.add_argument(
        "--peaks",
        choices=PEAKS,
        default="round",
        help="every stage that trains the locator: the heat peak taught round an index centre: "
        "round, as wide as the index is tall (every shipped locator), or oval, as wide and "
        "tall as the index (default round)",
    )
    parser.add_argument(
        "--fold",
        type=float,
        default=1.0,
        help="`fold`: weight of the divergence of one pass's heat from the mean of four turns "
        "(default 1)",
    )
    parser.add_argument(
        "--classifier-from",
        type=Path,
        help="an ONNX classifier to go on training instead of starting from scratch",
    )
    parser.add_argument("--classifier-steps", type=int, default=6000)
    parser.add_argument(
        "--distil",
        type=float,
        default=0.0,
        help="with --classifier-from: weight of the new model's divergence from that one's "
        "class probabilities (default 0: none)",
    )
    parser.add_argument(
        "--verifier-steps", type=int, default=3000, help="(0: `all` trains no verifier)"
    )
    parser.add_argument(
        "--refiner-steps", type=int, default=8000, help="(0: `all` trains no refiner)"
    )
    parser.add_argument(
        "--wider-steps", type=int, default=5000, help="(0: `all` trains no wider classifier)"
    )
    parser.add_argument(
        "--face-steps", type=int, default=2500, help="(0: `all` trains no face reader)"
    )
    parser.add_argument(
        "--verify-with",
        type=Path,
        help="`verifier`, `refiner`, `wider`: the ONNX locator whose marks they learn from "
        "(default: --out's)",
    )
    parser.add_argument(
        "--average-from",
        type=Path,
        nargs="+",
        default=[],
        metavar="FILE.onnx",
        help="`average`: the models the exported ones in --out were trained on from; each is "
        "averaged with the file of its kind in --out (see average.py)",
    )
    parser.add_argument(
        "--average-share",
        type=float,
        default=0.5,
        help="`average`: the share of the models in --out, weight by weight (default 0.5)",
    )
    parser.add_argument(
        "--calibration-scenes",
        type=int,
        default=40,
        help="`quantize`: the first scenes of --scenes whose crops set the int8 models' ranges "
        "(default 40; 0: `all` makes no int8 models)",
    )
    parser.add_argument("--batch", type=int, default=24)
    parser.add_argument("--crops-per-scene", type=int, default=12, help="locator crops per scene")
    parser.add_argument(
        "--cut-parts",
        type=int,
        default=1,
        help="`cut`, `all`: the scenes dealt into this many parts, part k's locator crops cut "
        "with --seed + k, every core cutting one part at a time (default 1: one part, --seed); "
        "the crops depend on the parts, not on the cores",
    )
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1)
    parser.add_argument(
        "--device",
        default="cpu",
        help="where every stage that trains a model trains, e.g. cuda on a machine with an "
        "accelerator (default cpu; mining and cutting samples run on the CPU)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=0,
        help="every stage that trains a model: processes that draw its batches ahead of the "
        "model, the same batches as drawn in one (default 0: drawn in one)",
    )
    args = parser.parse_args(argv)
    if args.small_focus <= 0:
        parser.error(f"--small-focus is a positive factor, not {args.small_focus}")
    if args.fold < 0:
        parser.error(f"--fold is a weight of 0 or more, not {args.fold}")
    if args.window < 0 or args.window % 4:
        parser.error(f"--window is a multiple of 4 px, not {args.window}")
    if not 0 <= args.real_share <= 1:
        parser.error(f"--real-share is a share between 0 and 1, not {args.real_share}")
    if not 0 <= args.recolour <= 1:
        parser.error(f"--recolour is a share between 0 and 1, not {args.recolour}")
    if args.cut_parts < 1:
        parser.error(f"--cut-parts is a count of 1 or more, not {args.cut_parts}")
    if args.workers < 0:
        parser.error(f"--workers is a count of 0 or more, not {args.workers}")
    try:
        where = torch.device(args.device)
    except RuntimeError:
        parser.error(f"--device {args.device!r} is not a device: cpu, cuda or cuda:N")
    if where.type == "cuda" and not torch.cuda.is_available():
        parser.error(f"--device {args.device}: this machine has no CUDA accelerator")
    if args.distil > 0 and args.classifier_from is None:
        parser.error(
            "--distil keeps a classifier near the one it goes on from: give --classifier-from"
        )
    torch.set_num_threads(args.threads)
    args.work.mkdir(parents=True, exist_ok=True)
    locator_samples = args.work / "locator-samples.npz"
    classifier_samples = args.work / "classifier-samples.npz"
    started = time.perf_counter()
    if args.stage in ("cut", "all"):
        if not locator_samples.exists():
            cut_locator_parts(
                args.scenes,
                locator_samples,
                args.cut_parts,
                per_scene=args.crops_per_scene,
                seed=args.seed,
                processes=os.cpu_count() or 1,
            )
        if not classifier_samples.exists():
            cut_classifier_samples(args.scenes, classifier_samples, seed=args.seed)
    more = tuple(n for n in args.locator_more if n > 0)
    located_on, real_share = locator_samples, 0.0
    if args.real and args.stage in ("locator", "all", "grow", "tune"):
        # the real photos' crops beside the rendered ones (flagged, drawn --real-share of the
        # time), in every stage that trains the locator on the scenes' crops
        located_on = merge_samples([locator_samples, *args.real], args.work / "locator-real.npz")
        real_share = args.real_share
    locate = (located_on, args.work, args.locator_steps, args.batch, args.seed)
    teaching = Teaching(args.peaks, args.device, args.workers, args.window, args.recolour)
    if args.stage == "locator":
        train_locator(*locate, more, teaching, real_share)
    elif args.stage == "all":
        # The classifier learns from the marks of the locator at the end of its first round:
        # its false marks are more varied than the finished locator's, and a classifier mined
        # from them lets fewer phantoms through (measured: 95 against 140 on 60 validation
        # scenes). The warm restarts come after.
        train_locator(*locate, teaching=teaching, real_share=real_share)
    mined = args.work / "classifier-mined.npz"
    if args.stage in ("mine", "all") and not mined.exists():
        # The classifier learns from the trained locator's own marks: export the locator
        # first, run it over the scenes, label each mark against the truth.
        from model.recogniser.export import export_locator
        from model.recogniser.mine import mine_classifier_samples

        located = export_locator(args.work, args.work / "located")
        mine_classifier_samples(args.scenes, located, mined)
    if args.stage in ("classifier", "all"):
        train_classifier(
            classifier_samples,
            args.work,
            args.classifier_steps,
            args.batch * 8,
            args.seed,
            mined if mined.exists() else None,
            args.classifier_from,
            args.distil,
            device=args.device,
            workers=args.workers,
            real=merge_crops(args.real_crops, args.work / "classifier-real.npz"),
            real_share=args.real_share if args.real_crops else 0.0,
            recoloured=args.recolour,
        )
    if args.stage == "all" and more:
        train_locator(*locate, more, teaching, real_share)
    if args.stage == "grow" or (args.stage == "all" and args.grow_steps > 0):
        start = args.grow_from
        if start is None:
            from model.recogniser.export import export_locator

            start = export_locator(args.work, args.work / "restarted")
        grow = (located_on, args.work, args.grow_steps, args.batch, args.seed, start)
        grow_locator(*grow, teaching, real_share)
    if args.stage == "tune":
        from model.recogniser.export import export_locator

        tune_locator(
            located_on,
            args.work,
            args.tune_steps,
            args.batch,
            args.seed,
            args.tune_from,
            args.small_focus,
            teaching,
            real_share,
        )
        export_locator(args.work, args.out, "locator-tuned")
    if args.stage == "fold":
        from model.recogniser.export import export_locator

        folded_samples = args.work / "locator-folded-samples.npz"
        if not folded_samples.exists():
            cut_folded_samples(
                args.scenes, folded_samples, args.tune_from, args.crops_per_scene, args.seed
            )
        fold_locator(
            folded_samples,
            args.work,
            args.tune_steps,
            args.batch,
            args.seed,
            args.tune_from,
            args.fold,
            teaching,
        )
        export_locator(args.work, args.out, "locator-folded")
    if args.stage in ("export", "all"):
        from model.recogniser.export import export_all

        export_all(args.work, args.out)
    if args.stage == "verifier" or (args.stage == "all" and args.verifier_steps > 0):
        train_and_export_verifier(args)
    if args.stage == "refiner" or (args.stage == "all" and args.refiner_steps > 0):
        train_and_export_refiner(args)
    if args.stage == "wider" or (args.stage == "all" and args.wider_steps > 0):
        train_and_export_wider(args)
    if args.stage == "face" or (args.stage == "all" and args.face_steps > 0):
        train_and_export_face_reader(args)
    if args.stage == "average":
        from model.recogniser.average import average_onnx, kind_of

        if not args.average_from:
            parser.error("`average` needs --average-from: the models those in --out went on from")
        for start in args.average_from:
            exported = args.out / f"{kind_of(start)}.onnx"
            average_onnx(start, exported, exported, args.average_share)
    if args.stage == "quantize" or (args.stage == "all" and args.calibration_scenes > 0):
        from model.recogniser.quantize import quantize_models

        for done in quantize_models(args.scenes, args.out, args.calibration_scenes, args.seed):
            print(
                f"{done.path.name}: decides as the float model on {done.agreement:.2%} of "
                f"{done.checked} crops (a probability changed by at most "
                f"{done.largest_change:.3f})"
            )
    print(f"{args.stage} done in {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

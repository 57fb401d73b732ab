"""The CPU a benchmark ran on, as its figures need it: a frame's time, and whether an int8
model's sums run in 16 or 32 bits, hang on its vector instructions (model/README.md, Speed;
model/experiments/int8-twins.md)."""

from __future__ import annotations

import os
import platform
from pathlib import Path

# The instructions onnxruntime's kernels are chosen by: AVX2 and AVX-512 for floats, VNNI for
# int8 sums in 32 bits on x86; NEON (asimd) and its dot product (asimddp) on a Pi's ARM cores.
FEATURES = ("avx2", "avx512f", "avx512_vnni", "avx_vnni", "asimd", "asimddp")
CPUINFO = Path("/proc/cpuinfo")


def describe(cpuinfo: str) -> dict[str, object]:
    """The CPU's name and which of FEATURES it has, from the text of Linux's /proc/cpuinfo:
    {"cpu": name, "cpu_features": [...]} (an x86 CPU names itself in "model name" and lists
    "flags"; an ARM one, as a Pi's, gives "Model" or "CPU part" and "Features")."""
    fields: dict[str, str] = {}
    for line in cpuinfo.splitlines():
        key, colon, value = line.partition(":")
        if colon:
            fields.setdefault(key.strip().lower(), value.strip())
    name = fields.get("model name") or fields.get("model") or fields.get("cpu part") or ""
    flags = set((fields.get("flags") or fields.get("features") or "").split())
    return {"cpu": name or platform.processor() or platform.machine(),
            "cpu_features": [feature for feature in FEATURES if feature in flags]}  # fmt: skip


def this_cpu() -> dict[str, object]:
    """``describe`` for the machine this runs on (where there is no /proc/cpuinfo, its name as
    Python's platform module gives it, and no features known)."""
    try:
        return describe(CPUINFO.read_text(errors="replace"))
    except OSError:
        return describe("")


def usable_cores() -> int:
    """How many cores this process may run on: those the system lets it use where it says
    (a container or ``taskset`` may give fewer than the machine has), else all of them."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on Linux
        return os.cpu_count() or 1

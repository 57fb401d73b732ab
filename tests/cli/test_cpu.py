"""The CPU a benchmark names: its figures hang on the CPU's vector instructions."""

import json

from scanner.cli import cpu

X86 = """processor\t: 0
vendor_id\t: GenuineIntel
cpu family\t: 6
model\t\t: 85
model name\t: Intel(R) Xeon(R) Gold 6230 CPU @ 2.10GHz
flags\t\t: fpu sse sse2 avx fma avx2 avx512f avx512bw avx512_vnni

processor\t: 1
model name\t: Intel(R) Xeon(R) Gold 6230 CPU @ 2.10GHz
flags\t\t: fpu sse sse2 avx fma avx2 avx512f avx512bw avx512_vnni
"""

PI_4 = """processor\t: 0
BogoMIPS\t: 108.00
Features\t: fp asimd evtstrm crc32 cpuid
CPU implementer\t: 0x41
CPU part\t: 0xd08

Hardware\t: BCM2835
Model\t\t: Raspberry Pi 4 Model B Rev 1.4
"""


def test_an_x86_cpu_is_named_by_its_model_name_and_flags():
    assert cpu.describe(X86) == {
        "cpu": "Intel(R) Xeon(R) Gold 6230 CPU @ 2.10GHz",
        "cpu_features": ["avx2", "avx512f", "avx512_vnni"],
    }


def test_a_pi_is_named_by_its_board_and_neon_without_the_dot_product():
    assert cpu.describe(PI_4) == {
        "cpu": "Raspberry Pi 4 Model B Rev 1.4",
        "cpu_features": ["asimd"],
    }


def test_a_cpu_without_cpuinfo_is_still_named(tmp_path, monkeypatch):
    monkeypatch.setattr(cpu, "CPUINFO", tmp_path / "missing")
    described = cpu.this_cpu()
    assert isinstance(described["cpu"], str) and described["cpu"]
    assert described["cpu_features"] == []


def test_bench_scan_says_which_cpu_it_measured(cli):
    result = cli("bench", "scan", "--count", "1", "--size", "640x480", "--turns", "1", "--json")
    assert result.code == 0, result.err
    figures = json.loads(result.out)
    assert figures["cpu"] == cpu.this_cpu()["cpu"]
    assert set(figures["cpu_features"]) <= set(cpu.FEATURES)
    assert figures["median_ms"] > 0 and figures["frames"] == 1


def test_the_usable_cores_are_those_this_process_may_run_on():
    import os

    cores = cpu.usable_cores()
    assert 1 <= cores <= (os.cpu_count() or 1)
    if hasattr(os, "sched_getaffinity"):
        assert cores == len(os.sched_getaffinity(0))


def test_serve_reads_on_one_thread_per_core_at_most_four_unless_told(monkeypatch):
    import argparse

    from scanner.cli import serve_cmd

    for cores, threads in ((1, 1), (2, 2), (4, 4), (16, 4)):
        monkeypatch.setattr(serve_cmd, "usable_cores", lambda cores=cores: cores)
        assert serve_cmd.serve_threads(argparse.Namespace(threads=None)) == threads
    assert serve_cmd.serve_threads(argparse.Namespace(threads=7)) == 7

"""The benchmark entry point: one timing helper, one table, ratios to a baseline."""

import json
import re
import subprocess
import sys
from io import StringIO
from pathlib import Path

from cards.games import GAMES
from tools.bench import BENCHMARKS, main, module
from tools.bench.timing import Baseline, Timing, measure, p95

ROOT = Path(__file__).resolve().parents[2]


def test_p95_is_the_nearest_rank_percentile():
    assert p95(list(range(1, 21))) == 19  # rank ceil(0.95 * 20) = 19
    assert p95(list(range(1, 22))) == 20  # rank ceil(19.95) = 20
    assert p95(list(range(19, 0, -1))) == 19  # fewer than 20: the largest
    assert p95([7.0]) == 7.0


def test_a_timing_reports_min_median_and_p95_of_its_samples():
    t = Timing(wall=(0.004, 0.001, 0.003, 0.002), cpu=(0.002, 0.001, 0.001, 0.002))
    assert (t.runs, t.min, t.median, t.p95) == (4, 0.001, 0.0025, 0.004)
    assert (t.cpu_median, t.cpu_p95) == (0.0015, 0.002)
    assert t.text() == "median 2.500 ms, p95 4.000 ms"


def test_measure_calls_the_work_the_runs_after_the_warm_ones():
    calls = []
    t = measure(lambda: calls.append(1), runs=5, warm=2)
    assert len(calls) == 7 and t.runs == 5 and len(t.cpu) == 5


def test_the_baseline_keeps_every_reference_sample_of_the_run():
    baseline = Baseline()
    baseline.take(3)
    baseline.take(4)
    assert len(baseline.samples) == 7
    assert baseline.seconds == sorted(baseline.samples)[3]


def test_every_benchmark_is_a_module_with_arguments_and_rows():
    for name in ("standard", *BENCHMARKS):
        mod = module(name)
        assert callable(mod.add_arguments) and callable(mod.rows), name
        assert mod.__doc__.strip(), name


def test_one_benchmark_runs_end_to_end_and_prints_its_figures():
    """``python -m tools.bench decks`` prints a row per game, a ratio and the baseline."""
    done = subprocess.run(
        [sys.executable, "-m", "tools.bench", "decks", "--runs", "3", "--size", "20"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].split() == ["measure", "figure", "x", "ref", "note"]
    rows = [line for line in lines if line.startswith("validate a ")]
    assert [re.search(r"-card (\S+) deck", r).group(1) for r in rows] == list(GAMES)
    for row in rows:
        assert re.search(r"median [\d.]+ ms, p95 [\d.]+ ms\s+[\d.e-]+\s+CPU", row), row
        assert row.endswith("3 runs")
    assert re.match(r"x ref: .* [\d.]+ ms in this run \(\d+ samples", lines[-1])


def test_flags_alone_run_the_standard_set_and_json_gives_a_row_a_line():
    out = StringIO()
    assert main(["--json", "--only", "search", "--quick"], out=out) == 0
    rows = [json.loads(line) for line in out.getvalue().splitlines()]
    assert rows[0]["name"] == "search parse, 100 terms in 20 nested groups"
    assert rows[0]["ratio"] == rows[0]["seconds"] / rows[0]["reference_seconds"]
    assert list(rows[-1]) == ["reference_seconds"]

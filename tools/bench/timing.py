"""The one timing helper of the benchmarks: repeats, min, median and p95, a baseline.

p95 is the nearest-rank percentile: of n samples sorted, the one at rank
ceil(0.95 * n) (the largest for fewer than 20 samples). Every benchmark times
through ``measure``, ``Clock`` or ``p95`` here, so every p95 printed means that.

The baseline is a fixed pure-Python workload (``reference``) timed before the
first figure and after each one, interleaved with the benchmarks of the run.
A figure's ratio (``x ref``) is its seconds per unit of work over the
reference's median of every sample taken before it in the run, so rows print
as they come. A ratio moves with the code, far less with the machine or its
load: compare ratios between runs, and figures only within one.
"""

import math
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field


def p95(values: list[float]) -> float:
    """Return the nearest-rank 95th percentile of ``values``."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)]


@dataclass(frozen=True)
class Timing:
    """Seconds of repeated runs: wall and CPU samples and their figures."""

    wall: tuple[float, ...]
    cpu: tuple[float, ...]

    @property
    def runs(self) -> int:
        return len(self.wall)

    @property
    def min(self) -> float:
        return min(self.wall)

    @property
    def median(self) -> float:
        return statistics.median(self.wall)

    @property
    def p95(self) -> float:
        return p95(list(self.wall))

    @property
    def cpu_median(self) -> float:
        return statistics.median(self.cpu)

    @property
    def cpu_p95(self) -> float:
        return p95(list(self.cpu))

    def text(self) -> str:
        """Return 'median X ms, p95 Y ms' in milliseconds."""
        return f"median {ms(self.median)}, p95 {ms(self.p95)}"

    def cpu_text(self) -> str:
        """Return the CPU figures (what other work on the machine barely moves)."""
        return f"CPU median {ms(self.cpu_median)}, p95 {ms(self.cpu_p95)}"


def ms(seconds: float) -> str:
    """Return seconds as milliseconds with three significant places or more."""
    value = seconds * 1000
    return f"{value:.3f} ms" if value < 10 else f"{value:.1f} ms"


class Clock:
    """Collect wall and CPU samples of calls timed one by one."""

    def __init__(self):
        self.wall: list[float] = []
        self.cpu: list[float] = []

    def __enter__(self):
        self._start = time.perf_counter()
        self._cpu = time.process_time()
        return self

    def __exit__(self, *exc):
        self.cpu.append(time.process_time() - self._cpu)
        self.wall.append(time.perf_counter() - self._start)
        return False

    def timing(self) -> Timing:
        return Timing(tuple(self.wall), tuple(self.cpu))


def measure(call: Callable[[], object], runs: int, warm: int = 1) -> Timing:
    """Return the timing of ``runs`` calls of ``call`` after ``warm`` untimed ones."""
    for _ in range(warm):
        call()
    clock = Clock()
    for _ in range(max(1, runs)):
        with clock:
            call()
    return clock.timing()


def reference() -> int:
    """Run the fixed reference workload (integer arithmetic, a dict, a sort)."""
    counts: dict[int, int] = {}
    for i in range(20_000):
        key = (i * 7919) % 1009
        counts[key] = counts.get(key, 0) + i
    return sorted(counts.values())[-1]


@dataclass
class Baseline:
    """The reference workload's timings, taken between the benchmarks of one run."""

    samples: list[float] = field(default_factory=list)

    def take(self, runs: int = 15) -> None:
        """Time the reference ``runs`` times and keep the samples."""
        # Wall time, as most figures are: the load that slows both is in both.
        self.samples.extend(measure(reference, runs).wall)

    @property
    def seconds(self) -> float:
        """Return the median seconds of the reference over the run so far."""
        return statistics.median(self.samples)


class BenchError(Exception):
    """A benchmark cannot run (bad arguments, missing data or programs)."""


@dataclass
class Row:
    """One printed figure: what, the figure, a note, and seconds per unit of work.

    ``seconds`` (when the figure is a time) is divided by the baseline for the
    ``x ref`` column; ``data`` is what ``--json`` prints.
    """

    name: str
    figure: str
    note: str = ""
    seconds: float | None = None
    data: dict = field(default_factory=dict)

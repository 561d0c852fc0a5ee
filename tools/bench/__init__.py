"""The benchmarks: one entry point, one timing helper, one table.

    python -m tools.bench                 # the standard set (make bench)
    python -m tools.bench --quick         # the standard set, fewer rounds
    python -m tools.bench bots --pairing search-greedy --game collision
    python -m tools.bench --list          # every benchmark and what it measures

Every benchmark is a module here with ``add_arguments(parser)`` and
``rows(args)``, which yields ``timing.Row``s; this module prints them as one
table with each time's ratio to the reference workload timed in the same run
(``timing.Baseline``), or as JSON lines with ``--json``.
"""

import argparse
import importlib
import json
import sys
from typing import TextIO

from tools.bench.timing import Baseline, BenchError, Row

# Subcommand name -> module; "standard" runs the set `make bench` prints.
BENCHMARKS = {
    "api": "api",
    "bakugan-effects": "bakugan_effects",
    "bots": "bots",
    "costs": "costs",
    "decks": "decks",
    "engines": "engines",
    "playtest": "playtest",
    "proxies": "proxies",
    "queries": "queries",
    "report": "report",
    "reports": "reports",
    "scale": "scale",
    "search": "search",
    "transcribe": "transcribe",
    "words": "words",
}
STANDARD = "standard"
NAME_WIDTH = 52
FIGURE_WIDTH = 32


def module(name: str):
    """Return the module of benchmark ``name``."""
    return importlib.import_module(f"tools.bench.{BENCHMARKS.get(name, name)}")


def parser() -> argparse.ArgumentParser:
    """Return the argument parser: one subcommand per benchmark."""
    top = argparse.ArgumentParser(
        prog="python -m tools.bench",
        description=__doc__.splitlines()[0],
    )
    top.add_argument("--json", action="store_true", help="One JSON object a row.")
    top.add_argument("--list", action="store_true", help="List the benchmarks.")
    subs = top.add_subparsers(dest="benchmark")
    for name in (STANDARD, *BENCHMARKS):
        mod = module(name)
        sub = subs.add_parser(name, help=mod.__doc__.splitlines()[0])
        mod.add_arguments(sub)
    return top


def main(argv: list[str] | None = None, out: TextIO | None = None) -> int:
    """Run the benchmark ``argv`` names (the standard set by default); print rows."""
    out = out or sys.stdout
    argv = list(sys.argv[1:] if argv is None else argv)
    top = parser()
    first = next((i for i, a in enumerate(argv) if a not in ("--json", "--list")), None)
    if first is not None and argv[first] not in (STANDARD, *BENCHMARKS, "-h", "--help"):
        # Flags alone (``--quick``) belong to the standard set.
        argv.insert(first, STANDARD)
    elif first is None:
        argv.append(STANDARD)
    args = top.parse_args(argv)
    if args.list:
        for name in (STANDARD, *BENCHMARKS):
            out.write(f"{name:<16} {module(name).__doc__.splitlines()[0]}\n")
        return 0
    try:
        Table(out, as_json=args.json).print(module(args.benchmark).rows(args))
    except BenchError as error:
        print(f"bench {args.benchmark}: {error}", file=sys.stderr)
        return 2
    return 0


class Table:
    """Print rows as they come, each time with its ratio to the baseline."""

    def __init__(self, out: TextIO, as_json: bool = False):
        self.out, self.as_json = out, as_json
        self.baseline = Baseline()

    def print(self, rows) -> None:
        self.baseline.take()
        if not self.as_json:
            self.write(
                f"{'measure':<{NAME_WIDTH}}  {'figure':<{FIGURE_WIDTH}}  "
                f"{'x ref':>8}  note"
            )
            self.write("-" * (NAME_WIDTH + FIGURE_WIDTH + 30))
        for row in rows:
            self.row(row)
            self.baseline.take()  # interleaved: a reference after each figure
        reference = self.baseline.seconds
        if self.as_json:
            self.write(json.dumps({"reference_seconds": reference}))
        else:
            self.write(
                f"x ref: seconds per unit of work over the reference workload's "
                f"median, {reference * 1000:.3f} ms in this run "
                f"({len(self.baseline.samples)} samples between the figures)"
            )

    def row(self, row: Row) -> None:
        ratio = None if row.seconds is None else row.seconds / self.baseline.seconds
        if self.as_json:
            self.write(
                json.dumps(
                    {
                        "name": row.name,
                        "figure": row.figure,
                        "note": row.note,
                        "seconds": row.seconds,
                        "ratio": ratio,
                        "reference_seconds": self.baseline.seconds,
                        **row.data,
                    }
                )
            )
            return
        shown = "" if ratio is None else f"{ratio:.3g}"
        self.write(
            f"{row.name:<{NAME_WIDTH}}  {row.figure:<{FIGURE_WIDTH}}  "
            f"{shown:>8}  {row.note}".rstrip()
        )

    def write(self, line: str) -> None:
        self.out.write(line + "\n")
        self.out.flush()

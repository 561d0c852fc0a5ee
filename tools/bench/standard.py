"""The standard set (make bench): API, growth, queries, decks, engines, reports, search.

Each part runs with its own defaults, or with fewer rounds and games under
``--quick`` (a smoke run); the other benchmarks run on their own.
"""

import argparse

from tools.bench import api, decks, engines, playtest, queries, report, scale, search

# (module, its arguments, its arguments under --quick)
PARTS = (
    (api, {"seconds": 3.0, "rounds": 5}, {"seconds": 1.0, "rounds": 2}),
    (scale, {}, {"sizes": "5000", "rounds": 2}),
    (queries, {}, {}),
    (decks, {"runs": 2000}, {"runs": 300}),
    (engines, {"games": 2000}, {"games": 300}),
    (report, {"games": 1000}, {"games": 100}),
    (playtest, {"actions": 200}, {"actions": 50}),
    (search, {"runs": 2000, "no_sql": True}, {"runs": 300, "no_sql": True}),
)


def add_arguments(parser) -> None:
    parser.add_argument(
        "--quick", action="store_true", help="Fewer rounds and games (a smoke run)."
    )
    parser.add_argument(
        "--only",
        action="append",
        help="Run only this part (a module name, e.g. decks); may repeat.",
    )


def part_arguments(mod, given: dict) -> argparse.Namespace:
    """Return the part's defaults with ``given`` laid over them."""
    parser = argparse.ArgumentParser()
    mod.add_arguments(parser)
    args = parser.parse_args([])
    for key, value in given.items():
        setattr(args, key, value)
    return args


def rows(args):
    """Yield the rows of every part in turn."""
    for mod, full, quick in PARTS:
        name = mod.__name__.rsplit(".", 1)[1]
        if args.only and name not in args.only:
            continue
        yield from mod.rows(part_arguments(mod, quick if args.quick else full))

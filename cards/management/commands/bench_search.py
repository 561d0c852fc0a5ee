"""Time the search language: parse a query of 100 terms in 20 nested groups.

Reading the query (tokens, groups, the condition and its description) runs in
Python with no database; the figure is the median and p95 over many runs. The
SQL of the same query is timed once against the database as well, for scale.
"""

import statistics
import time

from django.core.management.base import BaseCommand

from cards.models import Card
from cards.search import parse_query, tokenize

# Term shapes; {n} makes each of the 100 terms different, so no reading repeats.
TERMS = (
    "c:red", "t:action", "spin>={n}", "n:storm{n}", "-is:promo", "r:rare", "o:draw{n}",
    "haos>={n}", "class:gold", "c:ry", "number<{n}", "live>={n}", "g:bakugan",
    "pyrus!={n}", "blue<={n}", "section:k", "attribute:darkus", "gpower>{n}",
    "dragoon{n}", "{n}/48",
)  # fmt: skip


def benchmark_query(terms: int = 100, groups: int = 20) -> str:
    """Return a query of ``terms`` terms with ``groups`` groups nested in each other."""
    words = [TERMS[i % len(TERMS)].format(n=i) for i in range(terms)]
    per_group, extra = divmod(terms, groups + 1)
    chunks, start = [], 0
    for i in range(groups + 1):
        size = per_group + (1 if i < extra else 0)
        chunks.append(" ".join(words[start : start + size]))
        start += size
    query = chunks[0]
    for chunk in chunks[1:]:
        query = (
            f"({query}) or -({chunk})" if len(chunks) % 2 else f"({query} or {chunk})"
        )
    return query


def parse_figures(runs: int = 2000) -> dict:
    """Return the median and p95 parse times (ms, wall and CPU) of the benchmark query."""
    text = benchmark_query()
    result = parse_query(text)
    assert not result.warnings, result.warnings
    wall, cpu = [], []
    for _ in range(max(1, runs)):
        start, start_cpu = time.perf_counter(), time.process_time()
        parse_query(text)
        cpu.append((time.process_time() - start_cpu) * 1000)
        wall.append((time.perf_counter() - start) * 1000)
    ordered = sorted(wall)
    return {
        "query": text,
        "chars": len(text),
        "terms": sum(t.kind == "term" for t in tokenize(text, [])),
        "depth": _depth(text),
        "median_ms": round(statistics.median(wall), 3),
        "p95_ms": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))], 3),
        "cpu_median_ms": round(statistics.median(cpu), 3),
        "runs": runs,
    }


def _depth(text: str) -> int:
    depth = deepest = 0
    for ch in text:
        depth += (ch == "(") - (ch == ")")
        deepest = max(deepest, depth)
    return deepest


class Command(BaseCommand):
    help = "Print the time to parse a search of 100 terms in 20 nested groups (goal: under 5 ms)."

    def add_arguments(self, parser):
        parser.add_argument("--runs", type=int, default=2000)

    def handle(self, *args, runs, **options):
        r = parse_figures(runs)
        self.stdout.write(
            f"search parse  {r['terms']} terms, {r['depth']} nested groups, {r['chars']} chars  "
            f"wall median {r['median_ms']:.3f} ms p95 {r['p95_ms']:.3f} ms  "
            f"cpu median {r['cpu_median_ms']:.3f} ms  ({r['runs']} runs; goal < 5 ms)"
        )
        start = time.perf_counter()
        count = Card.objects.filter(parse_query(r["query"]).q).count()
        self.stdout.write(
            f"search SQL    the same query on the database: {count} cards in "
            f"{(time.perf_counter() - start) * 1000:.1f} ms (one run)"
        )

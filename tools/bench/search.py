"""Search parse speed: a query of 100 terms in 20 nested groups (goal: under 5 ms).

Reading the query (tokens, groups, the condition and its description) runs in
Python with no database; the SQL of the same query is timed once as well, for
scale.
"""

from cards.models import Card
from cards.search import parse_query, tokenize
from tools.bench.timing import Row, measure, ms

# Term shapes; {n} makes each of the 100 terms different, so no reading repeats.
TERMS = (
    "c:red", "t:action", "spin>={n}", "n:storm{n}", "-is:promo", "r:rare", "o:draw{n}",
    "haos>={n}", "class:gold", "c:ry", "number<{n}", "live>={n}", "g:bakugan",
    "pyrus!={n}", "blue<={n}", "section:k", "attribute:darkus", "gpower>{n}",
    "dragoon{n}", "{n}/48",
)  # fmt: skip


def add_arguments(parser) -> None:
    parser.add_argument("--runs", type=int, default=2000)
    parser.add_argument(
        "--no-sql", action="store_true", help="Leave out the one SQL run."
    )


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


def depth(text: str) -> int:
    """Return how deep the groups of ``text`` nest."""
    level = deepest = 0
    for ch in text:
        level += (ch == "(") - (ch == ")")
        deepest = max(deepest, level)
    return deepest


def rows(args):
    """Yield the parse time, then the SQL time of one run."""
    text = benchmark_query()
    result = parse_query(text)
    assert not result.warnings, result.warnings
    terms = sum(t.kind == "term" for t in tokenize(text, []))
    t = measure(lambda: parse_query(text), args.runs, warm=0)
    yield Row(
        f"search parse, {terms} terms in {depth(text)} nested groups",
        t.text(),
        f"{t.cpu_text()}, {t.runs} runs (goal < 5 ms)",
        seconds=t.median,
        data={"chars": len(text), "median": t.median, "p95": t.p95},
    )
    if args.no_sql:
        return
    sql = measure(lambda: Card.objects.filter(parse_query(text).q).count(), 1, 0)
    yield Row(
        "search SQL, the same query on the database",
        ms(sql.median),
        "one run",
        seconds=sql.median,
    )

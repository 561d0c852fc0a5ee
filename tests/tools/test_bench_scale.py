"""The growth benchmark end to end at a tiny size: every path's row, on each database."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PATHS = [
    "CSV import of 10 rows",
    "CSV import of 100 rows",
    'bulk add "3 Dragoon"',
    "import preview (10 rows)",
    "deck text export",
    "deck text import (60 entries)",
    "deck text import, one name misspelt",
    "deck save (60 entries)",
    "/api/cards/, cold",
    "/api/cards/?page_size=50, cold",
    "/api/cards/?page=20, cold",
    "/api/cards/?q=<rare name>, cold",
    "/api/cards/?page_size=50, kept",
    "game checklist /games/collision/",
    "search page, no query",
    "search page ?q=dragoon",
    "/api/cards/?q=dragoon, cold",
    "home page",
    "/collection/ (100 entries)",
    "deck lists (public and mine)",
]
BY_MATCHES = ["/api/cards/?q=t:gate, cold", "/api/cards/ new filter each request"]
MEMORY = [
    "10-row import, peak traced memory",
    "100-row import, peak traced memory",
    "10-row import, traced memory kept after 3",
    "10-row import, worker RSS growth after 3",
]


@pytest.fixture(scope="module")
def printed():
    """Run ``tools.bench --json scale`` at 2,100 cards; return its rows by name."""
    done = subprocess.run(
        [sys.executable, "-m", "tools.bench", "--json", "scale"]
        + ["--sizes", "2100", "--rounds", "1"],
        cwd=ROOT,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "cardsite.settings"},
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    return {row["name"]: row for row in rows if "name" in row}


def vendors() -> list[str]:
    url = os.environ.get("DATABASE_URL", "")
    return ["sqlite", "postgresql"] if url.startswith("postgres") else ["sqlite"]


@pytest.mark.parametrize("vendor", vendors())
def test_the_scale_benchmark_prints_every_path_at_the_real_files_and_grown(
    printed, vendor
):
    label = f"scale ({vendor})"
    assert printed[f"{label}: cards (real files | grown)"]["figure"] == "2,017 | 2,100"
    first, grown = printed[f"{label}: reference workload"]["ms"]
    for name in PATHS:
        row = printed[f"{label}: {name}"]
        assert len(row["runs"]) == 2 and len(row["ratios"]) == 1, name
        assert all(run["ms"] > 0 and run["queries"] > 0 for run in row["runs"]), name
        # The path's ratio over the reference workload's between the same points.
        ms = [run["ms"] for run in row["runs"]]
        assert row["ratios"][0] == ms[1] / ms[0] / (grown / first), name
    for name in BY_MATCHES:
        assert f"{label}: {name}" not in printed
    gate, every = (printed[f"{label} by matches: {name}"] for name in BY_MATCHES)
    assert [run["matches"] for run in every["runs"]] == [2017, 2100]
    assert gate["runs"][0]["matches"] == 318
    for name in MEMORY:
        assert printed[f"{label}: {name}"]["figure"].endswith(" MiB"), name
    verdict = printed[f"{label}: over 1.3x at 2,100 cards"]
    assert verdict["figure"].endswith(f" of {len(PATHS) + len(BY_MATCHES) + 1}")
    assert int(verdict["figure"].split()[0]) == len(verdict["over"]) + len(
        verdict["faster_than_matches"]
    )


def test_the_scale_benchmark_sizes_must_pass_the_real_files():
    done = subprocess.run(
        [sys.executable, "-m", "tools.bench", "scale", "--sizes", "1000"],
        cwd=ROOT,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "cardsite.settings"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2
    assert "sizes at least 2100" in done.stderr

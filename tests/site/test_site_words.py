"""No page a player reaches speaks in the developers' words.

A signed-in collector with a deck, a collection, games and every card file
opens every page of the site; the words a person reads there (the text, and
the titles, alternative texts and labels of elements) never show a slug as a
card number, a commit hash, a file name, a filter labelled by its column, or a
formula. A card's technical record (its source file and commit) is on its
history page by design, one click from the card; the sweep opens that page for
the scenario's practice card, whose record has neither.
"""

import re
from html.parser import HTMLParser

import pytest

from tests.site.every_page import every_page

# Each developer token, and what a player would see instead.
TOKENS = {
    "a slug shown as a number": re.compile(
        r"(?<![\w&/])#[a-z][a-z0-9]*(?:-[a-z0-9]+)*\b"
    ),
    "a hex hash": re.compile(r"\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{8,}\b"),
    "a file name": re.compile(r"\b[\w-]+\.(?:json|txt|py)\b"),
    "a column label": re.compile(r"\((?:slug|id)\)"),
    "a formula": re.compile(r"Hypergeometric"),
}
READ_ATTRIBUTES = ("title", "alt", "aria-label", "placeholder")


class _Words(HTMLParser):
    """Collect the words a person reads on a page."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.words: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style", "template"):
            self._hidden += 1
        for name, value in attrs:
            if name in READ_ATTRIBUTES and value:
                self.words.append(value)

    def handle_endtag(self, tag):
        if tag in ("script", "style", "template") and self._hidden:
            self._hidden -= 1

    def handle_data(self, data):
        if not self._hidden and data.strip():
            self.words.append(data)


def words_of(html: str) -> str:
    """Return the text and read attributes of ``html``, one piece a line."""
    parser = _Words()
    parser.feed(html)
    return "\n".join(parser.words)


def developer_tokens(html: str) -> list[str]:
    """Return each developer token on the page, with what kind it is."""
    text = words_of(html)
    return [
        f"{kind}: {match.group(0)!r}"
        for kind, pattern in TOKENS.items()
        for match in pattern.finditer(text)
    ]


@pytest.mark.parametrize(
    "html, found",
    [
        ("<p>Unknown card #dragoon</p>", ["a slug shown as a number: '#dragoon'"]),
        ('<a href="#main" title="x">#96 Tyson</a>', []),
        (
            "<p>at commit 2e416714b9f95f77</p>",
            ["a hex hash: '2e416714b9f95f77'"],
        ),
        ("<td>cards.json</td>", ["a file name: 'cards.json'"]),
        ("<label>Set (slug)</label>", ["a column label: '(slug)'"]),
        ("<p>Hypergeometric: P = 1</p>", ["a formula: 'Hypergeometric'"]),
        ("<style>.a{color:#fff}</style><script>x.json</script>", []),
        (
            '<img alt="card #example-customizer">',
            ["a slug shown as a number: '#example-customizer'"],
        ),
    ],
)
def test_the_token_finder_finds_each_kind_in_what_a_person_reads(html, found):
    assert developer_tokens(html) == found


def test_no_page_shows_a_slug_a_hash_a_file_name_a_column_label_or_a_formula(
    user, deck_for
):
    client, urls = every_page(user, deck_for)
    assert len(urls) > 60, urls
    found = []
    for url in urls:
        html = client.get(url).content.decode()
        found += [f"{url} {token}" for token in dict.fromkeys(developer_tokens(html))]
    assert found == [], "\n".join(found)

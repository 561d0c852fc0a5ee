"""Site-wide pages and the frame every page shares: /api/, /community/, the API
docs, the navigation, the skip link, the favicon, the filter labels."""

import pytest
from django.contrib.staticfiles import finders

from cards.filtersets import CardFilterSet
from cardsite.views import api_operations
from collection.filtersets import CollectionEntryFilterSet

pytestmark = pytest.mark.django_db


def test_api_answers_a_page_that_lists_its_endpoints_and_links_the_docs(client):
    response = client.get("/api/")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    text = response.content.decode()
    assert '<a href="/api/cards/"><code>/api/cards/</code></a>' in text
    assert 'href="/api/docs/"' in text


def test_community_answers_a_page_linking_help_wanted(client):
    response = client.get("/community/")
    assert response.status_code == 200
    assert 'href="/community/help-wanted/"' in response.content.decode()


def test_the_api_docs_are_drawn_on_the_server_with_every_operation_of_the_schema(
    client,
):
    response = client.get("/api/docs/")
    text = response.content.decode()
    operations = api_operations()
    assert text.count('class="api-op"') == len(operations)
    assert "<script" not in text.split("</head>", 1)[1]
    assert '<code class="api-path">/api/decks/{id}/</code>' in text


def test_the_navigation_marks_the_section_the_reader_is_in(client):
    text = client.get("/search/").content.decode()
    assert '<a href="/search/" aria-current="page">Search</a>' in text
    assert '<a href="/decks/">Decks</a>' in text


def test_every_page_opens_with_a_skip_link_to_the_content(client):
    text = client.get("/").content.decode()
    body = text.split("<body", 1)[1]
    assert body.index('<a class="skip-link" href="#main">') < body.index("<header")
    assert '<main id="main" tabindex="-1">' in text


def test_pages_name_the_vendored_favicon_and_favicon_ico_redirects_to_it(client):
    assert (
        '<link rel="icon" href="/static/favicon.svg"'
        in client.get("/").content.decode()
    )
    response = client.get("/favicon.ico")
    assert (response.status_code, response["Location"]) == (301, "/static/favicon.svg")
    assert finders.find("favicon.svg").endswith("static/favicon.svg")


def test_the_entry_filters_have_labels_a_person_reads():
    labels = [f.label for f in CollectionEntryFilterSet().form.visible_fields()]
    assert labels == [
        "Search cards",
        "Game",
        "Set",
        "Card",
        "Condition",
        "Finish",
        "Language",
        "Grading company",
        "Graded",
        "Owned",
        "Wanted",
        "For trade",
    ]


def test_the_card_filters_have_no_label_made_from_a_field_path():
    form = CardFilterSet().form
    labels = {name: form[name].label for name in form.fields}
    assert labels["game"] == "Game"
    assert labels["type"] == "Card type"
    assert labels["section_1"] == "Section 1 colour"
    assert [
        label for label in labels.values() if "slug" in label.lower() or "__" in label
    ] == []

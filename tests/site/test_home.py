import re

import pytest

from tests.site.isolation import Scenario, url_names

# A script element without a src attribute: its code is inline.
INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.IGNORECASE)


@pytest.mark.django_db
def test_home_page_lists_the_four_games(client):
    response = client.get("/")
    assert response.status_code == 200
    names = [g.name for g in response.context["games"]]
    assert names == [
        "Beyblade Collision",
        "Beyblade Metal Fusion",
        "Collide-O!",
        "Bakugan Battle Brawlers",
    ]
    for slug in ("collision", "metal-fusion", "collide-o", "bakugan"):
        assert f'href="/games/{slug}/"'.encode() in response.content


@pytest.fixture
def scenario(user, deck_for):
    return Scenario(user, deck_for)


@pytest.mark.django_db
def test_every_page_sends_a_content_security_policy_without_inline_scripts(
    client, scenario
):
    # The list comes from the URL resolver, so a new page cannot be missed.
    client.force_login(scenario.owner)
    for name in sorted(url_names()):
        response = client.get(scenario.url(name))
        policy = response.headers.get("Content-Security-Policy", "")
        assert "script-src 'self'" in policy, name
        assert "unsafe-inline" not in policy, name
        if response.get("Content-Type", "").startswith("text/html"):
            body = (
                b"".join(response.streaming_content)
                if response.streaming
                else response.content
            )
            assert INLINE_SCRIPT.search(body.decode()) is None, name

import pytest


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


@pytest.mark.django_db
def test_every_page_sends_a_content_security_policy_without_inline_scripts(client):
    response = client.get("/")
    policy = response["Content-Security-Policy"]
    assert "script-src 'self'" in policy
    assert "unsafe-inline" not in policy

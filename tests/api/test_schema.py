"""The OpenAPI schema is valid and complete."""

from django.core.management import call_command


def test_the_openapi_schema_validates_without_warnings(tmp_path):
    out = tmp_path / "schema.yml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(out))
    text = out.read_text()
    for path in (
        "/api/cards/",
        "/api/collection/",
        "/api/decks/",
        "/api/playtests/",
        "/api/submissions/",
    ):
        assert f"  {path}:" in text

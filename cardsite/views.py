"""Site-wide pages: the API's front page and its documentation, the community page.

The API documentation is drawn here, on the server, from the OpenAPI schema
(``/api/schema/``), so it needs no script or inline style and works under the
site's Content-Security-Policy (a script viewer such as ReDoc injects styles the
policy blocks).
"""

from functools import lru_cache

from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.views.decorators.http import require_safe
from drf_spectacular.generators import SchemaGenerator

from cards.community import trust
from cards.community.services import is_moderator

METHODS = ("get", "post", "put", "patch", "delete")


@lru_cache(maxsize=1)
def api_schema() -> dict:
    """Return the OpenAPI schema of the API (built once per process)."""
    return SchemaGenerator().get_schema(request=None, public=True)


def _first_line(text: str | None) -> str:
    return (text or "").strip().split("\n", 1)[0]


def _type(schema: dict) -> str:
    if "$ref" in schema:
        return schema["$ref"].rsplit("/", 1)[-1]
    kind = schema.get("type", "")
    if kind == "array":
        return f"list of {_type(schema.get('items', {}))}"
    if "enum" in schema:
        return "one of " + ", ".join(str(v) for v in schema["enum"] if v is not None)
    return kind or "value"


def _body(operation: dict) -> str:
    content = operation.get("requestBody", {}).get("content", {})
    for media in ("application/json", *content):
        if media in content:
            return _type(content[media].get("schema", {}))
    return ""


def api_operations() -> list[dict]:
    """Return every operation of the schema as rows the docs page lists."""
    rows = []
    for path, item in api_schema()["paths"].items():
        for method in METHODS:
            operation = item.get(method)
            if operation is None:
                continue
            rows.append(
                {
                    "id": operation.get("operationId", f"{method}-{path}"),
                    "method": method.upper(),
                    "path": path,
                    "tag": (operation.get("tags") or ["api"])[0],
                    "summary": _first_line(
                        operation.get("summary") or operation.get("description")
                    ),
                    "parameters": [
                        {
                            "name": p["name"],
                            "where": p["in"],
                            "type": _type(p.get("schema", {})),
                            "required": p.get("required", False),
                            "description": _first_line(p.get("description")),
                        }
                        for p in operation.get("parameters", [])
                    ],
                    "body": _body(operation),
                    "responses": sorted(operation.get("responses", {})),
                }
            )
    return rows


def _grouped(rows: list[dict]) -> list[tuple[str, list[dict]]]:
    groups: dict[str, list[dict]] = {}
    for row in rows:
        groups.setdefault(row["tag"], []).append(row)
    return list(groups.items())


@require_safe
def api_index(request):
    """Answer /api/ with a page: what the API offers and where its docs are."""
    roots = [
        row
        for row in api_operations()
        if row["method"] == "GET" and "{" not in row["path"]
    ]
    return render(request, "site/api_index.html", {"roots": roots})


@require_safe
def api_docs(request):
    """List every endpoint of the API with its parameters, from the schema."""
    schema = api_schema()
    return render(
        request,
        "site/api_docs.html",
        {
            "info": schema.get("info", {}),
            "groups": _grouped(api_operations()),
            "schemas": sorted(schema.get("components", {}).get("schemas", {})),
        },
    )


@require_safe
def community(request):
    """Answer /community/ with a page: the ways to help fill in the card data."""
    return render(
        request,
        "site/community.html",
        {
            "is_moderator": is_moderator(request.user),
            "trusted_after_days": trust.TRUSTED_AFTER.days,
            "readings_per_hour": trust.READINGS_PER_HOUR,
            "you_count": trust.counts_toward_confirmation(request.user),
        },
    )


@require_safe
def favicon(request):
    """Send browsers that ask for /favicon.ico to the site's icon."""
    return redirect(static("favicon.svg"), permanent=True)

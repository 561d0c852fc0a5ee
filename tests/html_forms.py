"""Read a page's form the way a browser would send it back unchanged."""

from html.parser import HTMLParser


class _FormValues(HTMLParser):
    def __init__(self):
        super().__init__()
        self.values: dict[str, str] = {}
        self._select = self._textarea = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        name = attrs.get("name")
        if tag == "input" and name and name != "csrfmiddlewaretoken":
            kind = attrs.get("type", "text")
            if kind == "submit" or (
                kind in ("checkbox", "radio") and "checked" not in attrs
            ):
                return
            self.values[name] = attrs.get("value") or ""
        elif tag == "select" and name:
            self._select = name
            self.values.setdefault(name, "")
        elif tag == "option" and self._select and "selected" in attrs:
            self.values[self._select] = attrs.get("value") or ""
        elif tag == "textarea" and name:
            self._textarea = name
            self.values[name] = ""

    def handle_endtag(self, tag):
        if tag == "select":
            self._select = None
        elif tag == "textarea":
            self._textarea = None

    def handle_data(self, data):
        if self._textarea:
            self.values[self._textarea] += data.strip()


def form_values(html: str) -> dict[str, str]:
    """Return the name and value of every field the page's forms would send."""
    parser = _FormValues()
    parser.feed(html)
    return parser.values

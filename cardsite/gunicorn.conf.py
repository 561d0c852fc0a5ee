"""Gunicorn settings for ``make serve``: say nothing about the server software.

Gunicorn writes ``Server: gunicorn`` on every answer, has no setting for it and
drops a ``Server`` header sent by the application; its line is dropped here, so
answers carry no ``Server`` header (this file runs in the master before the
workers fork).
"""

from gunicorn.http import wsgi

_default_headers = wsgi.Response.default_headers


def _default_headers_without_server(self):
    return [
        line
        for line in _default_headers(self)
        if not line.lower().startswith("server:")
    ]


wsgi.Response.default_headers = _default_headers_without_server

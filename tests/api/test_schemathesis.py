"""Schemathesis against /api/schema/, signed in: no server errors, responses match the schema."""

import pytest
import schemathesis
from django.contrib.auth import get_user_model
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.test import Client
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from cardsite.wsgi import application
from tests.utils import full_strength

schema = schemathesis.openapi.from_wsgi("/api/schema/", application)
# The coverage phase tries each of the card list's ~80 query parameters in turn:
# most of this file's time, so only at full strength (CI).
schema.config.phases.coverage.enabled = full_strength()
CSRF = "k" * 32
CHECKS = (not_a_server_error, response_schema_conformance, content_type_conformance)


@pytest.fixture
def keep_connection():
    """Keep the test's database connection open across in-process WSGI calls (as Django's test client does)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def auth_headers(db, deck_for, keep_connection):
    user = get_user_model().objects.create_user(
        "schemathesis", password="not-used-here-123"
    )
    deck_for("collision", owner=user)
    client = Client()
    client.force_login(user)
    session = client.cookies["sessionid"].value
    return {"Cookie": f"sessionid={session}; csrftoken={CSRF}", "X-CSRFToken": CSRF}


@schema.parametrize()
@settings(max_examples=8, deadline=None, suppress_health_check=list(HealthCheck))
def test_api_answers_without_server_errors_and_as_its_schema_says(case, auth_headers):
    response = case.call(headers=auth_headers)
    case.validate_response(
        response, checks=CHECKS, excluded_checks=(status_code_conformance,)
    )

"""The strength switch: make test runs the fuzzers small, CI at 1,000 examples."""

import pytest
from hypothesis import settings

from tests.utils import full_strength


@pytest.mark.parametrize(
    "environ, full",
    [
        ({}, False),
        ({"CI": "true"}, True),
        ({"HYPOTHESIS_PROFILE": "ci"}, True),
        ({"HYPOTHESIS_PROFILE": "dev", "CI": "true"}, False),
    ],
)
def test_ci_or_the_ci_profile_turns_full_strength_on(monkeypatch, environ, full):
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("HYPOTHESIS_PROFILE", raising=False)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    assert full_strength() is full


def test_the_loaded_profile_follows_the_switch():
    expected = ("ci", 1000) if full_strength() else ("dev", 50)
    assert (
        settings.get_current_profile_name(),
        settings.default.max_examples,
    ) == expected

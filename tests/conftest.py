"""Shared fixtures for the whole suite."""

import pytest


@pytest.fixture
def user(django_user_model):
    return django_user_model.objects.create_user("alice", "alice@example.com", "correct-horse-battery-1")


@pytest.fixture
def other_user(django_user_model):
    return django_user_model.objects.create_user("mallory", "mallory@example.com", "correct-horse-battery-2")

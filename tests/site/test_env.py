"""The settings readers: defaults, accepted spellings and clear refusals."""

import pytest
from django.core.exceptions import ImproperlyConfigured

from cardsite.env import env_bool, env_int, env_list, env_str


@pytest.mark.parametrize("text", ["1", "true", "TRUE", " yes ", "on"])
def test_env_bool_reads_true(text):
    assert env_bool("FLAG", False, environ={"FLAG": text}) is True


@pytest.mark.parametrize("text", ["0", "false", "No", "off"])
def test_env_bool_reads_false(text):
    assert env_bool("FLAG", True, environ={"FLAG": text}) is False


@pytest.mark.parametrize("environ", [{}, {"FLAG": ""}, {"FLAG": "  "}])
def test_env_bool_unset_or_empty_is_the_default(environ):
    assert env_bool("FLAG", True, environ=environ) is True


def test_env_bool_refuses_other_text_naming_the_variable():
    with pytest.raises(ImproperlyConfigured) as info:
        env_bool("FLAG", False, environ={"FLAG": "maybe"})
    assert str(info.value) == (
        "FLAG='maybe' is not a boolean: use one of 1, 0, true, false, yes, no, on, off."
    )


def test_env_int_reads_a_whole_number_and_defaults_when_unset():
    assert env_int("N", 7, environ={"N": " 42 "}) == 42
    assert env_int("N", 7, environ={}) == 7


def test_env_int_refuses_text_and_numbers_below_the_minimum():
    with pytest.raises(ImproperlyConfigured) as info:
        env_int("N", 7, environ={"N": "sixty"})
    assert str(info.value) == "N='sixty' is not a whole number."
    with pytest.raises(ImproperlyConfigured) as info:
        env_int("N", 7, minimum=0, environ={"N": "-1"})
    assert str(info.value) == "N=-1 is below its minimum, 0."


def test_env_list_splits_on_commas_and_drops_blanks():
    assert env_list("HOSTS", ["a"], environ={"HOSTS": " x.example, ,y.example,"}) == [
        "x.example",
        "y.example",
    ]
    assert env_list("HOSTS", ["a"], environ={}) == ["a"]


def test_env_str_returns_the_text_or_the_default():
    assert env_str("NAME", "d", environ={"NAME": " value "}) == "value"
    assert env_str("NAME", "d", environ={"NAME": ""}) == "d"

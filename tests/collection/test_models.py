"""Single-entry invariants and the one-entry-per-variant constraint."""

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from collection import services
from collection.models import CollectionEntry


def _errors(**fields):
    with pytest.raises(ValidationError) as info:
        CollectionEntry(**fields).full_clean()
    return info.value.message_dict


@pytest.mark.django_db
def test_quantities_cannot_be_negative(user, cards):
    errors = _errors(user=user, card=cards.dragoon, quantity=-1, wanted_quantity=-2)
    assert errors["quantity"] == ["Ensure this value is greater than or equal to 0."]
    assert errors["wanted_quantity"] == [
        "Ensure this value is greater than or equal to 0."
    ]


@pytest.mark.django_db
def test_for_trade_cannot_exceed_owned(user, cards):
    errors = _errors(user=user, card=cards.dragoon, quantity=1, trade_quantity=2)
    assert errors["trade_quantity"] == [
        "You cannot offer more copies for trade than you own."
    ]


@pytest.mark.django_db
def test_a_grade_needs_its_company_and_a_company_its_grade(user, cards):
    assert _errors(user=user, card=cards.dragoon, quantity=1, grade=Decimal("9"))[
        "grading_company"
    ] == ["A grade needs the grading company that gave it."]
    assert _errors(user=user, card=cards.dragoon, quantity=1, grading_company="psa")[
        "grade"
    ] == ["A graded card needs its grade."]


@pytest.mark.django_db
@pytest.mark.parametrize("grade", ["0.5", "10.5", "9.3"])
def test_grades_run_from_one_to_ten_in_half_steps(user, cards, grade):
    errors = _errors(
        user=user,
        card=cards.dragoon,
        quantity=1,
        grading_company="psa",
        grade=Decimal(grade),
    )
    assert "grade" in errors


@pytest.mark.django_db
def test_a_second_entry_of_the_same_variant_is_refused_with_a_message(user, cards):
    services.collection_entry_create(user=user, card=cards.dragoon, quantity=1)
    with pytest.raises(ValidationError) as info:
        services.collection_entry_create(user=user, card=cards.dragoon, quantity=2)
    assert info.value.messages == [
        "You already have an entry for this card in this condition, finish and "
        "language; change its quantity instead."
    ]
    assert CollectionEntry.objects.count() == 1


@pytest.mark.django_db
def test_same_grade_twice_is_refused_but_another_grade_is_a_new_entry(user, cards):
    graded = {"grading_company": "psa", "grade": Decimal("9.5")}
    services.collection_entry_create(
        user=user, card=cards.dragoon, quantity=1, **graded
    )
    with pytest.raises(ValidationError) as info:
        services.collection_entry_create(
            user=user, card=cards.dragoon, quantity=1, **graded
        )
    assert info.value.messages == [
        "You already have an entry for this card with this grading; change its "
        "quantity instead."
    ]
    services.collection_entry_create(
        user=user,
        card=cards.dragoon,
        quantity=1,
        grading_company="psa",
        grade=Decimal("10"),
    )
    assert CollectionEntry.objects.count() == 2


@pytest.mark.django_db
def test_different_finish_is_a_different_entry(user, cards):
    services.collection_entry_create(user=user, card=cards.dragoon, quantity=1)
    services.collection_entry_create(
        user=user, card=cards.dragoon, quantity=1, finish="foil"
    )
    assert CollectionEntry.objects.filter(user=user).count() == 2

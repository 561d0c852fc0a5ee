"""The engine core: the seeded generator and its shuffle."""

from decks.engine.core import Rng, seed_state


def test_the_fast_shuffle_deals_exactly_as_the_plain_fisher_yates():
    for size in range(0, 100):
        for seed in range(0, 600, 37):
            plain, fast = Rng(seed_state(seed, size)), Rng(seed_state(seed, size))
            expected, got = list(range(size)), list(range(size))
            plain.shuffle_reference(expected)
            fast.shuffle(got)
            assert (got, fast.state) == (expected, plain.state)


def test_the_same_seed_gives_the_same_numbers_and_another_seed_others():
    a, b, c = Rng(seed_state(5)), Rng(seed_state(5)), Rng(seed_state(6))
    first = [a.next64() for _ in range(5)]
    assert first == [b.next64() for _ in range(5)]
    assert first != [c.next64() for _ in range(5)]

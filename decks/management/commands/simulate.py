"""Play many seeded bot games between decks and print a JSON summary."""

import json

from django.core.management.base import BaseCommand, CommandError

from cards.games import GAMES
from decks.engine import engine_for
from decks.engine.bots import BOT_NAMES
from decks.engine.simulate import run_games
from decks.play.simulation import DeckSpecError, engine_decks_from_specs


class Command(BaseCommand):
    help = (
        "Simulate bot games: --game G --deck A --deck B --games N --seed S"
        " --bot search --bot greedy (one --bot per seat). "
        "A deck is a deck id or sample[:N] (a practice-set sample deck)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--game", required=True, choices=sorted(GAMES))
        parser.add_argument(
            "--deck",
            action="append",
            default=[],
            help="Deck id or sample[:N]; once per seat (Collide-O!: the one pack).",
        )
        parser.add_argument("--games", type=int, default=100)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument(
            "--bot",
            action="append",
            choices=BOT_NAMES,
            help="Bot per seat (the last repeats): random, greedy, or the search bot"
            " by level (search, search:fast, search:strong).",
        )
        parser.add_argument(
            "--players",
            type=int,
            default=2,
            help="Seats (Collide-O!: how many share the pack).",
        )
        parser.add_argument(
            "--option",
            action="append",
            default=[],
            help="Engine option key=value (e.g. advanced=true).",
        )

    def handle(self, *args, **opts):
        slug = opts["game"]
        game = engine_for(slug)
        if opts["games"] < 1:
            raise CommandError("--games must be at least 1.")
        specs = opts["deck"] or ["sample"]
        try:
            decks = engine_decks_from_specs(slug, specs, players=opts["players"])
        except DeckSpecError as exc:
            raise CommandError(str(exc)) from exc
        options = {}
        for item in opts["option"]:
            key, _, value = item.partition("=")
            options[key] = {"true": True, "false": False}.get(value.lower(), value)
            if isinstance(options[key], str):
                try:
                    options[key] = float(value) if "." in value else int(value)
                except ValueError:
                    pass
        if GAMES[slug].shared_pack:
            options["players"] = opts["players"]
        summary = run_games(
            game,
            decks,
            options,
            opts["games"],
            opts["seed"],
            tuple(opts["bot"] or ["random"]),
        )
        summary["decks"] = specs
        self.stdout.write(json.dumps(summary))

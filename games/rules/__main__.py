"""Command line (docs/rules.md#cli): ``python -m games.rules score [--preset P] < round.json``
and ``python -m games.rules arrange [--preset P] CARDS…`` (or ``-`` for a JSON array on stdin).

Malformed input prints a message on stderr and exits with status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any

from games.rules.arrange import arrange_json
from games.rules.errors import RulesError
from games.rules.hands import PRESET_NAMES
from games.rules.presets import Rules
from games.rules.scoring import settle_json

EXIT_BAD_INPUT = 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.print_usage(sys.stderr)
        raise _BadInput(message)


class _BadInput(Exception):
    pass


def _stdin_json() -> Any:
    try:
        return json.load(sys.stdin)
    except json.JSONDecodeError as exc:
        raise _BadInput(f"stdin is not valid JSON: {exc}") from exc


def _each(run: Callable[[Any], Any], data: Any, what: str) -> Any:
    """``run`` on ``data``, or on each item of it when it is a list; a refusal says which
    ``what`` (round, hand) it was."""
    if not isinstance(data, list):
        return _one(run, data, "")
    return [_one(run, item, f"{what} {index}: ") for index, item in enumerate(data)]


def _one(run: Callable[[Any], Any], item: Any, where: str) -> Any:
    try:
        return run(item)
    except RulesError as exc:
        raise _BadInput(f"{where}{exc} [{exc.code}]") from exc


def _score(args: argparse.Namespace) -> Any:
    return _each(lambda data: settle_json(data, args.preset), _stdin_json(), "round")


def _arrange_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "cards",
        nargs="+",
        metavar="CARD",
        help="13 cards (AS TD 10D …), or - to read hands from stdin",
    )


def _arrange(args: argparse.Namespace) -> Any:
    rules = Rules.preset(args.preset)

    def arrange(cards: Any) -> Any:
        return arrange_json(cards, rules)

    if args.cards != ["-"]:
        cards = [c for arg in args.cards for c in arg.replace(",", " ").split()]
        return _one(arrange, cards, "")
    data = _stdin_json()
    if not isinstance(data, list):
        raise _BadInput("stdin must hold a JSON array of 13-card arrays")
    return _each(arrange, data, "hand")


Command = Callable[[argparse.Namespace], Any]
# Subcommands register here: name -> (help, add_arguments, run).
COMMANDS: dict[str, tuple[str, Callable[[argparse.ArgumentParser], None], Command]] = {
    "score": ("settle round(s) read as JSON from stdin", lambda p: None, _score),
    "arrange": ("suggest the best arrangements of 13 cards", _arrange_arguments, _arrange),
}


def _add_preset(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--preset", choices=PRESET_NAMES, default="portal")


def main(argv: Sequence[str] | None = None) -> int:
    parser = _Parser(prog="python -m games.rules", description="Mậu Binh rules engine")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for name, (help_text, add_arguments, run) in COMMANDS.items():
        command = sub.add_parser(name, help=help_text)
        _add_preset(command)
        add_arguments(command)
        command.set_defaults(run=run)
    try:
        args = parser.parse_args(argv)
        result = args.run(args)
    except _BadInput as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    json.dump(result, sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

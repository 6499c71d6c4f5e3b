"""Mậu Binh rules engine: pure Python, standard library only (see docs/rules.md).

No Django, no I/O, no clock; randomness is passed in. Everything a table server, the ledger,
bots and moderators need to agree on a round's result lives here.
"""

from games.rules.arrange import Suggestion, appraise, best_in_hindsight, suggest
from games.rules.cards import (
    Card,
    card_name_en,
    card_name_vi,
    format_card,
    format_cards,
    full_deck,
    parse_card,
    parse_cards,
    shuffled_deck,
)
from games.rules.errors import (
    ArrangementError,
    CardError,
    RoundInputError,
    RulesConfigError,
    RulesError,
)
from games.rules.hands import Category, category_of, eval3, eval5, evaluator5, is_foul
from games.rules.presets import (
    RULES_VERSION,
    Rules,
    cap_per_opponent,
    hold_amount,
    max_loss,
)

__all__ = [
    "RULES_VERSION",
    "ArrangementError",
    "Card",
    "CardError",
    "Category",
    "InstantWin",
    "PlayerInput",
    "RoundInputError",
    "Rules",
    "RulesConfigError",
    "RulesError",
    "Settlement",
    "Status",
    "Suggestion",
    "appraise",
    "best_in_hindsight",
    "cap_per_opponent",
    "card_name_en",
    "card_name_vi",
    "category_of",
    "eval3",
    "eval5",
    "evaluator5",
    "find_instant",
    "format_card",
    "format_cards",
    "full_deck",
    "hold_amount",
    "is_foul",
    "max_loss",
    "parse_card",
    "parse_cards",
    "round_from_json",
    "settle",
    "settle_json",
    "shuffled_deck",
    "suggest",
    "validate_arrangement",
]

"""Auto-arrange (xếp bài tự động): split 13 cards into the three chi that score most.

The method follows Paul Hankin's Chinese-poker solver. A committed table (``winprob.json``,
built by ``python -m games.rules.tables.build_winprob``) holds, per preset and per chi, how
strong an opponent's arranged chi is, as counts over finely bucketed hand values. From it each
candidate chi gets, per opponent, P(win), P(tie), P(lose), the units expected from winning
(its bonus under the table's rules) and the units expected to be paid when losing (the
bonus-weighted mass of stronger opponent hands). An arrangement's expected units are the sum
over its three chi plus an approximation of the scoop multipliers (see ``_Field``), times the
number of opponents. The search evaluates each five-card and three-card subset once, as 13-bit
masks, and visits chi 1 candidates in order of an upper bound on the whole arrangement's value,
stopping as soon as no remaining candidate can beat what it has found. docs/rules.md
("Auto-arrange") describes the method, its approximations and the decisions taken.

The package follows those steps: ``odds`` (the win tables and the expected-units model),
``search`` (the subsets by mask and the bound-ordered search, and the arrangements that show
an instant win), ``suggestions`` (``suggest``, ``appraise``, the naive baseline, the CLI's
``arrange``) and ``hindsight`` (the best arrangement against a settled round's hands). Names
with a leading underscore are shared between these modules only.
"""

from games.rules.arrange.hindsight import best_in_hindsight
from games.rules.arrange.odds import (
    BUCKET_SHIFT,
    DEFAULT_OPPONENTS,
    Buckets,
    WinTable,
    chi_bonus,
    field_for,
    packaged_table,
    win_probability,
)
from games.rules.arrange.search import Arrangement, Chi
from games.rules.arrange.suggestions import (
    Suggestion,
    appraise,
    arrange_json,
    best_arrangement,
    naive_arrangement,
    suggest,
)

__all__ = [
    "BUCKET_SHIFT",
    "DEFAULT_OPPONENTS",
    "Arrangement",
    "Buckets",
    "Chi",
    "Suggestion",
    "WinTable",
    "appraise",
    "arrange_json",
    "best_arrangement",
    "best_in_hindsight",
    "chi_bonus",
    "field_for",
    "naive_arrangement",
    "packaged_table",
    "suggest",
    "win_probability",
]

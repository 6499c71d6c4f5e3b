"""Each player's side of a settlement (the JSON ``games.rules`` wrote), as summary figures."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class PlayerFigures:
    contests: int = 0
    chi_won: tuple[int, int, int] = (0, 0, 0)
    foul: bool = False
    instant_kind: str = ""
    scoop_kind: str = ""


def player_figures(settlement: dict[str, Any]) -> dict[str, PlayerFigures]:
    """{seat id: figures}: chi taken per chi, binh lủng, the mậu binh that won, scoops made."""
    contests: dict[str, int] = {}
    won: dict[str, list[int]] = {}
    instant: dict[str, str] = {}
    scoops: dict[str, set[str]] = {}
    kinds = {p["id"]: p.get("instant") for p in settlement.get("players", [])}
    for pair in settlement.get("pairs", []):
        a, b = pair["a"], pair["b"]
        if pair.get("kind") == "instant":
            winner = (pair.get("instant") or {}).get("winner")
            if winner is not None and kinds.get(winner):
                instant[winner] = kinds[winner]
            continue
        for seat in (a, b):
            contests[seat] = contests.get(seat, 0) + 1
        for i, chi in enumerate(pair.get("chi_detail") or []):
            if chi.get("winner") is not None:
                won.setdefault(chi["winner"], [0, 0, 0])[i] += 1
        scoop = pair.get("scoop")
        if scoop:
            winner = b if scoop["loser"] == a else a
            scoops.setdefault(winner, set()).add(scoop["kind"])
    figures = {}
    for player in settlement.get("players", []):
        seat = player["id"]
        made = scoops.get(seat, set())
        chi = won.get(seat, [0, 0, 0])
        figures[seat] = PlayerFigures(
            contests=contests.get(seat, 0),
            chi_won=(chi[0], chi[1], chi[2]),
            foul=bool(player.get("foul")) and player.get("status") != "left",
            instant_kind=instant.get(seat, ""),
            scoop_kind="all" if "all" in made else ("one" if "one" in made else ""),
        )
    return figures

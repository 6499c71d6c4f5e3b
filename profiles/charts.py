"""Small SVG charts drawn on the server (no script, no build step: the CSP allows neither).

Each function returns the geometry a template draws; every number is computed here, so
the template only places shapes.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import accumulate

from profiles.selectors import DayPoint

WIDTH, HEIGHT, PAD = 600, 160, 24


@dataclass(frozen=True)
class Bar:
    x: float
    y: float
    width: float
    height: float
    label: str


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    bars: list[Bar]
    line: str
    """SVG polyline points ("x,y x,y ...")."""
    zero_y: float
    top_label: str
    bottom_label: str
    first_day: str
    last_day: str


def _scale(lo: int, hi: int) -> tuple[int, int]:
    return (min(lo, 0), max(hi, 0)) if lo != hi else (min(lo, 0) - 1, max(hi, 0) + 1)


def rounds_chart(points: list[DayPoint]) -> Chart:
    """Rounds played per day, as bars."""
    top = max([p.rounds for p in points] + [1])
    step = (WIDTH - 2 * PAD) / max(len(points), 1)
    bars = []
    for i, p in enumerate(points):
        height = (HEIGHT - 2 * PAD) * p.rounds / top
        bars.append(
            Bar(
                x=round(PAD + i * step + step * 0.15, 1),
                y=round(HEIGHT - PAD - height, 1),
                width=round(step * 0.7, 1),
                height=round(height, 1),
                label=f"{p.day.isoformat()}: {p.rounds}",
            )
        )
    return Chart(
        WIDTH,
        HEIGHT,
        bars,
        "",
        HEIGHT - PAD,
        str(top),
        "0",
        points[0].day.isoformat() if points else "",
        points[-1].day.isoformat() if points else "",
    )


def net_chart(points: list[DayPoint]) -> Chart:
    """Net xu summed day after day over the period, as a line (0 at the first day's start)."""
    running = list(accumulate(p.net_xu for p in points))
    lo, hi = _scale(min(running, default=0), max(running, default=0))
    step = (WIDTH - 2 * PAD) / max(len(points) - 1, 1)

    def y(value: int) -> float:
        return round(HEIGHT - PAD - (HEIGHT - 2 * PAD) * (value - lo) / (hi - lo), 1)

    line = " ".join(f"{round(PAD + i * step, 1)},{y(v)}" for i, v in enumerate(running))
    return Chart(
        WIDTH,
        HEIGHT,
        [],
        line,
        y(0),
        f"{hi:+,}",
        f"{lo:+,}",
        points[0].day.isoformat() if points else "",
        points[-1].day.isoformat() if points else "",
    )

"""The running totals over the deals as an inline SVG chart, drawn on the server (no script, no
library, works on any phone). Each side has its own colour and line pattern, and its name and
total written at its last point, so colour is never the only way to tell the lines apart.

>>> svg = totals_chart([("Us", [120, 900]), ("Them", [-50, 300])], deals=4)
>>> svg.startswith("<svg") and "Us 900" in svg and "Them 300" in svg
True
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence

WIDTH, HEIGHT = 640, 320
LEFT, RIGHT, TOP, BOTTOM = 70, 150, 20, 50
COLOURS = ("#0b5cad", "#b3261e", "#1e7b34", "#7a3db8", "#8a5a00", "#00707a", "#444", "#c2185b")
DASHES = ("", "10 6", "3 5", "14 5 3 5", "", "10 6", "3 5", "14 5 3 5")


def nice_step(span: float) -> int:
    """A round gridline step giving about four lines over ``span`` points.

    >>> nice_step(3000), nice_step(450), nice_step(0)
    (1000, 200, 100)
    """
    if span <= 0:
        return 100
    raw = span / 4
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if raw <= factor * power:
            return max(int(factor * power), 10)
    return int(10 * power)


def totals_chart(sides: Sequence[tuple[str, Sequence[int]]], deals: int) -> str:
    """SVG markup: one line per side from 0 before deal 1 through its running totals."""
    values = [0, *(value for _, running in sides for value in running)]
    low, high = min(values), max(values)
    step = nice_step(high - low)
    low = math.floor(low / step) * step
    high = max(math.ceil(high / step) * step, low + step)
    deals = max(deals, 1, *(len(running) for _, running in sides))
    inner_w, inner_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(deal: int) -> float:
        return LEFT + inner_w * deal / deals

    def y(value: float) -> float:
        return TOP + inner_h * (high - value) / (high - low)

    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        'aria-label="Running totals after each deal" xmlns="http://www.w3.org/2000/svg">'
    ]
    for value in range(int(low), int(high) + 1, step):
        weight = ' stroke-width="2"' if value == 0 else ""
        parts.append(
            f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(value):.1f}" y2="{y(value):.1f}" '
            f'stroke="#bbb"{weight}/>'
            f'<text x="{LEFT - 8}" y="{y(value) + 6:.1f}" text-anchor="end">{value:,}</text>'
        )
    for deal in range(deals + 1):
        label = "start" if deal == 0 else f"deal {deal}"
        parts.append(
            f'<text x="{x(deal):.1f}" y="{HEIGHT - BOTTOM + 30}" '
            f'text-anchor="middle">{label}</text>'
        )
    for number, (name, running) in enumerate(sides):
        colour = COLOURS[number % len(COLOURS)]
        dash = DASHES[number % len(DASHES)]
        points = [(x(0), y(0))] + [(x(n + 1), y(v)) for n, v in enumerate(running)]
        line = " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
        dashed = f' stroke-dasharray="{dash}"' if dash else ""
        parts.append(
            f'<polyline points="{line}" fill="none" stroke="{colour}" stroke-width="4"{dashed}/>'
        )
        for px, py in points[1:]:
            parts.append(f'<circle cx="{px:.1f}" cy="{py:.1f}" r="6" fill="{colour}"/>')
        total = running[-1] if running else 0
        end_x, end_y = points[-1]
        parts.append(
            f'<text x="{end_x + 12:.1f}" y="{end_y + 6 + 22 * (number % 2):.1f}" '
            f'fill="{colour}" font-weight="bold">{html.escape(name)} {total:,}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)

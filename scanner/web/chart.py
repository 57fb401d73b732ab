"""The running totals over the deals as an inline SVG chart, drawn on the server (no script, no
library, works on any phone). Each side has its own colour and line pattern, and a key below
the lines gives each side's name and total beside a piece of its line, so colour is never the
only way to tell the lines apart.

The chart is drawn for a phone: 368 units across, about the width of a phone's page, so that
its 19-unit text shows at 18 pixels or more there (the stylesheet caps how wide it grows on a
larger screen). Deal labels too close together take turns on two rows.

>>> svg = totals_chart([("Us", [120, 900]), ("Them", [-50, 300])], deals=4)
>>> svg.startswith("<svg") and "Us 900" in svg and "Them 300" in svg
True
"""

from __future__ import annotations

import html
import math
from collections.abc import Sequence

WIDTH = 368
FONT = 19  # units; shown at ≥ 18 px on a phone, where the chart is about 358 px wide
LEFT, RIGHT, TOP, PLOT_HEIGHT = 72, 32, 14, 200
AXIS_ROW, KEY_ROW = 30, 30  # below the lines: the deals' row(s), then one row per side
LABEL_SPACE = 70  # units a "deal N" label needs; closer labels take turns on two rows
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
    """SVG markup: one line per side from 0 before deal 1 through its running totals, and a
    key with each side's name and total."""
    values = [0, *(value for _, running in sides for value in running)]
    low, high = min(values), max(values)
    step = nice_step(high - low)
    low = math.floor(low / step) * step
    high = max(math.ceil(high / step) * step, low + step)
    deals = max(deals, 1, *(len(running) for _, running in sides))
    inner_w = WIDTH - LEFT - RIGHT
    spacing = inner_w / deals
    rows = 1 if spacing >= LABEL_SPACE else 2
    every = math.ceil(LABEL_SPACE / (spacing * rows))  # more deals than rows can hold: thin
    height = TOP + PLOT_HEIGHT + AXIS_ROW * rows + KEY_ROW * len(sides) + 8

    def x(deal: int) -> float:
        return LEFT + inner_w * deal / deals

    def y(value: float) -> float:
        return TOP + PLOT_HEIGHT * (high - value) / (high - low)

    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {height}" font-size="{FONT}" role="img" '
        'aria-label="Running totals after each deal" xmlns="http://www.w3.org/2000/svg">'
    ]
    for value in range(int(low), int(high) + 1, step):
        weight = ' stroke-width="2"' if value == 0 else ""
        parts.append(
            f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(value):.1f}" y2="{y(value):.1f}" '
            f'stroke="#bbb"{weight}/>'
            f'<text x="{LEFT - 8}" y="{y(value) + 6:.1f}" text-anchor="end">{value:,}</text>'
        )
    axis_y = TOP + PLOT_HEIGHT + AXIS_ROW - 6
    for turn, deal in enumerate(range(0, deals + 1, every)):
        label = "start" if deal == 0 else f"deal {deal}"
        row_y = axis_y + AXIS_ROW * (turn % rows)
        parts.append(f'<text x="{x(deal):.1f}" y="{row_y}" text-anchor="middle">{label}</text>')
    axis_y += AXIS_ROW * (rows - 1)
    for number, (name, running) in enumerate(sides):
        colour = COLOURS[number % len(COLOURS)]
        dash = DASHES[number % len(DASHES)]
        dashed = f' stroke-dasharray="{dash}"' if dash else ""
        points = [(x(0), y(0))] + [(x(n + 1), y(v)) for n, v in enumerate(running)]
        line = " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
        parts.append(
            f'<polyline points="{line}" fill="none" stroke="{colour}" stroke-width="4"{dashed}/>'
        )
        for px, py in points[1:]:
            parts.append(f'<circle cx="{px:.1f}" cy="{py:.1f}" r="6" fill="{colour}"/>')
        total = running[-1] if running else 0
        key_y = axis_y + KEY_ROW * (number + 1)
        parts.append(
            f'<line x1="8" x2="{LEFT - 8}" y1="{key_y - 6}" y2="{key_y - 6}" stroke="{colour}" '
            f'stroke-width="4"{dashed}/>'
            f'<text x="{LEFT}" y="{key_y}" fill="{colour}" font-weight="bold">'
            f"{html.escape(name)} {total:,}</text>"
        )
    parts.append("</svg>")
    return "".join(parts)

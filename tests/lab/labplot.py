# SPDX-License-Identifier: ISC
"""A sweep drawn as SVG, by hand (Python's standard library only): the
symptom's rate and the workload's figure at each value swept (every
repeat a dot, the median a line), the value on a log scale, with the stock
value, the suggestion and the smallest value that removed the symptom
marked. One file a problem scenario, under doc/lab/, for LAB.md.
"""

import math
import statistics
from xml.sax.saxutils import escape

W, PANEL_H = 640, 170
LEFT, RIGHT, TOP, GAP, BOTTOM = 78, 20, 52, 46, 40
COLOURS = {"stock": "#777777", "suggested": "#1f5fbf", "smallest": "#2a8a2a"}


def _ticks(lo, hi, n=4):
    if hi <= lo:
        hi = lo + 1
    step = (hi - lo) / n
    mag = 10 ** math.floor(math.log10(step))
    step = min((m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= step), default=step)
    t = math.floor(lo / step) * step
    out = []
    while t <= hi + step * 1e-9:
        out.append(t)
        t += step
    return out


def _num(v):
    if abs(v) >= 1e6:
        return "%gM" % (v / 1e6)
    if abs(v) >= 1e4:
        return "%gk" % (v / 1e3)
    return ("%.3g" % v)


def _panel(out, y0, points, key, label, xpos, values, marks):
    ys = [p[key] for p in points]
    hi = max(ys + [0.0]) * 1.08 or 1.0
    ticks = _ticks(0.0, hi)
    hi = max(hi, ticks[-1])

    def ypos(v):
        return y0 + PANEL_H - (v / hi) * PANEL_H

    x1 = W - RIGHT
    out.append('<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#bbb"/>' % (
        LEFT, y0, x1 - LEFT, PANEL_H))
    for t in ticks:
        y = ypos(t)
        out.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" stroke="#eee"/>' % (
            LEFT, y, x1, y))
        out.append('<text x="%d" y="%.1f" text-anchor="end" font-size="11">%s</text>' % (
            LEFT - 5, y + 4, _num(t)))
    out.append('<text x="%d" y="%d" font-size="12" font-weight="bold">%s</text>' % (
        LEFT, y0 - 8, escape(label)))
    for name, v in marks:
        x = xpos(v)
        dash = ' stroke-dasharray="4,3"' if name != "suggested" else ""
        out.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="%s" stroke-width="2"%s/>'
                   % (x, y0, x, y0 + PANEL_H, COLOURS[name], dash))
    med = []
    for v in values:
        at = [p[key] for p in points if p["value"] == v]
        if at:
            med.append((xpos(v), ypos(statistics.median(at))))
        for y in at:
            out.append('<circle cx="%.1f" cy="%.1f" r="3" fill="#d9534f" fill-opacity="0.6"/>'
                       % (xpos(v), ypos(y)))
    if med:
        out.append('<polyline fill="none" stroke="#333" stroke-width="1.5" points="%s"/>' %
                   " ".join("%.1f,%.1f" % xy for xy in med))


def sweep_svg(name, tunable, sweep, stock, suggested, symptom_unit, figure_what, fmt=str):
    """The SVG text of one scenario's sweep (labproof's proof["sweep"])."""
    points = sweep["points"]
    values = sorted(sweep["values"])
    smallest = (sweep.get("size") or {}).get("smallest")
    lo, hi = min(values), max(values)
    span = math.log(hi / lo) if hi > lo else 1.0
    x1 = W - RIGHT

    def xpos(v):
        return LEFT + (math.log(v / lo) / span) * (x1 - LEFT - 10) + 5

    marks = [("stock", stock), ("suggested", suggested)]
    if smallest is not None:
        marks.append(("smallest", smallest))
    height = TOP + 2 * PANEL_H + GAP + BOTTOM + 22
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
           'font-family="sans-serif">' % (W, height),
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="%d" y="16" font-size="14" font-weight="bold">%s: %s swept</text>' % (
               LEFT, escape(name), escape(tunable))]
    _panel(out, TOP, points, "symptom", "symptom (%s)" % symptom_unit, xpos, values, marks)
    y2 = TOP + PANEL_H + GAP
    _panel(out, y2, points, "workload", "workload: %s" % figure_what, xpos, values, marks)
    base = y2 + PANEL_H
    for v in values:
        out.append('<text x="%.1f" y="%d" text-anchor="middle" font-size="10">%s</text>' % (
            xpos(v), base + 14, escape(fmt(v))))
    y = base + 34
    x = LEFT
    for label, key in (("started at %s" % fmt(stock), "stock"),
                       ("suggestion %s" % fmt(suggested), "suggested"),
                       ("smallest removing 90 %% %s" % fmt(smallest) if smallest is not None
                        else "none removed 90 %", "smallest")):
        out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="2"/>' % (
            x, y - 4, x + 18, y - 4, COLOURS[key]))
        out.append('<text x="%d" y="%d" font-size="11">%s</text>' % (x + 22, y, escape(label)))
        x += 30 + 7 * len(label)
    out.append("</svg>")
    return "\n".join(out) + "\n"

#!/usr/bin/env python3
"""ansi-html: turn a terminal screen captured with `tmux capture-pane -e -p`
(text with SGR colour sequences) into an HTML page drawn as that terminal
showed it, for a screenshot by headless chromium. Knows the SGR codes pitool
writes: reset, bold, dim, italic, the 8+8 colours and 256 colours.

    scripts/ansi-html.py COLS < screen.ansi > screen.html
"""
import html
import re
import sys

BASE = ["#1d1f21", "#cc6666", "#b5bd68", "#f0c674", "#81a2be", "#b294bb", "#8abeb7", "#c5c8c6",
        "#666666", "#d54e53", "#b9ca4a", "#e7c547", "#7aa6da", "#c397d8", "#70c0b1", "#eaeaea"]


def xterm256(n):
    """The colour of xterm's palette entry n."""
    if n < 16:
        return BASE[n]
    if n < 232:
        n -= 16
        steps = [0, 95, 135, 175, 215, 255]
        return "#%02x%02x%02x" % (steps[n // 36], steps[n // 6 % 6], steps[n % 6])
    g = 8 + (n - 232) * 10
    return "#%02x%02x%02x" % (g, g, g)


def apply(state, params):
    """Apply the SGR parameters to state (a dict of CSS properties)."""
    codes = [int(p) if p else 0 for p in params.split(";")] if params else [0]
    i = 0
    while i < len(codes):
        c = codes[i]
        if c == 0:
            state.clear()
        elif c == 1:
            state["font-weight"] = "bold"
        elif c == 2:
            state["opacity"] = "0.6"
        elif c == 3:
            state["font-style"] = "italic"
        elif c == 4:
            state["text-decoration"] = "underline"
        elif c in (22, 23, 24):
            state.pop({22: "font-weight", 23: "font-style", 24: "text-decoration"}[c], None)
            if c == 22:
                state.pop("opacity", None)
        elif 30 <= c <= 37 or 90 <= c <= 97:
            state["color"] = BASE[c - 30 if c < 90 else c - 82]
        elif 40 <= c <= 47 or 100 <= c <= 107:
            state["background"] = BASE[c - 40 if c < 100 else c - 92]
        elif c in (38, 48) and i + 2 < len(codes) and codes[i + 1] == 5:
            state["color" if c == 38 else "background"] = xterm256(codes[i + 2])
            i += 2
        elif c in (38, 48) and i + 4 < len(codes) and codes[i + 1] == 2:
            state["color" if c == 38 else "background"] = "#%02x%02x%02x" % tuple(codes[i + 2:i + 5])
            i += 4
        elif c == 39:
            state.pop("color", None)
        elif c == 49:
            state.pop("background", None)
        i += 1


def main():
    cols = int(sys.argv[1])
    out, state = [], {}
    for part in re.split(r"(\x1b\[[0-9;]*m)", sys.stdin.read()):
        m = re.fullmatch(r"\x1b\[([0-9;]*)m", part)
        if m:
            apply(state, m.group(1))
        elif part:
            style = ";".join("%s:%s" % kv for kv in state.items())
            out.append('<span style="%s">%s</span>' % (style, html.escape(part)) if style else html.escape(part))
    print("""<!DOCTYPE html><meta charset="utf-8"><style>
body { margin: 0; background: #1d1f21; }
pre { margin: 0; padding: 10px 12px; color: #c5c8c6; font: 14px/1.25 "DejaVu Sans Mono", monospace; width: %dch; }
</style><pre>%s</pre>""" % (cols, "".join(out).rstrip("\n")))


main()

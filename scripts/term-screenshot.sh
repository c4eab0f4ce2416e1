#!/usr/bin/env bash
# term-screenshot: run COMMAND in a real terminal (tmux) of COLS x ROWS, capture
# the screen with its colours (capture-pane -e) and render it to a PNG with
# headless chromium, so docs show what a person sees. Also writes OUT.txt, the
# screen as plain text. Needs tmux, python3 and chromium.
#
#   scripts/term-screenshot.sh OUT.png COLS ROWS COMMAND...
set -euo pipefail
out=$1 cols=$2 rows=$3
shift 3
tmp=$(mktemp -d)
sock=pitool-shot-$$
trap 'tmux -L "$sock" kill-server 2>/dev/null || true; rm -rf "$tmp"' EXIT
printf '%q ' "$@" >"$tmp/cmd"
tmux -L "$sock" -f /dev/null new-session -d -x "$cols" -y "$rows" -s shot \
  "bash --norc -c 'source $tmp/cmd; tmux -L $sock wait-for -S done; sleep 600'"
tmux -L "$sock" wait-for done
tmux -L "$sock" capture-pane -t shot -e -p >"$tmp/screen.ansi"
tmux -L "$sock" capture-pane -t shot -p >"${out%.png}.txt"
python3 "$(dirname "$0")/ansi-html.py" "$cols" <"$tmp/screen.ansi" >"$tmp/screen.html"
width=$((cols * 85 / 10 + 24)) height=$((rows * 175 / 10 + 20))
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$tmp/profile" \
  --window-size="$width,$height" --screenshot="$out" "file://$tmp/screen.html" 2>/dev/null
echo "$out"

#!/usr/bin/env bash
# screenshot-ls: docs/ls-80.txt and docs/ls-80.png, pitool ls as an 80-column
# terminal shows it, on a folder of corpus sessions with a clone, a clone of
# the clone and a fork (all in a temporary PI_CODING_AGENT_DIR; nothing else
# is written). Needs tmux and chromium (apt-get install -y tmux chromium).
#
#   scripts/screenshot-ls.sh
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tmp=$(mktemp -d)
trap 'tmux kill-session -t pitool-shot 2>/dev/null || true; rm -rf "$tmp"' EXIT

go build -o "$tmp/bin/pitool" "$repo/cmd/pitool"
export PI_CODING_AGENT_DIR=$tmp/agent
project=$PI_CODING_AGENT_DIR/sessions/--home-dev-project--
mkdir -p "$project"
for f in v3/linear.jsonl v3/branched.jsonl v3/crashed.jsonl v3/agent-run.jsonl real/before-compaction.jsonl; do
  cp "$repo/testdata/corpus/$f" "$project/$(basename "$f")"
done
pitool=$tmp/bin/pitool
clone=$("$pitool" clone "$project/linear.jsonl")        # Pi's /clone
"$pitool" clone "$clone" >/dev/null                     # a clone of the clone
"$pitool" fork --at 01dc0adc "$project/branched.jsonl" >/dev/null  # Pi's /fork

# a real terminal of 80 columns: tmux runs the command, capture-pane reads the screen
tmux new-session -d -s pitool-shot -x 80 -y 30 \
  "env -u COLUMNS PATH=$tmp/bin:\$PATH PI_CODING_AGENT_DIR=$PI_CODING_AGENT_DIR PS1='$ ' bash --norc --noprofile"
sleep 0.5
tmux send-keys -t pitool-shot 'pitool ls' Enter
sleep 2
tmux capture-pane -t pitool-shot -e -p | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}' >"$repo/docs/ls-80.txt"

# render the capture (plain text: pitool ls writes no colour) as a PNG
python3 - "$repo/docs/ls-80.txt" "$tmp/ls.html" <<'PY'
import html, sys
text = open(sys.argv[1], encoding="utf-8").read().rstrip("\n")
open(sys.argv[2], "w", encoding="utf-8").write(
    "<!doctype html><meta charset=utf-8><body style='margin:0;background:#1e1e1e'>"
    "<pre style='margin:0;padding:12px;color:#d4d4d4;font:15px/1.3 \"DejaVu Sans Mono\",monospace'>"
    + html.escape(text) + "</pre>")
PY
lines=$(wc -l <"$repo/docs/ls-80.txt")
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
  --window-size=$((80 * 10 + 24)),$(((lines + 1) * 20 + 24)) \
  --screenshot="$repo/docs/ls-80.png" "file://$tmp/ls.html" 2>/dev/null
echo "wrote docs/ls-80.txt and docs/ls-80.png"

#!/usr/bin/env bash
# Drives `feedlayout preview --interactive` inside a private tmux server: sends keys (j/k, arrows,
# space, PgUp/PgDn, g/G, q), captures the pane, and checks what is on screen against the static
# output of the same feed, the status line, a feed in sections (index jumps, opening and closing
# in both modes, search, delete and undo, grouped style), that a resize re-lays the feed out at the new width,
# and that the terminal is restored (termios settings, alternate screen, cursor) after q, Ctrl-C
# (SIGINT), SIGTERM and a crash (SIGILL); also that `layout` reads a FIFO once when its progress
# bar is on the terminal. Exits non-zero on any failure.
#
# Usage: scripts/test-interactive.sh            (uses .build/debug/feedlayout, else .build/release)
#        FEEDLAYOUT_BIN=path scripts/test-interactive.sh
#        FEEDLAYOUT_BIG_FEED=feed.jsonl scripts/test-interactive.sh   (also reports frame times on it)
set -u

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BIN="${FEEDLAYOUT_BIN:-}"
if [[ -z "$BIN" ]]; then
    for c in "$ROOT/.build/debug/feedlayout" "$ROOT/.build/release/feedlayout"; do
        if [[ -x "$c" ]]; then BIN="$c"; break; fi
    done
fi
[[ -n "$BIN" && -x "$BIN" ]] || { echo "test-interactive: no feedlayout binary (run swift build)" >&2; exit 1; }
command -v tmux >/dev/null || { echo "test-interactive: tmux is required (apt-get install tmux)" >&2; exit 1; }

WORK="$(mktemp -d)"
SOCK="feedlayout-test-$$"
T=(tmux -L "$SOCK" -f /dev/null)
cleanup() {
    "${T[@]}" kill-server 2>/dev/null || true
    [[ -n "${KEEP_WORK:-}" ]] && echo "work dir: $WORK" >&2 || rm -rf "$WORK"
}
trap cleanup EXIT
# Records its pid and the wall-clock time it starts, then becomes the command (so the pid is the
# viewer's, and the first-frame figure counts the process's start: fonts, index, first rows).
printf '%s\n' 'echo $$ > "$1"' 'date +%s.%N > "$1.start"' 'shift' 'exec "$@"' > "$WORK/launch.sh"

FAILURES=0
CHECKS=0
pass() { CHECKS=$((CHECKS + 1)); }
fail() { CHECKS=$((CHECKS + 1)); FAILURES=$((FAILURES + 1)); echo "FAIL: $*" >&2; }
check() { # check DESCRIPTION COMMAND...
    local what="$1"; shift
    if "$@"; then pass; else fail "$what"; fi
}

screen() { "${T[@]}" capture-pane -p -t t; }
# The rows of the pane above the status line once two captures 0.2 s apart agree (at most 3 s):
# a capture taken while the viewer redraws holds a half-drawn row, which is no state of the screen.
settled_rows() {
    local last now i=0
    last="$(screen | head -n 23)"
    while (( i < 15 )); do
        sleep 0.2
        now="$(screen | head -n 23)"
        [[ "$now" == "$last" ]] && break
        last="$now"
        i=$((i + 1))
    done
    printf '%s\n' "$last"
}
status_line() { screen | grep -a 'rows .* of ' | tail -n 1; }
status_has() { status_line | grep -aEq -- "$1"; }
screen_has() { screen | grep -aEq -- "$1"; }
pane_var() { "${T[@]}" display-message -p -t t "#{$1}"; }

# wait_for PATTERN [SECONDS]: until the pane shows PATTERN (extended regex).
wait_for() {
    local pattern="$1" limit="${2:-60}" i=0
    while (( i < limit * 10 )); do
        if screen | grep -aEq -- "$pattern"; then return 0; fi
        sleep 0.1
        i=$((i + 1))
    done
    echo "--- pane after waiting for /$pattern/:" >&2
    screen >&2
    return 1
}

# wait_file PATH [SECONDS]
wait_file() {
    local i=0
    while (( i < ${2:-30} * 10 )); do
        [[ -s "$1" ]] && return 0
        sleep 0.1
        i=$((i + 1))
    done
    return 1
}

# start NAME ARGS...: runs the viewer in a fresh 80×24 session through a wrapper that records the
# terminal settings before and after, and the exit status. With $FEED_FROM set, the viewer reads
# the feed from that command's output on standard input.
start() {
    local name="$1"; shift
    local run="$WORK/$name"
    mkdir -p "$run"
    {
        echo "cd '$ROOT'"
        echo "stty -g > '$run/before'"
        # In the foreground (a background job would get /dev/null as input); exec keeps the pid.
        [[ -z "${FEED_FROM:-}" ]] || printf "(%s) | " "$FEED_FROM"
        printf "bash '%s/launch.sh' '%s/pid' '%s' preview --interactive" "$WORK" "$run" "$BIN"
        (( $# == 0 )) || printf " '%s'" "$@"
        echo " 2> '$run/stderr'; echo \$? > '$run/rc'"
        echo "stty -g > '$run/after'"
        echo "exec sleep 600"
    } > "$run/wrapper.sh"
    # A server per run: a new session on a socket whose server is still shutting down can fail.
    "${T[@]}" kill-server 2>/dev/null || true
    SOCK="feedlayout-test-$$-$name"
    T=(tmux -L "$SOCK" -f /dev/null)
    "${T[@]}" new-session -d -s t -x 80 -y 24 "bash '$run/wrapper.sh'"
}

# restored NAME EXPECTED_RC: the viewer exited with EXPECTED_RC and the terminal is as before.
restored() {
    local name="$1" want="$2" run="$WORK/$1"
    if ! wait_file "$run/rc" 20; then fail "$name: the viewer did not exit"; return; fi
    wait_file "$run/after" 10 || true
    check "$name: exit status $(cat "$run/rc"), expected $want" [ "$(cat "$run/rc")" = "$want" ]
    check "$name: termios settings restored" cmp -s "$run/before" "$run/after"
    check "$name: alternate screen left" [ "$(pane_var alternate_on)" = "0" ]
    check "$name: cursor visible" [ "$(pane_var cursor_flag)" = "1" ]
}

# expect_top N: the screen's feed lines are the static output's lines N… (1-based).
expect_top() {
    local n="$1" got want
    got="$(screen | head -n 23 | sed 's/[[:space:]]*$//')"
    want="$(sed -n "${n},$((n + 22))p" "$WORK/static.txt" | sed 's/[[:space:]]*$//')"
    local count
    count="$(printf '%s\n' "$want" | wc -l)"
    got="$(printf '%s\n' "$got" | head -n "$count")"
    if [[ "$got" == "$want" ]]; then pass; else
        fail "screen at line $n differs from the static output"
        diff <(printf '%s\n' "$want") <(printf '%s\n' "$got") >&2 || true
    fi
}

# ---------------------------------------------------------------- keys and what is on screen
"$BIN" preview --rows : --width 375 --color never > "$WORK/static.txt"
TOTAL="$(wc -l < "$WORK/static.txt")"
start keys --width 375
wait_for 'rows [0-9]+–[0-9]+ of 13 · lines 1–23 ' || fail "viewer did not start"
check "alternate screen on while browsing" [ "$(pane_var alternate_on)" = "1" ]
expect_top 1

"${T[@]}" send-keys -t t j
wait_for ' lines 2–24 ' && expect_top 2 || fail "j"
check "status line shows the last frame's time" status_has 'frame [0-9.]+ ms' 
"${T[@]}" send-keys -t t j j j
wait_for ' lines 5–27 ' && expect_top 5 || fail "j j j"
"${T[@]}" send-keys -t t k
wait_for ' lines 4–26 ' && expect_top 4 || fail "k"
"${T[@]}" send-keys -t t Down
wait_for ' lines 5–27 ' && expect_top 5 || fail "Down"
"${T[@]}" send-keys -t t Up
wait_for ' lines 4–26 ' || fail "Up"
"${T[@]}" send-keys -t t Space
wait_for ' lines 27–49 ' && expect_top 27 || fail "space"
"${T[@]}" send-keys -t t NPage
wait_for ' lines 50–72 ' && expect_top 50 || fail "PgDn"
"${T[@]}" send-keys -t t PPage
wait_for ' lines 27–49 ' || fail "PgUp"
"${T[@]}" send-keys -t t G
wait_for " lines $((TOTAL - 22))–$TOTAL of $TOTAL " && expect_top $((TOTAL - 22)) || fail "G"
check "G shows the last row (rows counted from 0, as the separators #N)" status_has '–12 of 13'
check "G shows the closing line" screen_has '└'

"${T[@]}" send-keys -t t j
sleep 0.3
wait_for " lines $((TOTAL - 22))–$TOTAL of $TOTAL " || fail "j at the bottom moved past the end"
"${T[@]}" send-keys -t t g
wait_for ' lines 1–23 ' && expect_top 1 || fail "g"
"${T[@]}" send-keys -t t k
sleep 0.3
wait_for ' lines 1–23 ' || fail "k at the top moved above it"
# Keys typed right after G, in one burst, move from the bottom (they moved from the top, and the
# G was lost).
"${T[@]}" send-keys -t t -l Gk
wait_for " lines $((TOTAL - 23))–$((TOTAL - 1)) of $TOTAL " && expect_top $((TOTAL - 23)) || fail "Gk in one burst"
"${T[@]}" send-keys -t t q
restored keys 0
check "the shell's screen is back after q" eval '! screen_has "rows .* of 13"' 

# ---------------------------------------------------------------- sections: index, open/close, search, delete/undo
# The demo feed grouped by day (--now on its newest day: "今天", "昨天", "11月18日", …), plain
# style: headers float, the side index shows the titles' first characters.
first_has() { screen | head -n 1 | grep -aEq -- "$1"; }
second_has() { screen | sed -n 2p | grep -aEq -- "$1"; }
# step PATTERN WHAT KEYS...: sends the keys, then waits for PATTERN (failing with WHAT).
step() {
    local pattern="$1" what="$2"; shift 2
    "${T[@]}" send-keys -t t "$@"
    wait_for "$pattern" 5 || { fail "$what"; return 1; }
}
SECTIONED=(--width 375 --group-by day --now 1700480000)
start sections "${SECTIONED[@]}"
wait_for '╞═ ▾ 今天' || fail "sections: the demo feed grouped by day"
check "sections: the side index lists the titles' first characters, the current one marked" \
    eval 'screen | head -n 3 | tr -d " " | grep -aEq "›今$" && screen | sed -n 2p | grep -aEq "昨$"'
step '§今天' "sections: ]" ']' && check "sections: ] goes to the first title" first_has '^╞═ ▾ 今天'
step '§昨天' "sections: ] ]" ']' && check "sections: ] goes to the next title" first_has '^╞═ ▾ 昨天'
step '§11月18日' "sections: 1" 1 && check "sections: a character jumps to the next title starting with it" first_has '^╞═ ▾ 11月18日'
step '§11月17日' "sections: 1 again goes on to the next title starting with 1" 1
step '§11月18日' "sections: [ goes back a title" '['
step ' lines [0-9]+–[0-9]+ .*§11月18日' "sections: j j j" j j j
check "sections: the header floats on the first line while its section scrolls" first_has '^╞═ ▾ 11月18日'
check "sections: under it, the section's rows scrolled" eval '! second_has "├─ #5 "'
step '§11月18日' "sections: [" '[' && check "sections: [ inside a section goes to its own header" second_has '^├─ #5 '
step '§11月18日 \(closed\)' "sections: Enter closes the section at the top" Enter
check "sections: a closed section shows its header only" second_has '^╞═ ▾ 11月17日'
check "sections: the closed header has its mark" first_has '^╞═ ▸ 11月18日 · 2'
step '§11月18日 ·' "sections: Enter again" Enter && check "sections: Enter opens it again, its header still at the top" second_has '^├─ #5 '
# Search: / and the text, Enter keeps it, Escape clears it; the row at the top stays.
"${T[@]}" send-keys -t t /
step 'search: 橘子' "sections: the search text is shown while typed" -l '橘子'
step '/橘子: 1 found' "sections: / filters the rows by name (one match)" Enter
check "sections: the search reuses the cached layouts" status_has 'cells 0 laid out, [0-9]+ cached'
check "sections: the match is on screen" screen_has '_橘子汽水_'
step '§11月18日 ·' "sections: Escape" Escape && check "sections: Escape clears the search, the same row at the top" second_has '^├─ #5 '
# Delete and undo the row at the top.
step '§今天' "sections: g ]" g ']'
step 'deleted #0 · rows [0-9]+–[0-9]+ of 12 ' "sections: d deletes the row at the top" d
check "sections: the deleted row's section counts one row less" first_has '今天 · 1'
check "sections: the delete laid no cell out" status_has 'cells 0 laid out'
step 'restored #0 · rows [0-9]+–[0-9]+ of 13 ' "sections: u undoes the delete" u
check "sections: the row is back" first_has '今天 · 2'
check "sections: the undo laid no cell out" status_has 'cells 0 laid out'
step 'next / previous section title' "sections: ? shows the keys" '?'
step '§今天' "sections: a key closes the help" j
"${T[@]}" send-keys -t t q
restored sections 0

# Accordion: every section starts closed, opening one closes the one open.
start accordion "${SECTIONED[@]}" --expansion accordion
wait_for '╞═ ▸ 今天 · 2' || fail "accordion: sections start closed"
check "accordion: the whole feed is the headers" status_has ' lines 1–9 of 9 '
step '§昨天 ·' "accordion: open" ']' ']' Enter && check "accordion: Enter opens the section at the top" first_has '^╞═ ▾ 昨天'
step '§11月18日 ·' "accordion: open another" ']' Enter && check "accordion: the next one opens" first_has '^╞═ ▾ 11月18日'
step ' lines 1–' "accordion: g" g
check "accordion: opening it closed the one open before" eval 'screen_has "╞═ ▸ 昨天" && screen_has "╞═ ▾ 11月18日"'
"${T[@]}" send-keys -t t q
restored accordion 0

# Grouped style: inset sections, a blank line between them, headers that scroll.
start grouped "${SECTIONED[@]}" --table-style grouped
wait_for '^  ┌─ ▾ 今天' || fail "grouped: inset headers"
check "grouped: a blank line before the first section" eval 'screen | sed -n 2p | cut -c1-50 | grep -aqv "[^ ]"'
check "grouped: inset rows" screen_has '^  ├─ #0 '
step '§昨天' "grouped: ]" ']' ']' j j && check "grouped: headers scroll with their section" eval '! first_has "昨天"'
"${T[@]}" send-keys -t t q
restored grouped 0

# A friend list: its groups in accordion mode (closed at first), "online/total" counts, friend cells.
start friends Fixtures/friends.plist --width 375
wait_for '╞═ ▸ 我的好友 · 8/24' || fail "friends: the groups with their counts"
check "friends: every group starts closed" status_has ' lines 1–14 of 14 '
step '§我的好友 ·' "friends: ] Enter" ']' Enter && check "friends: Enter opens the first group" second_has '^├─ #0 '
check "friends: a friend's name" screen_has '刘一鸣'
step '§同学' "friends: a title's first character" -l '同'
step '§同事' "friends: the same character again goes on to the next title" -l '同'
step '§同事 ·' "friends: Enter on 同事" Enter
step ' lines 1–' "friends: g" g
check "friends: opening a group closed the one open before" eval 'screen_has "╞═ ▸ 我的好友" && screen_has "╞═ ▾ 同事"'
"${T[@]}" send-keys -t t /
step 'search: 谢' "friends: typing a search" -l '谢'
step '/谢: [0-9]+ found' "friends: / finds friends in closed groups too" Enter
check "friends: the search shows the matches only" eval '! screen_has "╞═"'
step '§我的好友' "friends: Escape clears the search" Escape
step 'deleted #[0-9]+ · rows [0-9]+–[0-9]+ of 392 ' "friends: d deletes the friend at the top" ']' ']' ']' ']' d
step 'restored #[0-9]+ · rows [0-9]+–[0-9]+ of 393 ' "friends: u puts it back" u
"${T[@]}" send-keys -t t q
restored friends 0

# A plain feed: search, delete and undo lay the whole feed out on the first such key.
start plainedit --width 375
wait_for 'rows [0-9]+–[0-9]+ of 13 · lines 1–23 ' || fail "plainedit: viewer did not start"
step 'deleted #0 · rows [0-9]+–[0-9]+ of 12 ' "plainedit: d deletes the first row" d
check "plainedit: the first row is gone" eval '! screen_has "小鹿乱撞的晴天"'
check "plainedit: the title stays on the first line and counts the rows left" first_has '^┌─ .* 12 rows .*┐$'
step 'restored #0 .*of 13 ' "plainedit: u undoes it" u && check "plainedit: the first row is back" screen_has '小鹿乱撞的晴天'
"${T[@]}" send-keys -t t / 
"${T[@]}" send-keys -t t -l '橘子'
step '/橘子: 1 found' "plainedit: / filters the rows" Enter
"${T[@]}" send-keys -t t q
restored plainedit 0

# A sectioned view follows a resize too, keeping its deletes, open sections and position.
start sectionsresize --group-by day --now 1700480000
wait_for 'weibo 510 pt' || fail "sectionsresize: laid out at the terminal's width less the index (75 × 6.8 pt)"
step '§昨天 \(closed\)' "sectionsresize: ] ] Enter" ']' ']' Enter
step 'deleted #[0-9]+ · rows [0-9]+–[0-9]+ of 12 ' "sectionsresize: d" d
"${T[@]}" resize-window -t t -x 100 -y 30
wait_for '§昨天 \(closed\)' 10 && check "sectionsresize: laid out again at the new width, the delete kept" status_has ' of 12 ' \
    || fail "sectionsresize: resize"
step 'restored #[0-9]+ · rows [0-9]+–[0-9]+ of 13 ' "sectionsresize: u after the resize" u
step ' lines 1–29 ' "sectionsresize: g" g
check "sectionsresize: the title shows the new width (95 × 6.8 pt)" screen_has 'weibo 646 pt'
"${T[@]}" send-keys -t t q
restored sectionsresize 0

# ---------------------------------------------------------------- resize re-lays out
start resize
wait_for 'weibo 530.4 pt' || fail "without --width the feed is laid out at the terminal's width (78 × 6.8 pt)"
"${T[@]}" resize-window -t t -x 100 -y 30
wait_for 'weibo 666.4 pt' || fail "a resize re-lays the feed out at the new width (98 × 6.8 pt)"
wait_for ' lines 1–29 ' || fail "a resize uses the new height"
"${T[@]}" send-keys -t t q
restored resize 0

# ---------------------------------------------------------------- Ctrl-C and SIGTERM restore too
start sigint --width 375
wait_for 'rows [0-9]+–[0-9]+ of 13' || fail "viewer did not start (sigint)"
"${T[@]}" send-keys -t t j C-c
restored sigint 130

start sigterm --width 375
wait_for 'rows [0-9]+–[0-9]+ of 13' || fail "viewer did not start (sigterm)"
kill -TERM "$(cat "$WORK/sigterm/pid")"
restored sigterm 143

# A crash (a trap is SIGILL) gives the terminal back too, then ends the process by the signal
# (through the Swift runtime's backtrace, here not waiting for a key).
SWIFT_BACKTRACE=interactive=no start crash --width 375
wait_for 'rows [0-9]+–[0-9]+ of 13' || fail "viewer did not start (crash)"
kill -ILL "$(cat "$WORK/crash/pid")"
restored crash 132

# ---------------------------------------------------------------- layout from a FIFO, stderr on a terminal
# With standard error on a terminal, `layout` counts a JSON Lines input's lines for its progress
# bar, but only when the input can be read twice: a FIFO named *.jsonl was read to its end by the
# count, and the job then waited for a writer forever.
"${T[@]}" kill-server 2>/dev/null || true
SOCK="feedlayout-test-$$-fifo"
T=(tmux -L "$SOCK" -f /dev/null)
mkdir -p "$WORK/fifo"
mkfifo "$WORK/fifo/feed.jsonl"
"$BIN" generate --count 5 --seed 3 --format jsonl -o "$WORK/fifo/five.jsonl"
"${T[@]}" new-session -d -s t -x 80 -y 24 \
    "'$BIN' layout '$WORK/fifo/feed.jsonl' --format jsonl -o '$WORK/fifo/out.jsonl'; echo \$? > '$WORK/fifo/rc'; sleep 5"
cat "$WORK/fifo/five.jsonl" > "$WORK/fifo/feed.jsonl" &
writer=$!
if wait_file "$WORK/fifo/rc" 20; then
    check "layout from a FIFO: exit status $(cat "$WORK/fifo/rc"), expected 0" [ "$(cat "$WORK/fifo/rc")" = "0" ]
    check "layout from a FIFO: 5 rows written" [ "$(wc -l < "$WORK/fifo/out.jsonl")" = "5" ]
else
    fail "layout from a FIFO: the job did not finish"
fi
kill "$writer" 2>/dev/null || true

# ---------------------------------------------------------------- suspend (Ctrl-Z) and resume (fg)
# An interactive shell in the pane (job control), the viewer started from its prompt.
"${T[@]}" kill-server 2>/dev/null || true
SOCK="feedlayout-test-$$-suspend"
T=(tmux -L "$SOCK" -f /dev/null)
mkdir -p "$WORK/suspend"
"${T[@]}" new-session -d -s t -x 80 -y 24 "env PS1='prompt\$ ' bash --norc --noprofile -i"
wait_for 'prompt\$' 10 || fail "suspend: no shell prompt"
# One command a line: a list would go on running (`; echo $?`) as soon as the viewer stops.
"${T[@]}" send-keys -t t "cd '$ROOT'; stty -g > '$WORK/suspend/before'" Enter
"${T[@]}" send-keys -t t "'$BIN' preview --interactive --width 375" Enter
wait_for 'rows [0-9]+–[0-9]+ of 13' || fail "suspend: viewer did not start"
"${T[@]}" send-keys -t t j
wait_for ' lines 2–24 ' || fail "suspend: j before Ctrl-Z"
"${T[@]}" send-keys -t t C-z
wait_for 'Stopped' 10 || fail "suspend: Ctrl-Z did not stop the viewer"
check "suspend: the alternate screen is left while stopped" [ "$(pane_var alternate_on)" = "0" ]
check "suspend: the cursor is visible while stopped" [ "$(pane_var cursor_flag)" = "1" ]
"${T[@]}" send-keys -t t "stty -g > '$WORK/suspend/stopped'" Enter
wait_file "$WORK/suspend/stopped" 10 || true
check "suspend: the shell has the terminal as it was while the viewer is stopped" cmp -s "$WORK/suspend/before" "$WORK/suspend/stopped"
"${T[@]}" send-keys -t t fg Enter
wait_for ' lines 2–24 ' 10 || fail "suspend: fg did not redraw the viewer"
check "suspend: fg enters the alternate screen again" [ "$(pane_var alternate_on)" = "1" ]
check "suspend: fg hides the cursor again" [ "$(pane_var cursor_flag)" = "0" ]
"${T[@]}" send-keys -t t j
wait_for ' lines 3–25 ' 5 || fail "suspend: after fg a key is read at once (raw mode), not held for Enter"
check "suspend: no echo after fg" eval '! screen | grep -aq "^j"'
"${T[@]}" send-keys -t t q
wait_for 'prompt\$ ?$' 10 || fail "suspend: no prompt after q"
"${T[@]}" send-keys -t t "echo \$? > '$WORK/suspend/rc'; stty -g > '$WORK/suspend/after'" Enter
if wait_file "$WORK/suspend/rc" 20; then
    wait_file "$WORK/suspend/after" 10 || true
    check "suspend: exit status 0 after fg and q" [ "$(cat "$WORK/suspend/rc")" = "0" ]
    check "suspend: termios settings restored after fg and q" cmp -s "$WORK/suspend/before" "$WORK/suspend/after"
    check "suspend: alternate screen left after q" [ "$(pane_var alternate_on)" = "0" ]
else
    fail "suspend: the viewer did not exit after fg and q"
fi

# ---------------------------------------------------------------- a feed on standard input, slow to come
# `(sleep; cat feed) | feedlayout preview - -i`: keys come from /dev/tty; keys typed and a resize
# made while the feed loads are neither echoed nor lost.
run="$WORK/stdin"
FEED_FROM="sleep 3; cat Fixtures/feed.plist" start stdin -
wait_for 'loading' 10 || fail "stdin: no loading screen"
"${T[@]}" send-keys -t t j j j
sleep 0.3
check "stdin: keys typed during the load are not echoed" eval '! screen_has "jjj|j j j"'
"${T[@]}" resize-window -t t -x 100 -y 30
wait_for ' lines 4–32 ' 20 || fail "stdin: the 3 keys typed during the load apply after it, on the new height"
"${T[@]}" send-keys -t t g
wait_for '<stdin> · 13 rows' 10 || fail "stdin: the piped feed is shown (keys from /dev/tty)"
check "stdin: a resize during the load is honoured (laid out at 98 × 6.8 pt)" screen_has '<stdin> · 13 rows · weibo 666.4 pt'
"${T[@]}" send-keys -t t G
wait_for '–12 of 13' 10 || fail "stdin: G"
"${T[@]}" send-keys -t t q
restored stdin 0

# ---------------------------------------------------------------- a big feed: estimates, background, figures
# A generated JSON Lines feed (FEEDLAYOUT_BIG_FEED to use another). The first screen comes before
# the feed is laid out (rows below are estimated), G reaches the last rows, the rows on screen do
# not move while the estimates above and below them are corrected. The figures (first screen from
# the process's start, G from the key) are printed, with generous sanity bounds only.
BIG="${FEEDLAYOUT_BIG_FEED:-}"
if [[ -z "$BIG" ]]; then
    BIG="$WORK/big.jsonl"
    "$BIN" generate --count "${FEEDLAYOUT_BIG_COUNT:-20000}" --seed 5 --format jsonl -o "$BIG" || fail "generate the big feed"
fi
BIGROWS="$("$BIN" heights "$BIG" --threads 1 2>/dev/null | grep -oE '"rows":[0-9]+' | head -n1 | cut -d: -f2)"
[[ -n "${FEEDLAYOUT_BIG_FEED:-}" ]] && BIGROWS="" # counting a huge feed's heights takes long: read it from the status line
# The first run: G at once (the index may still be scanning).
export FEEDLAYOUT_VIEWER_TIMINGS="$WORK/timings-g"
start big "$BIG" --width 375
wait_for 'rows [0-9]+–[0-9]+ of [0-9]+' 60 || fail "big: viewer did not start"
"${T[@]}" send-keys -t t G
wait_for '└' 30 || fail "big: G did not reach the end (the closing line)"
count="$(status_line | sed -E 's/.*rows [0-9]+–([0-9]+) of ([0-9]+).*/\1 \2/')"
check "big: G shows the last row ($count)" [ "$(echo "$count" | awk '{print $1 + 1 == $2}')" = "1" ]
[[ -z "$BIGROWS" ]] || check "big: the row count is the feed's ($BIGROWS)" [ "$(echo "$count" | awk '{print $2}')" = "$BIGROWS" ]
"${T[@]}" send-keys -t t q
restored big 0
unset FEEDLAYOUT_VIEWER_TIMINGS
first="$(awk -v s="$(cat "$WORK/big/pid.start")" '$1 == "first-frame" {printf "%.0f", ($3 - s) * 1000}' "$WORK/timings-g")"
inviewer="$(awk '$1 == "first-frame" {print $2}' "$WORK/timings-g")"
measured="$(awk '$1 == "first-frame" {print $4, $5, $6, $7}' "$WORK/timings-g")"
gms="$(awk '$1 == "G" {print $2}' "$WORK/timings-g")"
echo "figures: $(basename "$BIG"): first screen ${first:-?} ms after the process started (${inviewer:-?} ms in the viewer, $measured rows); G ${gms:-?} ms"
check "big: the first screen was drawn before the feed was measured ($measured)" \
    [ "$(awk '$1 == "first-frame" {print ($5 < $7)}' "$WORK/timings-g")" = "1" ]
check "big: first screen within the sanity bound (${first:-?} ms < 5000)" [ -n "$first" ] && [ "${first:-99999}" -lt 5000 ]
check "big: G within the sanity bound (${gms:-?} ms < 10000)" [ -n "$gms" ] && awk -v g="$gms" 'BEGIN {exit !(g < 10000)}'

# The second run: pages down, then the rows on screen stay put while the background corrects.
start anchor "$BIG" --width 375
wait_for 'rows [0-9]+–[0-9]+ of [0-9]+' 60 || fail "anchor: viewer did not start"
"${T[@]}" send-keys -t t Space Space Space
sleep 1
before="$(settled_rows)"
if status_has 'measured'; then
    # Corrections are still coming: the rows on screen must not move meanwhile.
    sleep 3
    after="$(settled_rows)"
    if [[ "$before" == "$after" ]]; then pass; else
        fail "anchor: the rows on screen moved while estimates were corrected"
        diff <(printf '%s\n' "$before") <(printf '%s\n' "$after") >&2 || true
    fi
else
    echo "anchor: the feed was measured within a second; no correction to watch" >&2
fi
"${T[@]}" send-keys -t t q
restored anchor 0

echo "test-interactive: $((CHECKS - FAILURES)) passed, $FAILURES failed"
(( FAILURES == 0 ))

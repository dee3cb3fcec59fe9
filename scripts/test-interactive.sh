#!/usr/bin/env bash
# Drives `feedlayout preview --interactive` inside a private tmux server: sends keys (j/k, arrows,
# space, PgUp/PgDn, g/G, q), captures the pane, and checks what is on screen against the static
# output of the same feed, the status line, that a resize re-lays the feed out at the new width,
# and that the terminal is restored (termios settings, alternate screen, cursor) after q, Ctrl-C
# (SIGINT) and SIGTERM. Exits non-zero on any failure.
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
# Records its pid, then becomes the command (so the pid is the viewer's).
printf '%s\n' 'echo $$ > "$1"' 'shift' 'exec "$@"' > "$WORK/launch.sh"

FAILURES=0
CHECKS=0
pass() { CHECKS=$((CHECKS + 1)); }
fail() { CHECKS=$((CHECKS + 1)); FAILURES=$((FAILURES + 1)); echo "FAIL: $*" >&2; }
check() { # check DESCRIPTION COMMAND...
    local what="$1"; shift
    if "$@"; then pass; else fail "$what"; fi
}

screen() { "${T[@]}" capture-pane -p -t t; }
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
# terminal settings before and after, and the exit status.
start() {
    local name="$1"; shift
    local run="$WORK/$name"
    mkdir -p "$run"
    {
        echo "cd '$ROOT'"
        echo "stty -g > '$run/before'"
        # In the foreground (a background job would get /dev/null as input); exec keeps the pid.
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
"${T[@]}" send-keys -t t q
restored keys 0
check "the shell's screen is back after q" eval '! screen_has "rows .* of 13"' 

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

# ---------------------------------------------------------------- optional: a big feed
if [[ -n "${FEEDLAYOUT_BIG_FEED:-}" ]]; then
    start big "$FEEDLAYOUT_BIG_FEED" --width 375
    wait_for 'rows [0-9]+–[0-9]+ of [0-9]+' 1200 || fail "viewer did not start on the big feed"
    frame() { status_line | sed -E 's/.*frame ([0-9.]+) ms.*/\1/'; }
    report() { # report KEYS...: sends the keys, then one more j so the status shows that frame's time
        "${T[@]}" send-keys -t t "$@"
        sleep 0.5
        "${T[@]}" send-keys -t t j
        sleep 0.5
        echo "big feed: after $* the frame took $(frame) ms ($(status_line | grep -aoE 'rows [0-9–]+ of [0-9]+'))"
    }
    report G
    report g
    report Space Space Space
    report G k k k
    for _ in 1 2 3; do report NPage; done
    "${T[@]}" send-keys -t t q
    restored big 0
fi

echo "test-interactive: $((CHECKS - FAILURES)) passed, $FAILURES failed"
(( FAILURES == 0 ))

#!/usr/bin/env bash
# Builds the libFuzzer targets of fuzz/ (with AddressSanitizer) and runs each for a time budget,
# starting from the seeds in fuzz/Corpus/<target>/.
#
#   scripts/fuzz.sh [target ...]        every target when none is named (FuzzClassicPlist …)
#   FUZZ_SECONDS=600 scripts/fuzz.sh    seconds per target (default 60)
#   FUZZ_RUNS=1000000 scripts/fuzz.sh   stop each target after this many executions instead
#   FUZZ_CONFIG=debug scripts/fuzz.sh   unoptimized build (default release: optimized, ~5x the
#                                       executions; checks, overflow traps and ASan stay on)
#
# The working corpus (seeds plus what the fuzzer finds) lives in .build-fuzz/corpus/<target>, so the
# repository's seeds stay small; crashes, hangs (> FUZZ_TIMEOUT s, default 10), leaks and
# out-of-memory inputs go to .build-fuzz/artifacts/<target>/, logs to .build-fuzz/logs/.
# Reproduce one: fuzz/.build/release/<target> <artifact file>  (FUZZ_DEBUG=1 prints the text
# target's input and lines)
# Exits non-zero when any target found a problem.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=(FuzzClassicPlist FuzzModelPlist FuzzWeiboJSON FuzzJSONLines FuzzDetect FuzzText FuzzCell)
fi
seconds=${FUZZ_SECONDS:-60}
runs=${FUZZ_RUNS:--1}
timeout=${FUZZ_TIMEOUT:-10}
config=${FUZZ_CONFIG:-release}
work="$root/.build-fuzz"
mkdir -p "$work/logs"

for t in "${targets[@]}"; do
    echo "== building $t"
    (cd fuzz && swift build -c "$config" -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library --product "$t" 2>&1 \
        | grep -v "Cannot export local symbol" || true)
    [ -x "fuzz/.build/$config/$t" ] || { echo "fuzz.sh: $t did not build" >&2; exit 2; }
done

# The Swift runtime's backtracer would fight ASan over crash reports.
export SWIFT_BACKTRACE=enable=no
export FEEDLAYOUT_FONTS="$root/Fonts"
failed=()
summary="$work/summary-$$.txt"
printf '%-18s %12s %8s %10s %s\n' target executions seconds exec/s result > "$summary"
for t in "${targets[@]}"; do
    extra=(-rss_limit_mb=2048)
    corpus="$work/corpus/$t"
    artifacts="$work/artifacts/$t"
    mkdir -p "$corpus" "$artifacts"
    cp -n fuzz/Corpus/"$t"/* "$corpus"/ 2>/dev/null || true
    log="$work/logs/$t.log"
    : > "$log"
    echo "== fuzzing $t for ${seconds}s (runs: $runs) — log: $log"
    # A crash stops libFuzzer: record it and go on with the rest of the budget, so one finding does
    # not hide the next. Executions add up over the restarts.
    start=$(date +%s)
    execs=0
    crashes=0
    while :; do
        left=$(( seconds - ($(date +%s) - start) ))
        [ "$left" -gt 0 ] || break
        status=0
        "fuzz/.build/$config/$t" "$corpus" "fuzz/Corpus/$t" \
            -max_total_time="$left" -runs="$runs" -timeout="$timeout" -max_len=16384 "${extra[@]}" \
            -print_final_stats=1 -artifact_prefix="$artifacts/" >> "$log" 2>&1 || status=$?
        n=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | paste -sd+ | bc)
        execs=${n:-0}
        if [ "$status" -ne 0 ]; then
            crashes=$(( crashes + 1 ))
            # A run that dies before its first input would loop for ever.
            [ "$crashes" -lt 50 ] || break
        fi
        [ "$runs" -lt 0 ] || [ "$status" -ne 0 ] || break
    done
    elapsed=$(( $(date +%s) - start ))
    rate=$(( execs / (elapsed > 0 ? elapsed : 1) ))
    if [ "$crashes" -eq 0 ]; then result=ok; else result="FAILED: $crashes problem(s), see $artifacts"; failed+=("$t"); fi
    printf '%-18s %12s %8s %10s %s\n' "$t" "$execs" "$elapsed" "$rate" "$result" | tee -a "$summary"
done
echo
cat "$summary"
if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz.sh: problems in: ${failed[*]} (inputs in $work/artifacts/)" >&2
    exit 1
fi

#!/usr/bin/env bash
# Records what the command line prints for a script of representative invocations: every
# subcommand's --help, text, --json and --yaml output, errors and exit codes. Run it before and
# after a change that must not alter behaviour, and diff the two transcripts:
#
#   tests/behaviour/record.sh target/release/cathedral > /tmp/before.txt
#   ... change ...
#   tests/behaviour/record.sh target/release/cathedral > /tmp/after.txt
#   diff /tmp/before.txt /tmp/after.txt
#
# Times and rates are masked (they differ from run to run); searches run on one thread so that
# node counts are exact and repeatable.
set -uo pipefail
BIN=$(realpath "${1:-target/release/cathedral}")
cd "$(dirname "$0")/../.."
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

mask() {
    sed -E \
        -e 's/[0-9]+(\.[0-9]+)? (ms|s)\b/<time>/g' \
        -e 's/[0-9]+(\.[0-9]+)?( [kM])? nodes\/s/<rate> nodes\/s/g' \
        -e 's/^time: .*/time: <masked>/' \
        -e 's/\| +[0-9.]+( [kM])? \| +([0-9.]+%|-) \|$/| <rate> | \2 |/' \
        -e 's/(\| <time> \| +[0-9]+ \|) +[0-9.]+( [kM])? \|$/\1 <rate> |/' \
        -e 's/"(seconds|nodes_per_second)": [0-9.e+-]+/"\1": <masked>/g' \
        -e 's/\([0-9]+(\.[0-9]+)? per minute\)/(<rate> per minute)/g' \
        -e 's/\([0-9]+(\.[0-9]+)? games per minute\)/(<rate> games per minute)/g' \
        -e "s#$WORK#<work>#g"
}

run() {
    echo "=== cathedral $*" | mask
    "$BIN" "$@" >"$WORK/out" 2>"$WORK/err"
    local code=$?
    mask <"$WORK/out"
    echo "--- stderr"
    mask <"$WORK/err"
    echo "--- exit $code"
}

run --help
run --version
for cmd in show moves play perft solve bench sample generate check render sheet index; do
    run "$cmd" --help
    run help "$cmd"
done
run
run frobnicate

# show, moves
run show --color never
run show --color always
run show --json
run show puzzles/examples/endgame.yaml --color never
run show puzzles/examples/diagram.yaml --color never
run show no/such/file.yaml
printf 'to_move: purple\n' >"$WORK/bad.yaml"
run show "$WORK/bad.yaml"
run moves --color never
run moves puzzles/examples/opening.yaml --color never
run moves --all --color never
run moves --json
run moves puzzles/examples/endgame.yaml --json

# play
run play puzzles/rules/07-capture-of-a-lone-building.yaml dark:bridge:c1,c2,c3 --color never
run play puzzles/rules/07-capture-of-a-lone-building.yaml dark:bridge:c1,c2,c3 --json
run play puzzles/examples/opening.yaml castle:a1,b1 --color never
run play puzzles/examples/opening.yaml nonsense
run play puzzles/rules/15-opponent-territory-refused.yaml --color never
run play puzzles/examples/opening.yaml castle:a1,b1 -o "$WORK/played.yaml" --color never
run show "$WORK/played.yaml" --json
run play puzzles/examples/opening.yaml castle:a1,b1 -o "$WORK/played.yaml" --color never

# perft
run perft puzzles/examples/opening.yaml 2
run perft puzzles/examples/endgame.yaml 3 --divide
run perft two
run perft puzzles/examples/midgame.yaml 0

# solve
run solve --threads 1 --color never
run solve --threads 1 --json
run solve --threads 1 --yaml
run solve puzzles/bench/t3-01.yaml --threads 1 --color never --all
run solve puzzles/bench/t5-02.yaml --threads 1 --color never
run solve puzzles/bench/t5-02.yaml --threads 1 --wdl --color never
run solve puzzles/bench/t5-02.yaml --threads 1 --wdl --json
run solve puzzles/bench/t3-02.yaml --threads 1 --json
run solve puzzles/rules/08-forced-pass-and-game-end.yaml --threads 1 --color never
run play puzzles/rules/08-forced-pass-and-game-end.yaml pass -o "$WORK/over.yaml" --color never
run solve "$WORK/over.yaml" --threads 1 --color never
run solve "$WORK/over.yaml" --threads 1 --json
run solve puzzles/bench/t5-02.yaml --threads 1 --time-limit -1
run solve puzzles/bench/t5-02.yaml --threads 1 --time-limit nan
run solve puzzles/bench/t7-02.yaml --threads 1 --time-limit 0 --yaml
run solve puzzles/bench/t7-02.yaml --threads 1 --time-limit 0 --color never
run solve --json --yaml

# bench
mkdir -p "$WORK/bench"
cp puzzles/bench/t3-0[1-3].yaml "$WORK/bench/"
run bench "$WORK/bench" --threads 1 --color never
run bench "$WORK/nosuchdir" --threads 1

# sample
run sample --tier t5 --count 2 --seed 1 -o "$WORK/sample"
run show "$WORK/sample/t5-01.yaml" --json
run sample --tier t5 --count 2 --seed 1 -o "$WORK/sample"
run sample --tier t99 --count 2 -o "$WORK/sample2"

# generate, check, render, sheet, index
run generate --count 2 --seed 3 --threads 1 -o "$WORK/p"
for f in "$WORK"/p/*; do echo "### $(basename "$f")"; mask <"$f"; done
run check puzzles/teaching/puzzle-001.yaml "$(sed -n 's/^ *best_move: //p' puzzles/teaching/puzzle-001.yaml | head -1)"
run check puzzles/teaching/puzzle-001.yaml pass
run check puzzles/teaching/puzzle-001.yaml nonsense
run render puzzles/teaching/puzzle-001.yaml -o "$WORK/p1.svg" --solution
mask <"$WORK/p1.svg" | md5sum
run render puzzles/examples/midgame.yaml -o "$WORK/p1.svg"
run render puzzles/examples/midgame.yaml -o "$WORK/m.svg" --highlight castle:a1,b1
run sheet puzzles/teaching -o "$WORK/sheet.html"
md5sum <"$WORK/sheet.html"
run index "$WORK/p"
run index "$WORK/nosuchdir"

# records: play --record, replay, analyse, match, standings (node budgets: repeatable)
for cmd in replay analyse match standings engine; do
    run "$cmd" --help
done
run play puzzles/examples/opening.yaml cathedral:e3,f2,f3,f4,g3,h3 --record "$WORK/rec.yaml" --color never
run play puzzles/examples/opening.yaml cathedral:e3,f2,f3,f4,g3,h3 --record "$WORK/rec.yaml" --color never
for f in "$WORK"/rec.yaml; do echo "### $(basename "$f")"; mask <"$f"; done
run replay puzzles/games/example.yaml --color never
run replay puzzles/games/example.yaml --ply 2 --color never
run replay puzzles/games/example.yaml --json
run replay puzzles/games/example.yaml --ply 3 -o "$WORK/r.yaml"
mask <"$WORK/r.yaml"
run replay puzzles/games/example.yaml --game 9
run analyse puzzles/games/example.yaml --nodes-per-move 3000 --threads 1 --color never
run analyse puzzles/games/example.yaml --nodes-per-move 3000 --threads 1 --json
run match --a engine:level=2 --b greedy --games 2 --nodes 2000 --seed 3 -o "$WORK/m" --color never
for f in "$WORK"/m/*; do echo "### $(basename "$f")"; mask <"$f"; done
run standings "$WORK"/m/pair-0001.yaml --color never
run match --a engine:level=2 --b greedy --games 3
printf 'hello\nposition start\nmoves\nshow\ngo nodes 500\nsolve nodes 100\nrules chess\nrules moore1978\nplay nonsense\nquit\n' | "$BIN" engine | mask |
    sed -E -e 's/ time [0-9]+/ time <t>/' -e 's/ nps [0-9]+/ nps <n>/'

#!/bin/sh
# Regenerates puzzle-073 onward of the shipped collection (docs/puzzles.md, "The shipped
# collection"): policy games and engine games at levels 3, 5 and 7, each run seeded, numbered
# after the files already in DIR. puzzle-001..072 come from the runs listed in docs/puzzles.md.
# Then rates every puzzle. Usage: puzzles/teaching/generate.sh [DIR] (default puzzles/teaching;
# DIR must hold puzzle-001..072 and nothing after them). Uses target/release/cathedral
# (`cargo build --release` first), 2 threads.
set -u
DIR=${1:-puzzles/teaching}
BIN=${CATHEDRAL:-target/release/cathedral}

run() {
    first=$(($(ls "$DIR"/puzzle-*.yaml | wc -l) + 1))
    echo "== generate --first $first $*"
    "$BIN" generate --threads 2 -o "$DIR" --first "$first" "$@" || exit 1
}

# Policy games.
run --count 14 --theme cathedral-capture --seed 201 --max-nodes 300000 --max-candidates 200000
run --count 12 --theme capture       --seed 202 --max-nodes 300000
run --count 10 --theme block         --seed 203 --max-nodes 300000
run --count 10 --theme diagonal-trap --seed 204 --max-nodes 300000
run --count 8  --difficulty medium   --seed 205 --max-nodes 300000
run --count 14 --difficulty hard     --seed 206 --max-nodes 300000
# Engine games at levels 3, 5, 7 (20,000 nodes per move at level 10: 156, 625, 2,500).
for level in 3 5 7; do
    s=$((300 + 10 * level))
    run --count 8  --theme capture       --seed $((s + 1)) --engine-level $level --max-nodes 300000
    run --count 8  --theme block         --seed $((s + 2)) --engine-level $level --max-nodes 300000
    run --count 8  --theme diagonal-trap --seed $((s + 3)) --engine-level $level --max-nodes 300000
    run --count 6  --theme claim         --seed $((s + 4)) --engine-level $level --max-candidates 3000
    run --count 6  --difficulty easy     --seed $((s + 5)) --engine-level $level --max-nodes 300000
    run --count 10 --difficulty medium   --seed $((s + 6)) --engine-level $level --max-nodes 300000
    run --count 12 --difficulty hard     --seed $((s + 7)) --engine-level $level --max-nodes 300000
done
# Balance (issue 50, 27 November 2026): at least 40 puzzles of every theme. Cathedral captures
# from policy games (with --difficulty they are rare: the easy run found 3 of 7 in 400,000
# candidates, a medium run none), claims from engine games at levels 3 and 5 (today's engine,
# with the learned evaluation), by grade where the grade filter finds them.
run --count 7  --theme cathedral-capture --difficulty easy --seed 401 --max-nodes 300000 --max-candidates 400000
run --count 16 --theme cathedral-capture --seed 404 --max-candidates 300000
run --count 5  --theme claim --difficulty easy   --engine-level 3 --seed 431 --max-candidates 8000
run --count 5  --theme claim --difficulty medium --engine-level 3 --seed 432 --max-candidates 8000
run --count 5  --theme claim --difficulty hard   --engine-level 3 --seed 433 --max-candidates 8000
run --count 3  --theme claim                     --engine-level 5 --seed 451 --max-candidates 4000
echo "== puzzles rate"
"$BIN" puzzles rate "$DIR"

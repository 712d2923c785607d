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
echo "== puzzles rate"
"$BIN" puzzles rate "$DIR"

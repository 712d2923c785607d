#!/bin/bash
# The learned evaluation's share of the search's time (docs/engine.md, "A third round of savings"):
# `perf record` of `cathedral accuracy` on eight suite positions (b09-001, 101, ..., 701) at
# 1,000,000 nodes on one thread, its samples grouped by function: the inference
# (`Network::estimate*`), the inputs (`inputs::*`, placements counted or found) and the
# accumulator's updates. Needs Linux perf.
#
#   benches/network_share.sh BINARY [more arguments of `accuracy`, e.g. --weights FILE]
set -euo pipefail
binary=$1
shift
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/eight"
for n in 001 101 201 301 401 501 601 701; do
    cp "$here/puzzles/accuracy/b09-$n.yaml" "$work/eight/"
done
perf record -F 2000 -o "$work/perf.data" -- "$binary" accuracy "$work/eight" --nodes 1000000 \
    --jobs 1 "$@" >/dev/null 2>&1
perf report -i "$work/perf.data" --no-children --sort symbol --stdio 2>/dev/null |
    awk '
    /^ +[0-9.]+%/ {
        share = $1 + 0
        if ($0 ~ /network::Network::estimate/) inference += share
        else if ($0 ~ /engine::inputs::|count_in|ShiftedCells|anchors/) inputs += share
        else if ($0 ~ /accumulator::|add_plane_row|PlaneSums/) accumulator += share
    }
    END {
        printf "network %.1f %% of the samples (inference %.1f, inputs %.1f, accumulator %.1f)\n",
            inference + inputs + accumulator, inference, inputs, accumulator
    }'

#!/bin/sh
# Retrains goref's learned stone classifier (vision/cnn.h; README: the
# learned classifier), in one command, from the repository's root:
#
#   samples/train_classifier.sh [--heldout] [--epochs N]
#
# 1. builds goref (Release, build/);
# 2. `goref eval --classifier rules --dump-patches` over ../shared/datasets:
#    the patches around every point of every photo, through the locator's
#    grid where it finds the board and through the clicked corners where
#    corners.json has them, with the true colours (the NAME.txt labels);
# 3. trains the network on all of them (samples/train_classifier.py, Debian's
#    python3-torch on one core, a few minutes) and writes
#    vision/cnn_weights.c (the built-in weights) and $WORK/all.bin;
# 4. rebuilds goref with the new weights.
# With --heldout, first one model per source with that source left out
# ($WORK/heldout-SOURCE.bin), each evaluated by `goref eval` on the source it
# did not see (rules, cnn, both), and the table of README's section printed
# ($WORK/heldout.md). WORK is build/cnn-train (or $GOREF_CNN_WORK).
set -eu
cd "$(dirname "$0")/.."
PY=/usr/bin/python3
DATA=${GOREF_DATASETS:-../shared/datasets}
WORK=${GOREF_CNN_WORK:-build/cnn-train}
EPOCHS=20
HELDOUT=0
while [ $# -gt 0 ]; do
	case "$1" in
	--heldout) HELDOUT=1 ;;
	--epochs) EPOCHS=$2; shift ;;
	*) echo "usage: $0 [--heldout] [--epochs N]" >&2; exit 64 ;;
	esac
	shift
done
"$PY" -c 'import torch, numpy' 2>/dev/null || {
	echo "$0: needs Debian's python3-torch and python3-numpy (apt-get install -y python3-torch python3-numpy)" >&2
	exit 1
}
[ -d "$DATA" ] || { echo "$0: no datasets at $DATA" >&2; exit 1; }
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j1 --target goref >/dev/null
rm -rf "$WORK"
mkdir -p "$WORK"
./build/goref eval --classifier rules --dump-patches "$WORK/patches" "$DATA" >"$WORK/eval-rules.txt"
if [ "$HELDOUT" = 1 ]; then
	for src in imago/t1 imago/t2 imago/t3 gomrade gobanwatcher/1 gobanwatcher/3; do
		tag=$(echo "$src" | tr / -)
		"$PY" samples/train_classifier.py --patches "$WORK/patches" --holdout "$src" --epochs "$EPOCHS" \
			--out-bin "$WORK/heldout-$tag.bin" --out-pred "$WORK/heldout-$tag.npz" >"$WORK/train-$tag.log"
		tail -1 "$WORK/train-$tag.log"
		for c in rules cnn both; do
			./build/goref eval --json --classifier $c --cnn-weights "$WORK/heldout-$tag.bin" "$DATA/$src" \
				>"$WORK/eval-$tag-$c.json"
		done
	done
	"$PY" samples/train_classifier.py --table "$WORK" | tee "$WORK/heldout.md"
fi
"$PY" samples/train_classifier.py --patches "$WORK/patches" --epochs "$EPOCHS" \
	--out-bin "$WORK/all.bin" --out-c vision/cnn_weights.c >"$WORK/train-all.log"
tail -2 "$WORK/train-all.log"
cmake --build build -j1 --target goref >/dev/null
echo "vision/cnn_weights.c written; goref rebuilt with it"

#!/usr/bin/env bash
# End-to-end test of goref replay on real webcam video: the 98 frames of a
# 9x9 game in ../shared/datasets/video-9x9-table (640x480, frames seconds
# apart, sunlight changing, a finger once), against its hand labels (every
# distinct position in order). Skipped (exit 77) when the dataset is absent.
# Prints the observations against the labels and the rulings against the
# irregularities the dataset's README names; holds the figures reached now.
# usage: e2e_realvideo.sh GOREF FIXTURES
set -u
goref=$1
. "$(dirname "$0")/lib_e2e.sh"

if ! "$goref" replay --help >/dev/null 2>&1; then
	echo "SKIP: this goref has no replay command (vision/ not built)"
	exit 77
fi
shared=${GOREF_SHARED:-$(cd "$(dirname "$0")/../.." && pwd)/shared}
v=$shared/datasets/video-9x9-table
if [ ! -f "$v/labels.txt" ] || [ ! -d "$v/frames" ]; then
	echo "SKIP: the real video is not in $v (see ../shared/datasets/README.md)"
	exit 77
fi

run "replay" 0 "$goref" replay --board 9 --quiet --log "$tmp/game.log" --events "$tmp/events.jsonl" "$v/frames"

# positions as one line of 81 characters: the labels (with their frames'
# times) and the observations of the log (diagram lines after "@ T")
awk 'NR == FNR { t[$1] = $2; next }
	/^@ / { if (pos != "") print when, pos; when = t[$2]; pos = ""; next }
	NF { pos = pos $1 }
	END { if (pos != "") print when, pos }' "$v/frames/times.txt" "$v/labels.txt" >"$tmp/labels"
awk '/^@ / { if (pos != "" && length(pos) == 81) print when, pos; pos = ""; when = (NF == 2 ? $2 : ""); next }
	/^#/ { next }
	when != "" && NF { pos = pos $1 }
	END { if (pos != "" && length(pos) == 81) print when, pos }' "$tmp/game.log" >"$tmp/observed"
nlab=$(wc -l <"$tmp/labels")
nobs=$(wc -l <"$tmp/observed")
# labelled positions observed in order (each observation matched to the next
# labelled position it equals), and observations of no labelled position
read -r inorder never <<<"$(awk 'NR == FNR { lab[++n] = $2; seen[$2] = 1; next }
	{ if (!($2 in seen)) { never++; next }
	  for (k = at + 1; k <= n; k++) if (lab[k] == $2) { hit++; at = k; break } }
	END { print hit + 0, never + 0 }' "$tmp/labels" "$tmp/observed")"
echo "real video: $nobs observations; $inorder of $nlab labelled positions observed in order; $never observations of a position never labelled"
rulings=$(grep -v '"type":"\(move\|capture\|summary\|count\|restored\|lifted\)"' "$tmp/events.jsonl" |
	sed 's/.*"t":\([0-9.]*\),"type":"\([a-z_]*\)".*/\1 \2/' | tr '\n' ';')
echo "rulings (time type): $rulings"
echo "the dataset's README names: a takeback 358-361 s, two stones lifted and put back 3207-3226 s, Black twice in a row 3117 and 3149 s"

# reached on 2026-12-01 (sparse frames read one by one, the light's change
# and colour taken out): 35 of 44 in order, 5 observations of no labelled
# position (a finger over the top edge read as a white stone, an edge stone
# held empty under squares taken for hidden)
MIN_IN_ORDER=35
MAX_NEVER=5
if [ "$nlab" -eq 44 ]; then ok; else bad "labels: $nlab positions, expected 44"; fi
if [ "$inorder" -ge "$MIN_IN_ORDER" ]; then ok; else bad "$inorder labelled positions observed in order (at least $MIN_IN_ORDER)"; fi
if [ "$never" -le "$MAX_NEVER" ]; then ok; else bad "$never observations of a position never labelled (at most $MAX_NEVER)"; fi
e2e_done

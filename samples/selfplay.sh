#!/usr/bin/env bash
# Finished GNU Go self-play games over GTP, as fixtures for the dead-stone
# proposal (tests/test_dead_gnugo.c).
#
# usage: samples/selfplay.sh [-s SIZE] [-n GAMES] [-S FIRST_SEED] [-l LEVEL]
#                            [-t SECONDS] [-L ORACLE_LEVEL] [-o OUTDIR]
#        samples/selfplay.sh -a -L ORACLE_LEVEL [-o OUTDIR]
#
#   -s SIZE        board size (default 9)
#   -n GAMES       number of games (default 1)
#   -S FIRST_SEED  GNU Go's --seed for the first game; game i uses FIRST_SEED+i
#                  (default 1). The same seed, size and level give the same game.
#   -l LEVEL       GNU Go's --level (default 1)
#   -t SECONDS     stop starting new games after this many seconds (default: no limit)
#   -L LEVEL       also ask a fresh GNU Go at this level which stones of the
#                  final position are dead (loadsgf, then final_status_list
#                  dead), as the line "# dead_level<LEVEL>: ..." (level 1's
#                  status reading is shallow; a second opinion shows where
#                  GNU Go itself is unsure)
#   -a             annotate only: play nothing, add the -L line to every game
#                  in OUTDIR that lacks it
#   -o OUTDIR      where to write (default .)
#
# GNU Go plays both sides: `genmove black`, `genmove white`, ... until two
# passes in a row, with
#   gnugo --mode gtp --chinese-rules --komi 7.5 --level L --seed S
#         --never-resign --situational-superko
# (--never-resign so that every game ends with two passes; situational superko
# is the repetition rule of the Chinese rules and of gr_game). A game that
# reaches 4*N*N moves is given up (none did so far).
#
# The moves are recorded here, not with printsgf (which writes the final
# position as setup stones and folds captures into the komi). Per game,
# OUTDIR/NNxNN-sSSSS.sgf holds the moves and OUTDIR/NNxNN-sSSSS.txt the final
# position as a goref diagram where 'x' / 'o' are the stones GNU Go's
# `final_status_list dead` calls dead, after '#' comment lines:
#   # gnugo: GNU Go 3.8 --level 1 --seed 7 --komi 7.5 --chinese-rules ...
#   # size: 9
#   # moves: 61
#   # to_move: white          (the side to move after the two passes)
#   # final_score: B+4.5      (GNU Go's, which plays out the dame)
#   # dead: C3 D4 ...         (final_status_list dead)
#   # seki: ...               (final_status_list seki)
#   # dead_level10: ...       (with -L 10: a fresh GNU Go at level 10)
# Needs only bash and GNU Go (GNUGO=/path/to/gnugo to override).
#
# tests/fixtures/selfplay/ holds 9x9 seeds 1-20, 13x13 seeds 101-108 and
# 19x19 seeds 201-221, all with the level-10 line: the same as
#   samples/selfplay.sh -s 9 -n 20 -S 1 -L 10 -o tests/fixtures/selfplay
#   samples/selfplay.sh -s 13 -n 8 -S 101 -L 10 -o tests/fixtures/selfplay
#   samples/selfplay.sh -s 19 -n 21 -S 201 -L 10 -o tests/fixtures/selfplay
# (about a second per 9x9 game, 4 s per 13x13 and 20-60 s per 19x19 game
# on one core, plus 1-7 s per game for the level-10 opinion).
set -euo pipefail

GNUGO=${GNUGO:-/usr/games/gnugo}
size=9 games=1 seed=1 level=1 budget=0 outdir=. oracle='' annotate_only=0

while getopts "s:n:S:l:t:L:ao:h" opt; do
	case $opt in
	s) size=$OPTARG ;;
	n) games=$OPTARG ;;
	S) seed=$OPTARG ;;
	l) level=$OPTARG ;;
	t) budget=$OPTARG ;;
	L) oracle=$OPTARG ;;
	a) annotate_only=1 ;;
	o) outdir=$OPTARG ;;
	h) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) exit 2 ;;
	esac
done
if ! [[ $size =~ ^[0-9]+$ ]] || ((size < 2 || size > 19)); then
	echo "selfplay.sh: bad size: $size" >&2
	exit 2
fi
[[ -x $GNUGO ]] || { echo "selfplay.sh: no GNU Go at $GNUGO" >&2; exit 77; }
mkdir -p "$outdir"

GTP_REPLY='' GTP_IN='' GTP_OUT='' GTP_PID=''
# gtp_start ARGS...: starts GNU Go with these arguments. The coprocess's
# descriptors are duplicated at once: bash unsets GO when it reaps a
# coprocess, which can happen after the next one has started.
gtp_start() {
	coproc GO { exec "$GNUGO" "$@" 2>/dev/null; }
	GTP_PID=$GO_PID
	exec {GTP_IN}<&"${GO[0]}" {GTP_OUT}>&"${GO[1]}"
}
# gtp_stop: quits GNU Go and closes the descriptors.
gtp_stop() {
	gtp quit || true
	exec {GTP_IN}<&- {GTP_OUT}>&-
	wait "$GTP_PID" 2>/dev/null || true
}
# gtp CMD...: sends one command, leaves the reply text (without "= ") in GTP_REPLY.
gtp() {
	printf '%s\n' "$*" >&"$GTP_OUT"
	local line first=1 out=
	while IFS= read -r line <&"$GTP_IN"; do
		line=${line%$'\r'}
		if [[ -z $line ]]; then
			[[ $first == 1 ]] && continue
			break
		fi
		if [[ $first == 1 ]]; then
			if [[ $line == '?'* ]]; then
				echo "selfplay.sh: GNU Go refused '$*': $line" >&2
				return 1
			fi
			line=${line#=}
			line=${line# }
			out=$line
			first=0
		else
			out+=$'\n'$line
		fi
	done
	GTP_REPLY=$out
}

LETTERS=ABCDEFGHJKLMNOPQRST # GTP columns (no I)
SGFL=abcdefghijklmnopqrs

# sgf_point GTPNAME: the SGF point (column letter, row letter from the top).
sgf_point() {
	local v=${1^^}
	[[ $v == PASS ]] && { printf ''; return; }
	local col=${v:0:1} row=${v:1}
	local x=${LETTERS%%"$col"*}
	x=${#x}
	local y=$((size - row))
	printf '%s%s' "${SGFL:x:1}" "${SGFL:y:1}"
}

# board_diagram BLACK_LIST WHITE_LIST DEAD_LIST: N lines of . X O x o.
board_diagram() {
	local -A cell=()
	local p
	for p in $1; do cell[${p^^}]=X; done
	for p in $2; do cell[${p^^}]=O; done
	for p in $3; do
		p=${p^^}
		case ${cell[$p]:-} in
		X) cell[$p]=x ;;
		O) cell[$p]=o ;;
		esac
	done
	local y x line
	for ((y = size; y >= 1; y--)); do
		line=
		for ((x = 0; x < size; x++)); do
			line+=${cell[${LETTERS:x:1}$y]:-.}
		done
		printf '%s\n' "$line"
	done
}

play_game() {
	local s=$1
	local name
	name=$(printf '%dx%d-s%04d' "$size" "$size" "$s")
	local args=(--mode gtp --chinese-rules --komi 7.5 --level "$level" --seed "$s"
		--never-resign --situational-superko)
	gtp_start "${args[@]}"
	gtp boardsize "$size"
	gtp clear_board
	local color=black passes=0 n=0 max=$((4 * size * size)) mv sgf_moves=
	while ((passes < 2)); do
		if ((n >= max)); then
			echo "selfplay.sh: $name: no end after $n moves, given up" >&2
			gtp_stop
			return 1
		fi
		gtp genmove "$color"
		mv=${GTP_REPLY^^}
		if [[ $mv == RESIGN ]]; then
			echo "selfplay.sh: $name: $color resigned, game dropped" >&2
			gtp_stop
			return 1
		fi
		if [[ $mv == PASS ]]; then passes=$((passes + 1)); else passes=0; fi
		local c=B
		[[ $color == white ]] && c=W
		sgf_moves+=";${c}[$(sgf_point "$mv")]"
		((++n % 10 == 0)) && sgf_moves+=$'\n'
		if [[ $color == black ]]; then color=white; else color=black; fi
	done
	gtp list_stones black
	local blacks=$GTP_REPLY
	gtp list_stones white
	local whites=$GTP_REPLY
	gtp final_status_list dead
	local dead=${GTP_REPLY//$'\n'/ }
	gtp final_status_list seki
	local seki=${GTP_REPLY//$'\n'/ }
	gtp final_score
	local score=$GTP_REPLY
	gtp version
	local version=$GTP_REPLY
	gtp_stop

	{
		printf '(;GM[1]FF[4]CA[UTF-8]AP[goref selfplay.sh]SZ[%d]KM[7.5]RU[Chinese]\n' "$size"
		printf 'PB[GNU Go %s level %d]PW[GNU Go %s level %d]RE[%s]\n' "$version" "$level" "$version" "$level" "$score"
		printf 'C[GNU Go self-play, seed %d. Dead (final_status_list dead): %s]\n' "$s" "${dead:-none}"
		printf '%s)\n' "$sgf_moves"
	} >"$outdir/$name.sgf"
	{
		printf '# gnugo: GNU Go %s %s\n' "$version" "${args[*]}"
		printf '# size: %d\n' "$size"
		printf '# moves: %d\n' "$n"
		printf '# to_move: %s\n' "$color"
		printf '# final_score: %s\n' "$score"
		printf '# dead: %s\n' "$dead"
		printf '# seki: %s\n' "$seki"
		board_diagram "$blacks" "$whites" "$dead"
	} >"$outdir/$name.txt"
	echo "$name: $n moves, $score, dead: ${dead:-none}"
	[[ -z $oracle ]] || annotate "$outdir/$name"
}

# annotate OUTDIR/NAME: adds "# dead_level<L>: ..." from a fresh GNU Go at
# level $oracle that loads NAME.sgf (the position after the last move).
annotate() {
	local base=$1 key="# dead_level$oracle:"
	grep -q "^$key" "$base.txt" && return 0
	gtp_start --mode gtp --chinese-rules --komi 7.5 --level "$oracle"
	gtp loadsgf "$base.sgf"
	gtp final_status_list dead
	local dead=${GTP_REPLY//$'\n'/ }
	gtp_stop
	awk -v line="$key $dead" '{ print } /^# seki:/ { print line }' "$base.txt" >"$base.txt.tmp"
	mv "$base.txt.tmp" "$base.txt"
	echo "${base##*/}: level $oracle dead: ${dead:-none}"
}

if ((annotate_only)); then
	[[ -n $oracle ]] || { echo "selfplay.sh: -a needs -L LEVEL" >&2; exit 2; }
	for f in "$outdir"/*.sgf; do
		[[ -e $f && -e ${f%.sgf}.txt ]] && annotate "${f%.sgf}"
	done
	exit 0
fi

start=$SECONDS
for ((i = 0; i < games; i++)); do
	if ((budget > 0 && SECONDS - start >= budget)); then
		echo "selfplay.sh: time budget of ${budget}s used after $i games" >&2
		break
	fi
	t0=$SECONDS
	play_game $((seed + i)) || true
	echo "  ($((SECONDS - t0)) s)"
done

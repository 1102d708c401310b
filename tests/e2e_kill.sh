#!/usr/bin/env bash
# kill -9 the way a camera sees it (issue 17): `goref watch` on a rendered
# game is killed at random moments, start-up and the journal's feeding back
# included, and run again at once on the frames from the moment of the kill
# on (the camera went on filming: what was filmed while goref started
# again is seen by nobody); the game's final record must have every move
# once: 0 lost, 0 duplicated.
#
# The moment of a kill in the game's time is (kill - launch) x speed after
# the first frame that run was given: later than the last frame goref read
# by its start-up time, as a camera's restart would be.
#
#   GOREF_KILLS   kills in all (default 3, the suite's); more are spread over
#                 as many games as needed (each a new journal), e.g. 100
#   GOREF_KILL_SEED  the random moments and the games' seeds (default 1)
#   GOREF_KILL_MOVES moves a game (default 24 for 3 kills, else 60)
#   GOREF_KILL_SPEED the game played at this many times its pace (default 2:
#                 each start-up then costs twice its time of the game)
# Prints each game's kills, moves lost and duplicated, and the totals.
# Skips (77) when goref-render was not built (no vision/).
# usage: e2e_kill.sh GOREF FIXTURES
set -u
goref=$1
. "$(dirname "$0")/lib_e2e.sh"
e2e_need_render
sgf=$game
kills=${GOREF_KILLS:-3}
seed=${GOREF_KILL_SEED:-1}
if [ "$kills" -le 3 ]; then moves=${GOREF_KILL_MOVES:-24}; else moves=${GOREF_KILL_MOVES:-60}; fi
speed=${GOREF_KILL_SPEED:-2}
RANDOM=$seed
moves_of() { tr -d ' \n\r' <"$1" | grep -o ';[BW]\[[a-s]*\]' | sed 's/^;//'; }
now() { date +%s.%N; }
# a random delay in seconds: a third of them in the first 0.25 s (start-up,
# the journal fed back), the rest up to 2.5 s
delay() {
	if [ $((RANDOM % 3)) -eq 0 ]; then
		awk -v r="$RANDOM" 'BEGIN { printf "%.3f", r / 32768 * 0.25 }'
	else
		awk -v r="$RANDOM" 'BEGIN { printf "%.3f", 0.25 + r / 32768 * 2.25 }'
	fi
}
# the frames of game folder $1 from original time $2 on, into folder $3,
# their times made to start at 0 (links)
rest() {
	mkdir -p "$3"
	awk -v from="$2" '!/^#/ && NF == 2 && $2 >= from { printf "%s %.3f\n", $1, $2 - from }' "$1/times.txt" >"$3/times.txt"
	awk -v d="$1" '{ print d "/" $1 }' "$3/times.txt" | xargs -r ln -s -t "$3"
}

done_kills=0 game=0 lost_all=0 dup_all=0 order_all=0 games_right=0
while [ $done_kills -lt "$kills" ]; do
	game=$((game + 1))
	g=$tmp/g$game
	if ! "$render" --quiet --seed $((seed * 100 + game)) --moves "$moves" --width 640 --height 360 "$sgf" "$g" \
		>/dev/null 2>"$tmp/render.err"; then
		bad "goref-render game $game: $(head -3 "$tmp/render.err")"
		break
	fi
	# the camera goes on filming the final board: 3 s more of the last frame,
	# and a restart after them is given their last 2 s (the board filmed at
	# that moment). Else a kill just before the last position was written
	# left no frame to see it in, and the last move was lost: the end of a
	# test, not of a game
	awk '!/^#/ && NF == 2 { name = $1; t = $2 } END { n = name; sub(/\..*/, "", n); ext = name; sub(/^[^.]*/, "", ext)
		for (k = 1; k <= 30; k++) printf "%06d%s %.3f %s\n", n + k, ext, t + k / 10, name }' "$g/times.txt" |
		while read -r name t last; do ln -s "$g/$last" "$g/$name" && echo "$name $t" >>"$g/times.txt"; done
	j=$g.log
	from=0 round=0 gk=0 status=0
	src=$g
	while :; do
		round=$((round + 1))
		launch=$(now)
		(cd "$tmp" && exec "$goref" watch --device "$src" --speed "$speed" --journal "$j" --sgf "$g.sgf" \
			--events "$g.jsonl" --quiet) >"$g.watch$round.out" 2>&1 </dev/null &
		pid=$!
		if [ $done_kills -lt "$kills" ]; then
			sleep "$(delay)"
			if kill -9 $pid 2>/dev/null; then
				killed=$(now)
				wait $pid 2>/dev/null
				done_kills=$((done_kills + 1))
				gk=$((gk + 1))
				from=$(awk -v f="$from" -v l="$launch" -v k="$killed" -v s="$speed" 'BEGIN { printf "%.3f", f + (k - l) * s }')
				src=$g.r$round
				rest "$g" "$from" "$src"
				if [ "$(wc -l <"$src/times.txt")" -lt 20 ]; then
					rm -rf "$src"
					rest "$g" "$(tail -20 "$g/times.txt" | head -1 | cut -d' ' -f2)" "$src"
				fi
				continue
			fi
		fi
		wait $pid
		status=$?
		break
	done
	[ $status -eq 0 ] || { bad "game $game: watch's last run exited $status"; tail -5 "$g.watch$round.out" | sed 's/^/    /'; }
	moves_of "$g/game.sgf" >"$g.want"
	moves_of "$g.sgf" >"$g.got" 2>/dev/null
	# moves lost and duplicated: each move (colour and point) counted in
	# the game and in the record; out of order: moves that the longest
	# common sequence leaves out beyond those (stones that came into view
	# together, recorded in an order the camera could not tell)
	read -r lost dup order <<<"$(awk 'NR == FNR { a[++n] = $0; c[$0]++; next } { b[++m] = $0; c[$0]-- }
		END { for (k in c) { if (c[k] > 0) lost += c[k]; else dup -= c[k] }
		      for (i = 0; i <= n; i++) L[i, 0] = 0; for (k = 0; k <= m; k++) L[0, k] = 0
		      for (i = 1; i <= n; i++) for (k = 1; k <= m; k++)
		          L[i, k] = a[i] == b[k] ? L[i - 1, k - 1] + 1 : (L[i - 1, k] > L[i, k - 1] ? L[i - 1, k] : L[i, k - 1])
		      print lost + 0, dup + 0, n - L[n, m] - lost }' "$g.want" "$g.got")"
	order_all=$((order_all + order))
	lost_all=$((lost_all + lost))
	dup_all=$((dup_all + dup))
	echo "game $game (seed $((seed * 100 + game)), $(wc -l <"$g.want") moves): $gk kills, $lost lost, $dup duplicated, $order out of order"
	if [ "$lost" -eq 0 ] && [ "$dup" -eq 0 ] && [ -s "$g.want" ]; then ok; games_right=$((games_right + 1)); else
		bad "game $game: $lost moves lost, $dup duplicated after $gk kills (journal kept in $g.log)"
		diff "$g.want" "$g.got" | head -10 | sed 's/^/    /'
		[ -n "${GOREF_KILL_KEEP:-}" ] && cp -r "$tmp" "$GOREF_KILL_KEEP"
	fi
done
echo "kill -9: $done_kills kills over $game games, $games_right games with no move lost or duplicated; moves lost $lost_all, duplicated $dup_all, out of order $order_all"
e2e_done

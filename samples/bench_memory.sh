#!/usr/bin/env bash
# The largest memory any single input makes goref take (issue 17: at most
# 300 MB): the peak resident set (GNU time's %M) and the wall time of one
# command on each hostile input, with its exit status (2: refused, as it
# should be when over a bound).
#   samples/bench_memory.sh [-b BUILD]
# The inputs are made here (Python for the PNG and PGM files, goref-render,
# djpeg and cjpeg for the 100 MP JPEG: a few minutes in all): a 100 MP JPEG, PNG (non-interlaced
# and interlaced) and PGM, a 4800x2700 JPEG, PNGs with a text chunk claiming
# 2 GB and with a real 9 MB one, a folder whose frame is a 100 MP JPEG, raw
# frames of the largest size on stdin and one size over, a 64 MB
# observation log, a 64 MB SGF (11 million passes: over GR_MAX_MOVES), a
# 60 MB journal resumed and a game played on, and a journal over 64 MB.
set -u
build=build
while getopts "b:" o; do
	case $o in
	b) build=$OPTARG ;;
	*) echo "usage: $0 [-b BUILD]" >&2; exit 64 ;;
	esac
done
here=$(cd "$(dirname "$0")/.." && pwd)
goref=$(cd "$(dirname "$build/goref")" && pwd)/goref
render=$(dirname "$goref")/goref-render
if [ ! -x "$goref" ] || [ ! -x "$render" ]; then echo "$0: no $goref or goref-render (build first)" >&2; exit 2; fi
[ -x /usr/bin/time ] || { echo "$0: needs GNU time (apt-get install time)" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 2

python3 - <<'PY'
import struct, zlib
def chunk(t, d):
    return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d) & 0xffffffff)
def png(path, w, h, interlace=0, extra=b'', rows=True):
    with open(path, 'wb') as f:
        f.write(b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 2, 0, 0, interlace)))
        f.write(extra)
        if not rows:
            return
        z = zlib.compressobj(6)
        data = b''
        line = b'\x00' + bytes((x * 7 + 40) & 255 for x in range(w * 3))
        passes = [(0, 8, 0, 8), (4, 8, 0, 8), (0, 4, 4, 8), (2, 4, 0, 4), (0, 2, 2, 4), (1, 2, 0, 2), (0, 1, 1, 2)]
        if interlace:
            for x0, dx, y0, dy in passes:
                pw = (w - x0 + dx - 1) // dx
                ph = (h - y0 + dy - 1) // dy
                if pw and ph:
                    pl = b'\x00' + line[1:1 + pw * 3]
                    for _ in range(ph):
                        data += z.compress(pl)
                        if len(data) > 1 << 20:
                            f.write(chunk(b'IDAT', data)); data = b''
        else:
            for _ in range(h):
                data += z.compress(line)
                if len(data) > 1 << 20:
                    f.write(chunk(b'IDAT', data)); data = b''
        data += z.flush()
        f.write(chunk(b'IDAT', data) + chunk(b'IEND', b''))
png('p100.png', 11520, 8640)
png('p100i.png', 11520, 8640, interlace=1)
png('text2g.png', 64, 48, extra=struct.pack('>I', 0x7ffffff0) + b'tEXt' + b'Comment\x00' + b'x' * 1000, rows=False)
png('itxt9m.png', 64, 48, extra=chunk(b'iTXt', b'Comment\x00\x00\x00\x00\x00' + b'y' * 9000000))
with open('p100.pgm', 'wb') as f:
    f.write(b'P5\n11520 8640\n255\n')
    row = bytes((x * 7 + 40) & 255 for x in range(11520))
    for _ in range(8640):
        f.write(row)
PY
# 11520x8640: a 5760x4320 frame (goref-render draws up to 8192 a side)
# decoded at twice its size by djpeg and encoded again by cjpeg
command -v cjpeg >/dev/null || { echo "$0: needs cjpeg and djpeg (apt-get install libjpeg-turbo-progs)" >&2; exit 2; }
"$render" --quiet --seed 4 --moves 1 --no-hands --fps 1 --width 5760 --height 4320 "$here/samples/game.sgf" r57 || exit 2
j100=p100.jpg
djpeg -scale 2/1 "r57/$(tail -1 r57/times.txt | cut -d' ' -f1)" | cjpeg -quality 90 >"$j100" || exit 2
"$render" --quiet --seed 4 --moves 2 --no-hands --fps 1 --width 4800 --height 2700 "$here/samples/game.sgf" r48 || exit 2
j48=r48/$(tail -1 r48/times.txt | cut -d' ' -f1)
mkdir -p f100 && cp "$j100" f100/0.jpg
# a long game's positions again and again: a log (for referee) and a journal
# (for watch) just under 64 MB, and one over
"$render" --quiet --seed 7 --moves 40 --width 640 --height 360 "$here/samples/game.sgf" g || exit 2
awk '/^@/ { n++ } !/^#/ && !/^@/ { p[n] = p[n] $0 "\n" }
	END { t = 0; for (k = 0; ; k++) { i = 1 + int(k / 3000); if (i > n) i = n
	      s = sprintf("@ %d\n%s", t++, p[i]); if (size + length(s) > 64 * 1024 * 1024 - 4096) break; printf "%s", s; size += length(s) } }' \
	g/truth.log >long.log
{ cat long.log; head -c 8192 long.log; } >over.log
# a journal of 60 MB: room left for the game watch then plays on it
awk '/^@/ && size > 60 * 1024 * 1024 { exit } { print; size += length($0) + 1 }' long.log >journal.log
# an SGF of 64 MB less a little: passes
awk 'BEGIN { printf "(;FF[4]GM[1]SZ[19]"; for (k = 0; k < 11000000; k++) printf ";%s[]", k % 2 ? "W" : "B"; print ")" }' >long.sgf

printf '%-46s %6s %9s %8s\n' input exit peak_MB wall_s
measure() { # NAME COMMAND...
	local name=$1
	shift
	/usr/bin/time -f "%M %e" -o t.out "$@" >/dev/null 2>err.out
	local st=$?
	read -r kb s < <(tail -1 t.out)
	printf '%-46s %6s %9.1f %8s\n' "$name" "$st" "$(awk -v k="$kb" 'BEGIN { print k / 1024 }')" "$s"
}
measure "detect, 4800x2700 JPEG" "$goref" detect "$j48"
measure "detect, 11520x8640 JPEG (99.5 MP)" "$goref" detect "$j100"
measure "detect, 11520x8640 PNG" "$goref" detect p100.png
measure "detect, 11520x8640 PNG, interlaced (refused)" "$goref" detect p100i.png
measure "detect, 11520x8640 PGM" "$goref" detect p100.pgm
measure "detect, PNG with a tEXt claiming 2 GB" "$goref" detect text2g.png
measure "detect, PNG with a 9 MB iTXt" "$goref" detect itxt9m.png
measure "replay, a folder of a 99.5 MP JPEG (refused)" "$goref" replay --quiet f100
head -c $((4096 * 4096 * 3 * 3)) /dev/zero >raw3
measure "replay, 3 raw frames 4096x4096 on stdin" sh -c "\"$goref\" replay --quiet --size 4096x4096 - <raw3"
measure "replay, raw frames 4097x4096 (refused)" sh -c "\"$goref\" replay --quiet --size 4097x4096 - <raw3"
measure "referee, a 64 MB observation log" "$goref" referee --quiet long.log
measure "check, a 64 MB SGF, 11 M passes (refused)" "$goref" check long.sgf
measure "watch, resuming a 60 MB journal, then a game" "$goref" watch --device g --speed 0 --journal journal.log --sgf w.sgf \
	--events w.jsonl --quiet
measure "watch, a journal over 64 MB (refused)" "$goref" watch --device g --speed 0 --journal over.log \
	--sgf w.sgf --events w.jsonl --quiet

#!/bin/sh
# Labelled video frames (a folder with labels.txt and frames/, as
# ../shared/datasets/video-9x9-table) made smaller or turned, each into its
# own folder under OUT with its labels.txt (turned to match), for
# `goref eval OUT/KIND`:
#   half     each frame through djpeg -scale 1/2 and cjpeg -quality 90
#   quarter  the same at 1/4
#   rot90    jpegtran -rotate 90 -perfect (a quarter turn clockwise)
# and with ImageMagick's convert (left out, with a message, without it):
#   blur     a Gaussian of sigma 1.6 px (1/400 of 640: out of focus)
#   noise    ImageMagick's Gaussian noise at attenuate 0.6, seed 1
# (samples/transform_photos.py's blur and noise)
#
#   samples/transform_frames.sh [SRC] OUT   (SRC default ../shared/datasets/video-9x9-table)
set -eu
[ $# -ge 1 ] && [ $# -le 2 ] || { echo "usage: $0 [SRC] OUT" >&2; exit 64; }
src=../shared/datasets/video-9x9-table
[ $# -eq 2 ] && { src=$1; shift; }
out=$1
for t in djpeg cjpeg jpegtran; do
	command -v $t >/dev/null || { echo "$0: needs $t (libjpeg-turbo-progs)" >&2; exit 2; }
done
[ -f "$src/labels.txt" ] || { echo "$0: no labels.txt in $src" >&2; exit 2; }
frames=$(awk '/^@/ { print $2 }' "$src/labels.txt")
kinds="half quarter rot90"
if convert -version 2>/dev/null | grep -q ImageMagick; then
	kinds="$kinds blur noise"
else
	echo "$0: ImageMagick's convert is not here (apt-get install imagemagick): blur and noise left out" >&2
fi
for kind in $kinds; do
	mkdir -p "$out/$kind/frames"
	for f in $frames; do
		case $kind in
		half) djpeg -scale 1/2 "$src/frames/$f" | cjpeg -quality 90 >"$out/$kind/frames/$f" ;;
		quarter) djpeg -scale 1/4 "$src/frames/$f" | cjpeg -quality 90 >"$out/$kind/frames/$f" ;;
		rot90) jpegtran -rotate 90 -perfect "$src/frames/$f" >"$out/$kind/frames/$f" ;;
		blur) convert "$src/frames/$f" -blur 0x1.6 -quality 90 "$out/$kind/frames/$f" ;;
		noise) convert "$src/frames/$f" -seed 1 -attenuate 0.6 +noise Gaussian -quality 90 "$out/$kind/frames/$f" ;;
		esac
	done
	if [ $kind = rot90 ]; then
		# each diagram turned clockwise: new row i is old column i, read upwards
		awk 'function flush(  i, j, s) { for (i = 1; i <= n; i++) { s = ""; for (j = n; j >= 1; j--) s = s r[j, i]; print s } n = 0 }
			/^@/ { flush(); print; next }
			NF { n++; for (c = 1; c <= length($0); c++) r[n, c] = substr($0, c, 1) }
			END { flush() }' "$src/labels.txt" >"$out/$kind/labels.txt"
	else
		cp "$src/labels.txt" "$out/$kind/labels.txt"
	fi
done
echo "written: $(for k in $kinds; do printf '%s ' "$out/$k"; done)(goref eval DIR)" >&2

#!/bin/bash
# Builds goref's libFuzzer harnesses (fuzz/fuzz_*.c) with clang, AddressSanitizer
# and UndefinedBehaviorSanitizer, against the project's sources (no CMake
# build needed).
#
#   fuzz/build.sh [OUTDIR]      (default: build-fuzz beside fuzz/)
#
# Prints the harnesses built, one a line (their names: sgf, diagram, ...).
# The image ones (png, image, raw) only when libpng and libturbojpeg are found.
# Exits 77 when clang or its libFuzzer runtime is missing, 1 when a build
# fails. CC (default clang) and FUZZ_CFLAGS (default -O1 -g) can be set.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(dirname "$here")
out=${1:-$src/build-fuzz}
CC=${CC:-clang}
CFLAGS=${FUZZ_CFLAGS:--O1 -g}
mkdir -p "$out/obj"

if ! command -v "$CC" >/dev/null 2>&1; then
	echo "fuzz: $CC not found (install clang: ./install-deps.sh)" >&2
	exit 77
fi
probe="$out/probe.c"
printf '#include <stddef.h>\n#include <stdint.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }\n' >"$probe"
if ! "$CC" -fsanitize=fuzzer,address,undefined "$probe" -o "$out/probe" 2>"$out/probe.err"; then
	echo "fuzz: $CC cannot build with -fsanitize=fuzzer (its libFuzzer runtime is missing):" >&2
	head -3 "$out/probe.err" >&2
	exit 77
fi

san="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
common="-std=c11 -D_POSIX_C_SOURCE=200809L -Wall -Wextra -Werror $CFLAGS $san"
inc="-I$src/rules -I$src/calib -I$src/device/session -I$src/device/capture -I$src/vision"

# Compiles one source into $out/obj, again only when a source or header of
# the project or of fuzz/ is newer than its object.
obj() {
	local s=$1 o
	o="$out/obj/$(echo "${s#"$src"/}" | tr / _).o"
	if [ ! -e "$o" ] || [ -n "$(find "$s" "$src/rules" "$src/calib" "$src/device" "$src/vision" "$here" -newer "$o" -name '*.[ch]' 2>/dev/null | head -1)" ]; then
		# shellcheck disable=SC2086
		"$CC" $common -fsanitize=fuzzer-no-link $inc $EXTRA -c "$s" -o "$o"
	fi
	echo "$o"
}

EXTRA=""
rules=()
for s in "$src"/rules/*.c; do o=$(obj "$s"); rules+=("$o"); done

# Links fuzz_NAME from fuzz/fuzz_NAME.c, the sources named and rules/.
link() {
	local name=$1 objs=() o s
	shift
	for s in "$here/fuzz_$name.c" "$@"; do
		case $s in
		-*) objs+=("$s") ;;
		*) o=$(obj "$s"); objs+=("$o") ;;
		esac
	done
	# shellcheck disable=SC2086
	"$CC" $common -fsanitize=fuzzer "${objs[@]}" "${rules[@]}" $LIBS -o "$out/fuzz_$name" -lm
	echo "$name"
}

LIBS=""
link sgf
link diagram
link obslog
link settings "$src/calib/settings.c"
link journal "$src/device/session/journal.c"

if pkg-config --exists libpng libturbojpeg 2>/dev/null; then
	EXTRA="$(pkg-config --cflags libpng libturbojpeg) -DGOREF_HAVE_VISION"
	LIBS=$(pkg-config --libs libpng libturbojpeg)
	link png "$src/vision/image.c" "$src/vision/png.c"
	link image "$src/vision/image.c" "$src/vision/png.c" "$src/vision/imgio.c" "$here/cv_stub.c"
	link raw "$src/device/capture/source.c" "$src/device/capture/stop.c" "$src/vision/image.c" "$src/vision/png.c" "$src/vision/imgio.c" \
		"$here/cv_stub.c"
else
	echo "fuzz: libpng or libturbojpeg not found by pkg-config: the image harnesses are not built" >&2
fi

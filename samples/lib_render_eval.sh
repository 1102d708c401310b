# shellcheck shell=sh
# Shared by samples/eval_floor.sh, eval_tint.sh and eval_video_tint.sh (sourced, POSIX sh):
# their options -b BUILD and -o OUTDIR, and the check that BUILD holds goref
# and goref-render. Usage: render_eval_opts DEFAULT_OUT USAGE "$@"; then
# shift $((OPTIND - 1)) for the arguments left.
# shellcheck disable=SC2034 # out and build are the caller's
render_eval_opts() {
	out=$1 usage=$2
	shift 2
	build=build
	while getopts b:o: opt; do
		case $opt in
		b) build=$OPTARG ;;
		o) out=$OPTARG ;;
		*) echo "usage: $0 $usage" >&2; exit 64 ;;
		esac
	done
	for b in "$build/goref" "$build/goref-render"; do
		[ -x "$b" ] || { echo "$0: $b is missing (build first)" >&2; exit 2; }
	done
}

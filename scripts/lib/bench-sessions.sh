# bench-sessions.sh: what the memory bench scripts share, sourced by them (bench-memory.sh,
# bench-validate.sh, bench-plan-memory.sh): the tools built once into a temporary folder, the
# generated sessions they measure by name, and the binaries to run.
#
# bench_setup DATA_DIR: builds pitool and gensession into $bin (removed on exit), makes
# DATA_DIR, and sets $repo, $data, $bin and $binaries ($BEFORE, when set, first).
# bench_generate NAME...: generates each named session in DATA_DIR that is missing, from the
# one recipe table below.

bench_setup() {
	repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
	data=$1
	bin=$(mktemp -d)
	trap 'rm -rf "$bin"' EXIT
	go build -o "$bin/pitool" "$repo/cmd/pitool"
	go build -o "$bin/gensession" "$repo/bench/cmd/gensession"
	mkdir -p "$data"
	binaries="$bin/pitool"
	if [ -n "${BEFORE:-}" ]; then binaries="$BEFORE $binaries"; fi
}

# bench_recipe NAME prints the gensession flags of a named session.
bench_recipe() {
	case $1 in
	c400k.jsonl) echo -shape chain -entries 400000 -text-bytes 105 ;;
	c1000000.jsonl) echo -shape chain -entries 1000000 ;;
	small-4.6M.jsonl) echo -shape chain -entries 4600000 -text-bytes 105 ;;
	g200k.jsonl) echo -entries 200000 -seed 3 -branch-every 200 -compaction-every 500 -tool-result-bytes 200 ;;
	linear-100MB.jsonl) echo -size 100MB -seed 1 ;;
	linear-600MB.jsonl) echo -size 600MB -seed 1 ;;
	linear-1500MB.jsonl) echo -size 1500MB -seed 5 ;;
	tree-100MB.jsonl) echo -size 100MB -seed 1 -branch-every 200 -compaction-every 1000 -unicode ;;
	*)
		echo "bench: no recipe for $1" >&2
		return 1
		;;
	esac
}

bench_generate() {
	local name flags
	for name in "$@"; do
		[ -s "$data/$name" ] && continue
		flags=$(bench_recipe "$name")
		# shellcheck disable=SC2086 # the recipe is a list of flags
		"$bin/gensession" $flags -o "$data/$name"
	done
}

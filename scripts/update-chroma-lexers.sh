#!/usr/bin/env bash
# update-chroma-lexers.sh: re-copies chroma's lexers package into third_party/chromalexers
# for the chroma version in go.mod and re-applies pitool's patch (pitool_lazy.patch there: the
# registry is filled on its first lookup, not at program start; see the folder's README.md).
# Run it after bumping github.com/alecthomas/chroma/v2, then
# `go test ./third_party/... ./exporter/...`.
#
# usage: scripts/update-chroma-lexers.sh
#
# pitool's own files in the folder are named pitool_* and kept; every other file is upstream's.
# The copy's struct literals are keyed by scripts/keyify (go vet refuses chroma's unkeyed rules
# outside chroma) before the patch. When the patch no longer applies, the script stops with the
# copy unpatched: make the same change by hand, then refresh the patch with
# `DIFF=1 scripts/update-chroma-lexers.sh >third_party/chromalexers/pitool_lazy.patch` (the diff
# between a fresh upstream copy and the folder).
set -euo pipefail

cd "$(dirname "$0")/.."
module=github.com/alecthomas/chroma/v2
dst=third_party/chromalexers
go mod download "$module"
version=$(go list -m -f '{{.Version}}' "$module")
src=$(go list -m -f '{{.Dir}}' "$module")

# copy_upstream DIR: chroma's lexers package, without its tests, as package chromalexers in the
# new folder DIR, its rule literals keyed so that go vet passes (scripts/keyify).
copy_upstream() {
	local dir=$1
	mkdir -p "$dir"
	cp "$src"/lexers/*.go "$dir"/
	rm -f "$dir"/*_test.go
	cp -R "$src/lexers/embedded" "$dir"/
	cp "$src/COPYING" "$dir/LICENSE"
	chmod -R u+w "$dir"
	sed -i 's/^package lexers$/package chromalexers/' "$dir"/*.go
	go run ./scripts/keyify "$dir"
}

fresh=$(mktemp -d)
trap 'rm -rf "$fresh"' EXIT
copy_upstream "$fresh/a/chromalexers"

if [[ -n ${DIFF:-} ]]; then
	mkdir -p "$fresh/b/chromalexers"
	cp -R "$dst"/. "$fresh/b/chromalexers/"
	rm -f "$fresh"/b/chromalexers/pitool_* "$fresh"/b/chromalexers/README.md
	(cd "$fresh" && diff -ru a/chromalexers b/chromalexers) | sed -E 's/^(---|\+\+\+) ([^\t]+)\t.*/\1 \2/' || true
	exit 0
fi

find "$dst" -maxdepth 1 -type f ! -name 'pitool_*' ! -name README.md -delete
rm -rf "$dst/embedded"
cp -R "$fresh/a/chromalexers"/. "$dst"/
(cd "$dst" && patch -p2 --batch --no-backup-if-mismatch <pitool_lazy.patch)
# Every lookup must go through the lazy registry: no init function and no use of upstream's
# package variable may be left (raku.go names GlobalLexerRegistry inside a string).
if grep -n --exclude='pitool_*' -e '^func init()' -e 'GlobalLexerRegistry\.' "$dst"/*.go; then
	echo "update-chroma-lexers: $dst still registers at start; extend pitool_lazy.patch" >&2
	exit 1
fi
sed -i "s|^Copied from .* (chroma's lexers package)\.$|Copied from $module $version (chroma's lexers package).|" "$dst/README.md"
gofmt -l "$dst"
echo "chromalexers: chroma $version copied and patched"

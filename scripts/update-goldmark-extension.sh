#!/usr/bin/env bash
# update-goldmark-extension.sh: re-copies goldmark's extension package into
# third_party/goldmark/extension for the goldmark version in go.mod, with its package-variable
# regexps compiled on first use instead of at program start (see that folder's README.md). Run it
# after bumping github.com/yuin/goldmark, then `go test ./third_party/... ./exporter/...`.
#
# usage: scripts/update-goldmark-extension.sh
#
# What the copy changes, mechanically: in linkify.go, table.go and tasklist.go,
# regexp.MustCompile becomes lazyregexp.New (internal/lazyregexp); linkify's defaults, which
# NewLinkifyParser hands to LinkifyConfig as *regexp.Regexp, are compiled there
# (urlRegexp.Regexp()). Files named pitool_* and README.md are pitool's and kept.
set -euo pipefail

cd "$(dirname "$0")/.."
dst=third_party/goldmark/extension
lazy=github.com/pitool/pitool/internal/lazyregexp
go mod download github.com/yuin/goldmark
src=$(go list -m -f '{{.Dir}}' github.com/yuin/goldmark)

find "$dst" -maxdepth 1 -type f ! -name 'pitool_*' ! -name README.md -delete 2>/dev/null || true
rm -rf "$dst/_test"
mkdir -p "$dst"
cp "$src"/extension/*.go "$dst"/
cp -R "$src/extension/_test" "$dst"/
cp "$src/LICENSE" "$dst/LICENSE"
chmod -R u+w "$dst"
sed -i 's/regexp\.MustCompile(/lazyregexp.New(/' "$dst/linkify.go" "$dst/table.go" "$dst/tasklist.go"
sed -i "s#^\t\"regexp\"\$#\t\"$lazy\"#" "$dst/table.go" "$dst/tasklist.go"
sed -i -e "/^import (/a \\\\t\"$lazy\"" \
	-e 's/^\(\t*URLRegexp: *\)urlRegexp,$/\1urlRegexp.Regexp(),/' \
	-e 's/^\(\t*WWWRegexp: *\)wwwURLRegxp,$/\1wwwURLRegxp.Regexp(),/' "$dst/linkify.go"
gofmt -w "$dst"
# Every regexp of the package must be lazy now, and handed over compiled.
if grep -n 'regexp\.MustCompile' "$dst"/*.go | grep -v '_test.go' ||
	! grep -q 'urlRegexp\.Regexp()' "$dst/linkify.go" || ! grep -q 'wwwURLRegxp\.Regexp()' "$dst/linkify.go"; then
	echo "update-goldmark-extension: $dst still compiles regexps at start; extend the script" >&2
	exit 1
fi
echo "goldmark extension: copied from goldmark $(go list -m -f '{{.Version}}' github.com/yuin/goldmark)"

#!/usr/bin/env bash
# update-bluemonday.sh: re-copies bluemonday (and the CSS parser and scanner it imports) into
# third_party/bluemonday for the versions in go.mod, with their package-variable regexps compiled
# on first use instead of at program start (see that folder's README.md). Run it after bumping
# github.com/microcosm-cc/bluemonday, github.com/aymerick/douceur or github.com/gorilla/css, then
# `go test ./third_party/... ./exporter/...`.
#
# usage: scripts/update-bluemonday.sh
#
# What the copy changes, mechanically: import paths point at the copies; in bluemonday/css,
# bluemonday's sanitize.go and helpers.go's exported regexps, regexp.MustCompile becomes
# lazyregexp.New (compiled on first use; helpers.go's are compiled where they are handed to
# Matching); gorilla's scanner compiles its matchers in New, once (pitool_lazy.patch). Files
# named pitool_* and README.md are pitool's and kept (so is internal/lazyregexp). When the
# patch no longer applies, make the change by hand and refresh it with
# `DIFF=1 scripts/update-bluemonday.sh >third_party/bluemonday/pitool_lazy.patch`.
set -euo pipefail

cd "$(dirname "$0")/.."
dst=third_party/bluemonday
self=github.com/pitool/pitool/$dst
lazy=github.com/pitool/pitool/internal/lazyregexp
go mod download github.com/microcosm-cc/bluemonday github.com/aymerick/douceur github.com/gorilla/css
dir() { go list -m -f '{{.Dir}}' "$1"; }
bm=$(dir github.com/microcosm-cc/bluemonday)
dc=$(dir github.com/aymerick/douceur)
gc=$(dir github.com/gorilla/css)

# copy_pkg SRC DIR: a package's Go files, tests included, into DIR.
copy_pkg() {
	mkdir -p "$2"
	cp "$1"/*.go "$2"/
	chmod u+w "$2"/*.go
}

# copy_upstream DIR: the packages, imports rewritten, regexps made lazy, into the new folder DIR.
copy_upstream() {
	local d=$1
	copy_pkg "$bm" "$d"
	copy_pkg "$bm/css" "$d/css"
	copy_pkg "$dc/parser" "$d/internal/douceur/parser"
	copy_pkg "$dc/css" "$d/internal/douceur/css"
	copy_pkg "$gc/scanner" "$d/internal/gorillacss/scanner"
	cp "$bm/LICENSE.md" "$d/LICENSE.md"
	cp "$dc/LICENSE" "$d/internal/douceur/LICENSE"
	cp "$gc/LICENSE" "$d/internal/gorillacss/LICENSE"
	find "$d" -name '*.go' -exec sed -i \
		-e "s#\"github.com/microcosm-cc/bluemonday/css\"#\"$self/css\"#" \
		-e "s#\"github.com/microcosm-cc/bluemonday\"#\"$self\"#" \
		-e "s#\"github.com/aymerick/douceur/parser\"#\"$self/internal/douceur/parser\"#" \
		-e "s#\"github.com/aymerick/douceur/css\"#\"$self/internal/douceur/css\"#" \
		-e "s#\"github.com/gorilla/css/scanner\"#\"$self/internal/gorillacss/scanner\"#" {} +
	sed -i -e 's/regexp\.MustCompile(/lazyregexp.New(/' \
		-e "s#^\t\"regexp\"\$#\t\"$lazy\"#" "$d/css/handlers.go" "$d/sanitize.go"
	# helpers.go's exported regexps too; where they are handed to Matching, which takes a
	# *regexp.Regexp, they are compiled there (X.Regexp()).
	sed -i -e '/^\/\/ A selection of regular expressions/,/^)/ s/regexp\.MustCompile(/lazyregexp.New(/' \
		-e "/^import (/a \\\t\"$lazy\"" "$d/helpers.go"
	perl -pi -e 'next if m{^\s*//}; s/(?<![\w.])((?:bluemonday\.)?(?:'"$lazy_exported"'))(?=[,)])/$1.Regexp()/g' "$d"/*.go
	gofmt -w "$d"
}

# lazy_exported are helpers.go's regexps.
lazy_exported='CellAlign|CellVerticalAlign|Direction|ImageAlign|Integer|ISO8601|ListType|SpaceSeparatedTokens|Number|NumberOrPercent|Paragraph'

fresh=$(mktemp -d)
trap 'rm -rf "$fresh"' EXIT
copy_upstream "$fresh/a/bluemonday"

if [[ -n ${DIFF:-} ]]; then
	mkdir -p "$fresh/b"
	cp -R "$dst" "$fresh/b/bluemonday"
	find "$fresh/b/bluemonday" \( -name 'pitool_*' -o -name README.md \) -delete
	(cd "$fresh" && diff -ru a/bluemonday b/bluemonday) | sed -E 's/^(---|\+\+\+) ([^\t]+)\t.*/\1 \2/' || true
	exit 0
fi

find "$dst" -type f -name '*.go' ! -name 'pitool_*' -delete
cp -R "$fresh/a/bluemonday"/. "$dst"/
(cd "$dst" && patch -p2 --batch --no-backup-if-mismatch <pitool_lazy.patch)
# No regexp may be left compiled at start where the copy made them lazy (douceur's parser
# keeps its one small regexp in init).
if grep -n 'regexp\.MustCompile' "$dst/css/handlers.go" "$dst/sanitize.go" ||
	sed -n '/^\/\/ A selection of regular expressions/,/^)/p' "$dst/helpers.go" | grep 'regexp\.MustCompile' ||
	grep -n '^func init()' "$dst/internal/gorillacss/scanner/scanner.go"; then
	echo "update-bluemonday: $dst still compiles regexps at start; extend the copy or pitool_lazy.patch" >&2
	exit 1
fi
gofmt -l "$dst"
echo "bluemonday: copied and patched"

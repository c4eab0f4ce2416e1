// Command keyify names the fields of every unkeyed composite literal of a
// struct type from another package, in the Go files of one package folder:
// chroma's lexers, copied into third_party/chromalexers, write their rules as
// {pattern, type, mutator}, which go vet's composites check refuses outside
// chroma. scripts/update-chroma-lexers.sh runs it on every copy.
//
// usage: go run ./scripts/keyify DIR
package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: keyify DIR")
		os.Exit(2)
	}
	if err := keyify(os.Args[1]); err != nil {
		fmt.Fprintf(os.Stderr, "keyify: %v\n", err)
		os.Exit(1)
	}
}

// keyify type-checks the package in dir and rewrites its files in place.
func keyify(dir string) error {
	fset := token.NewFileSet()
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return fmt.Errorf("listing %s: %w", dir, err)
	}
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			return fmt.Errorf("parsing: %w", err)
		}
		files = append(files, f)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}}
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
	pkg, err := conf.Check(dir, fset, files, info)
	if err != nil {
		return fmt.Errorf("type-checking %s: %w", dir, err)
	}
	for _, f := range files {
		if err := rewrite(fset, f, keys(fset, pkg, info, f)); err != nil {
			return err
		}
	}
	return nil
}

// insertion is a field name and colon to write at a byte offset of a file.
type insertion struct {
	offset int
	text   string
}

// keys lists the field names f's unkeyed literals of foreign structs need.
func keys(fset *token.FileSet, pkg *types.Package, info *types.Info, f *ast.File) []insertion {
	var out []insertion
	ast.Inspect(f, func(n ast.Node) bool {
		lit, ok := n.(*ast.CompositeLit)
		if !ok || len(lit.Elts) == 0 {
			return true
		}
		if _, keyed := lit.Elts[0].(*ast.KeyValueExpr); keyed {
			return true
		}
		st := foreignStruct(pkg, info.Types[lit].Type)
		if st == nil {
			return true
		}
		for i, e := range lit.Elts {
			out = append(out, insertion{fset.Position(e.Pos()).Offset, st.Field(i).Name() + ": "})
		}
		return true
	})
	return out
}

// foreignStruct is t's struct when t is a struct type named in another
// package than pkg (through a pointer or not), else nil.
func foreignStruct(pkg *types.Package, t types.Type) *types.Struct {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	named, ok := types.Unalias(t).(*types.Named)
	if !ok || named.Obj().Pkg() == pkg {
		return nil
	}
	st, _ := named.Underlying().(*types.Struct)
	return st
}

// rewrite writes f's file with the insertions made, formatted.
func rewrite(fset *token.FileSet, f *ast.File, ins []insertion) error {
	if len(ins) == 0 {
		return nil
	}
	file := fset.File(f.Pos())
	src, err := os.ReadFile(file.Name())
	if err != nil {
		return fmt.Errorf("reading: %w", err)
	}
	sort.Slice(ins, func(i, j int) bool { return ins[i].offset < ins[j].offset })
	var b bytes.Buffer
	last := 0
	for _, in := range ins {
		b.Write(src[last:in.offset])
		b.WriteString(in.text)
		last = in.offset
	}
	b.Write(src[last:])
	out, err := format.Source(b.Bytes())
	if err != nil {
		return fmt.Errorf("formatting %s: %w", file.Name(), err)
	}
	if err := os.WriteFile(file.Name(), out, 0o644); err != nil {
		return fmt.Errorf("writing: %w", err)
	}
	return nil
}

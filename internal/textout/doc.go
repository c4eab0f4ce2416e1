// Package textout owns how pitool's text output looks: tables that fit the
// terminal, shortened paths, numbers with separators, plurals and Pi's age words.
package textout

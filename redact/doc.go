// Package redact finds credentials and other sensitive values in Pi session
// lines and replaces them with stable placeholders, keeping every line valid.
//
// Detection starts from gitleaks' default rule set (vendored as gitleaks.toml,
// MIT, see LICENSE-gitleaks) plus session rules (rules.toml). An Aho-Corasick
// keyword prefilter runs over each line first; regular expressions only run
// next to keyword hits, so throughput does not fall with the number of rules.
//
// Rewriting is JSON-aware: every string value is decoded before it is
// scanned, so secrets written with escapes (\u0041KIA…, \/, \") are found,
// and a changed string is re-encoded as JSON.stringify writes it. Lines with
// no finding are returned unchanged, byte for byte.
package redact

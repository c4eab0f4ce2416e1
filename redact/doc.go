// Package redact finds credentials and other sensitive values in Pi session
// lines and replaces them with stable placeholders, keeping every line valid.
//
// Detection starts from gitleaks' default rule set (vendored as gitleaks.toml,
// MIT, see LICENSE-gitleaks) plus session rules (rules.toml). An Aho-Corasick
// keyword prefilter runs over each line first; regular expressions only run
// next to keyword hits, so throughput does not fall with the number of rules.
//
// Rewriting is JSON-aware: every string is decoded before it is scanned, so
// secrets written with escapes (\u0041KIA…, \/, \") are found, and a changed
// string is re-encoded as JSON.stringify writes it. Lines with no finding are
// returned unchanged, byte for byte.
//
// Every string is scanned, keys and structural values included: model,
// provider, customType, mimeType, types, timestamps, ids and references.
// Nothing is exempt, because nothing needs to be: a placeholder depends only
// on the value and the run's salt, so an id that holds a secret becomes the
// same new id in its entry and in every parentId, targetId, fromId,
// firstKeptEntryId or toolCallId that names it, and the tree holds together.
// A key that holds a secret is replaced like a value; should the new key equal
// another key of its object, it gets a "#2" suffix, so no member is lost.
// Findings never carry a secret: a preview shows no byte of it, only its
// length, and a key on a finding's JSON path shows its redacted form.
package redact

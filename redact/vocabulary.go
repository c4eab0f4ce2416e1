package redact

import (
	"slices"

	"github.com/pitool/pitool/jsonl"
)

// piVocabulary lists the keys and enumeration values of Pi's session
// format, which fill most strings of a session; the entry types and
// reference keys come from jsonl (see vocabulary). New scans each once under
// the run's rules: those with no finding are never scanned again, which
// changes no result (a string's findings depend on the string alone) and
// saves the prefilter hits of words such as "totalTokens".
var piVocabulary = []string{
	// keys
	"api", "arguments", "cacheRead", "cacheWrite", "cancelled", "command", "content", "cost",
	"customType", "cwd", "data", "description", "details", "display", "durationMs", "errorMessage",
	"excludeFromContext", "exitCode", "fromHook", "fullOutputPath", "id",
	"input", "isError", "kind", "label", "message", "mimeType", "model", "modelId", "modifiedFiles",
	"name", "output", "parameters", "parentId", "parentSession", "partialJson", "path", "properties",
	"provider", "readFiles", "redacted", "replacement", "required", "responseId", "responseModel", "role",
	"sections", "stopReason", "summary", "systemMessage", "text", "textSignature", "thinking",
	"thinkingLevel", "thinkingSignature", "thoughtSignature", "timestamp", "tokensBefore", "toolCallId",
	"toolName", "tools", "toolsAdded", "toolsRemoved", "total", "totalTokens", "truncated", "type",
	"usage", "version",
	// block and message types, roles, stop reasons, levels, apis
	jsonl.RoleUser, jsonl.RoleAssistant,
	jsonl.RoleToolResult, jsonl.RoleBashExecution, jsonl.RoleBranchSummary, jsonl.RoleCompactionSummary,
	jsonl.RoleSystem, jsonl.BlockToolCall, jsonl.BlockImage, "stop", "length", "toolUse", "error", "aborted", "off", "minimal", "low", "medium", "high",
	"xhigh", "anthropic", "openai", "google", "anthropic-messages", "openai-completions",
	"openai-responses", "google-generative-ai", "image/png", "image/jpeg", "image/gif", "image/webp",
	"object", "string", "number", "boolean", "array",
}

// maxWord bounds the words of piVocabulary, so that longer strings skip
// the lookup.
const maxWord = 24

// vocabulary returns piVocabulary with the names of jsonl's entry types and
// reference keys.
func vocabulary() []string {
	words := slices.Clone(piVocabulary)
	for t := jsonl.TypeSession; t < jsonl.NumEntryTypes; t++ {
		words = append(words, t.String())
	}
	for k := jsonl.RefTarget; k < jsonl.NumRefKeys; k++ {
		words = append(words, k.String())
	}
	return words
}

// cleanWords returns the words of the vocabulary in which sc finds nothing.
func cleanWords(sc *scanner) map[string]bool {
	words := vocabulary()
	clean := make(map[string]bool, len(words))
	for _, w := range words {
		if len(w) <= maxWord && len(sc.scanText([]byte(w))) == 0 {
			clean[w] = true
		}
	}
	return clean
}

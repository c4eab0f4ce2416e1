package jsonl

// CurrentVersion is the session format version Pi 1.6.0 writes.
const CurrentVersion = 3

// Header is the first line of a session file.
type Header struct {
	Type          string `json:"type"`
	Version       int    `json:"version,omitempty"`
	ID            string `json:"id"`
	Timestamp     string `json:"timestamp"`
	Cwd           string `json:"cwd"`
	ParentSession string `json:"parentSession,omitempty"`
}

// The message roles.
const (
	RoleSystem            = "system"
	RoleUser              = "user"
	RoleAssistant         = "assistant"
	RoleToolResult        = "toolResult"
	RoleBashExecution     = "bashExecution"
	RoleCustom            = "custom"
	RoleBranchSummary     = "branchSummary"
	RoleCompactionSummary = "compactionSummary"
	RoleHookMessage       = "hookMessage" // v2 name of RoleCustom
)

// Message is an AgentMessage with the union of its roles' fields. Content is
// kept raw: a string, or an array of Block.
type Message struct {
	Role      string     `json:"role"`
	Content   RawMessage `json:"content,omitempty"`
	Timestamp RawMessage `json:"timestamp,omitempty"`

	// system
	Sections     map[string]*string `json:"sections,omitempty"`
	ToolsAdded   RawMessage         `json:"toolsAdded,omitempty"`
	ToolsRemoved RawMessage         `json:"toolsRemoved,omitempty"` // ToolReference objects: [{name}]

	// assistant
	API           string `json:"api,omitempty"`
	Provider      string `json:"provider,omitempty"`
	Model         string `json:"model,omitempty"`
	Usage         *Usage `json:"usage,omitempty"`
	StopReason    string `json:"stopReason,omitempty"`
	ErrorMessage  string `json:"errorMessage,omitempty"`
	ThinkingLevel string `json:"thinkingLevel,omitempty"`
	ResponseModel string `json:"responseModel,omitempty"`

	// toolResult
	ToolCallID  string     `json:"toolCallId,omitempty"`
	ToolName    string     `json:"toolName,omitempty"`
	Details     RawMessage `json:"details,omitempty"`
	IsError     bool       `json:"isError,omitempty"`
	NestedCalls RawMessage `json:"nestedCalls,omitempty"`

	// bashExecution
	Command            string `json:"command,omitempty"`
	Output             string `json:"output,omitempty"`
	ExitCode           *int   `json:"exitCode,omitempty"`
	Cancelled          bool   `json:"cancelled,omitempty"`
	Truncated          bool   `json:"truncated,omitempty"`
	FullOutputPath     string `json:"fullOutputPath,omitempty"`
	ExcludeFromContext bool   `json:"excludeFromContext,omitempty"`

	// custom, branchSummary, compactionSummary
	CustomType   string  `json:"customType,omitempty"`
	Display      *bool   `json:"display,omitempty"`
	Summary      string  `json:"summary,omitempty"`
	FromID       string  `json:"fromId,omitempty"`
	TokensBefore float64 `json:"tokensBefore,omitempty"`
}

// Block is one content block: text, image, thinking or toolCall.
type Block struct {
	Type string `json:"type"`

	Text string `json:"text,omitempty"` // text

	Data     string `json:"data,omitempty"` // image, base64
	MimeType string `json:"mimeType,omitempty"`

	Thinking          string `json:"thinking,omitempty"` // thinking
	ThinkingSignature string `json:"thinkingSignature,omitempty"`
	Redacted          bool   `json:"redacted,omitempty"`

	ID               string     `json:"id,omitempty"` // toolCall
	Name             string     `json:"name,omitempty"`
	Arguments        RawMessage `json:"arguments,omitempty"`
	ThoughtSignature string     `json:"thoughtSignature,omitempty"`
}

// Usage is the token and cost record of an assistant message.
type Usage struct {
	Input       float64 `json:"input"`
	Output      float64 `json:"output"`
	CacheRead   float64 `json:"cacheRead"`
	CacheWrite  float64 `json:"cacheWrite"`
	TotalTokens float64 `json:"totalTokens"`
	Cost        *Cost   `json:"cost,omitempty"`
}

// Cost is the price of a Usage in dollars.
type Cost struct {
	Input      float64 `json:"input"`
	Output     float64 `json:"output"`
	CacheRead  float64 `json:"cacheRead"`
	CacheWrite float64 `json:"cacheWrite"`
	Total      float64 `json:"total"`
}

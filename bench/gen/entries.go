package gen

// The types below are the JSON shapes Pi 1.6.0 writes, with fields in the order Pi's
// session-manager.js builds them (and as real sessions in testdata/corpus/v3 show them), so that
// encoding/json writes each line exactly as JSON.stringify would.

// header is the first line of a session file.
type header struct {
	Type      string `json:"type"`
	Version   int    `json:"version"`
	ID        string `json:"id"`
	Timestamp string `json:"timestamp"`
	Cwd       string `json:"cwd"`
}

// head holds the fields that open most entry types.
type head struct {
	Type      string  `json:"type"`
	ID        string  `json:"id"`
	ParentID  *string `json:"parentId"`
	Timestamp string  `json:"timestamp"`
}

type messageEntry struct {
	head
	Message any `json:"message"`
}

type modelChangeEntry struct {
	head
	Provider string `json:"provider"`
	ModelID  string `json:"modelId"`
}

type thinkingLevelEntry struct {
	head
	ThinkingLevel string `json:"thinkingLevel"`
}

type usageEntry struct {
	head
	Kind     string `json:"kind"`
	Provider string `json:"provider"`
	Model    string `json:"model"`
	Usage    usage  `json:"usage"`
}

type compactionEntry struct {
	head
	Summary          string         `json:"summary"`
	FirstKeptEntryID string         `json:"firstKeptEntryId"`
	TokensBefore     int            `json:"tokensBefore"`
	Details          fileDetails    `json:"details"`
	Usage            usage          `json:"usage"`
	FromHook         bool           `json:"fromHook"`
	SystemMessage    *systemMessage `json:"systemMessage,omitempty"`
}

type branchSummaryEntry struct {
	head
	FromID  string      `json:"fromId"`
	Summary string      `json:"summary"`
	Details fileDetails `json:"details"`
}

type sessionInfoEntry struct {
	head
	Name string `json:"name"`
}

type labelEntry struct {
	head
	TargetID string `json:"targetId"`
	Label    string `json:"label,omitempty"`
}

type contextEditEntry struct {
	head
	TargetID    string       `json:"targetId"`
	Replacement *replacement `json:"replacement"`
}

type replacement struct {
	Content any `json:"content"`
}

// customEntry and customMessageEntry put customType before the id, as Pi does.
type customEntry struct {
	Type       string     `json:"type"`
	CustomType string     `json:"customType"`
	Data       customData `json:"data"`
	ID         string     `json:"id"`
	ParentID   *string    `json:"parentId"`
	Timestamp  string     `json:"timestamp"`
}

type customData struct {
	Step int  `json:"step"`
	On   bool `json:"on"`
}

type customMessageEntry struct {
	Type       string         `json:"type"`
	CustomType string         `json:"customType"`
	Content    string         `json:"content"`
	Display    bool           `json:"display"`
	Details    reminderDetail `json:"details"`
	ID         string         `json:"id"`
	ParentID   *string        `json:"parentId"`
	Timestamp  string         `json:"timestamp"`
}

type reminderDetail struct {
	N int `json:"n"`
}

type fileDetails struct {
	ReadFiles     []string `json:"readFiles"`
	ModifiedFiles []string `json:"modifiedFiles"`
}

type usage struct {
	Input       int  `json:"input"`
	Output      int  `json:"output"`
	CacheRead   int  `json:"cacheRead"`
	CacheWrite  int  `json:"cacheWrite"`
	TotalTokens int  `json:"totalTokens"`
	Cost        cost `json:"cost"`
}

type cost struct {
	Input      float64 `json:"input"`
	Output     float64 `json:"output"`
	CacheRead  float64 `json:"cacheRead"`
	CacheWrite float64 `json:"cacheWrite"`
	Total      float64 `json:"total"`
}

type systemMessage struct {
	Role       string    `json:"role"`
	Content    string    `json:"content"`
	Sections   sections  `json:"sections"`
	Timestamp  int64     `json:"timestamp"`
	ToolsAdded []toolDef `json:"toolsAdded"`
}

type sections struct {
	Preamble string `json:"preamble"`
	Tools    string `json:"tools"`
	Rules    string `json:"rules"`
	Cwd      string `json:"cwd"`
}

type toolDef struct {
	Name        string     `json:"name"`
	Description string     `json:"description"`
	Parameters  toolParams `json:"parameters"`
}

type toolParams struct {
	Type       string    `json:"type"`
	Required   []string  `json:"required"`
	Properties toolProps `json:"properties"`
}

// toolProps lists every parameter any generated tool takes; each tool sets its own.
type toolProps struct {
	Pattern *propSchema `json:"pattern,omitempty"`
	Path    *propSchema `json:"path,omitempty"`
	Command *propSchema `json:"command,omitempty"`
	Content *propSchema `json:"content,omitempty"`
	Edits   *propSchema `json:"edits,omitempty"`
	Offset  *propSchema `json:"offset,omitempty"`
	Limit   *propSchema `json:"limit,omitempty"`
	Timeout *propSchema `json:"timeout,omitempty"`
}

type propSchema struct {
	Type        string `json:"type"`
	Description string `json:"description"`
}

type userMessage struct {
	Role      string `json:"role"`
	Content   any    `json:"content"`
	Timestamp int64  `json:"timestamp"`
}

type assistantMessage struct {
	Role          string `json:"role"`
	Content       []any  `json:"content"`
	API           string `json:"api"`
	Provider      string `json:"provider"`
	Model         string `json:"model"`
	Usage         usage  `json:"usage"`
	StopReason    string `json:"stopReason"`
	ResponseID    string `json:"responseId"`
	Timestamp     int64  `json:"timestamp"`
	DurationMs    int    `json:"durationMs"`
	ThinkingLevel string `json:"thinkingLevel"`
}

type textBlock struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

type thinkingBlock struct {
	Type              string `json:"type"`
	Thinking          string `json:"thinking"`
	ThinkingSignature string `json:"thinkingSignature"`
}

type toolCallBlock struct {
	Type      string `json:"type"`
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments any    `json:"arguments"`
}

type readArgs struct {
	Path   string `json:"path"`
	Offset int    `json:"offset,omitempty"`
	Limit  int    `json:"limit,omitempty"`
}

type editArgs struct {
	Path  string   `json:"path"`
	Edits []editOp `json:"edits"`
}

type editOp struct {
	OldText string `json:"oldText"`
	NewText string `json:"newText"`
}

type writeArgs struct {
	Path    string `json:"path"`
	Content string `json:"content"`
}

type bashArgs struct {
	Command string `json:"command"`
	Timeout int    `json:"timeout,omitempty"`
}

type grepArgs struct {
	Pattern string `json:"pattern"`
	Path    string `json:"path"`
}

type toolResultMessage struct {
	Role       string      `json:"role"`
	ToolCallID string      `json:"toolCallId"`
	ToolName   string      `json:"toolName"`
	Content    []textBlock `json:"content"`
	Details    *diffDetail `json:"details,omitempty"`
	IsError    bool        `json:"isError"`
	DurationMs int         `json:"durationMs"`
	Timestamp  int64       `json:"timestamp"`
}

type diffDetail struct {
	Diff string `json:"diff"`
}

type bashExecutionMessage struct {
	Role               string `json:"role"`
	Command            string `json:"command"`
	Output             string `json:"output"`
	ExitCode           int    `json:"exitCode"`
	Cancelled          bool   `json:"cancelled"`
	Truncated          bool   `json:"truncated"`
	Timestamp          int64  `json:"timestamp"`
	ExcludeFromContext bool   `json:"excludeFromContext,omitempty"`
}

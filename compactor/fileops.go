package compactor

import (
	"sort"
	"strings"

	"github.com/pitool/pitool/jsonl"
)

// FileOps are the paths touched by read, write and edit tool calls, in first-seen order.
type FileOps struct {
	Read, Written, Edited []string
	seen                  map[string]bool
}

// FileLists are Pi's computeFileLists: files only read, and files modified, each sorted.
type FileLists struct {
	ReadFiles     []string
	ModifiedFiles []string
}

func (f *FileOps) add(set *[]string, kind, path string) {
	if f.seen == nil {
		f.seen = map[string]bool{}
	}
	if key := kind + "\x00" + path; !f.seen[key] {
		f.seen[key] = true
		*set = append(*set, path)
	}
}

// AddFromMessage is Pi's extractFileOpsFromMessage: tool calls of an assistant
// message, or the nested calls recorded on a tool result.
func (f *FileOps) AddFromMessage(m jsonl.Object) {
	switch jsonl.RoleOf(m.Get("role")) {
	case jsonl.ToolResultRole:
		if !m.Has("nestedCalls") {
			return
		}
		nested, err := jsonl.ParseObject(m.Get("nestedCalls"))
		if err != nil {
			return
		}
		calls, _ := jsonl.ParseArray(nested.Get("calls"))
		for _, c := range calls {
			if call, err := jsonl.ParseObject(c); err == nil {
				f.addCall(call)
			}
		}
	case jsonl.AssistantRole:
		f.addToolCalls(m.Get("content"))
	}
}

// addToolCalls adds the tool calls of an assistant content array that have
// a name and arguments.
func (f *FileOps) addToolCalls(content jsonl.RawMessage) {
	calls, _ := jsonl.ToolCalls(content)
	for _, c := range calls {
		if c.Arguments != nil && c.Block.Has("name") {
			f.addCall(c.Block)
		}
	}
}

func (f *FileOps) addCall(call jsonl.Object) {
	var set *[]string
	kind := call.String("name")
	switch kind {
	case "read":
		set = &f.Read
	case "write":
		set = &f.Written
	case "edit":
		set = &f.Edited
	default:
		return
	}
	args, err := jsonl.ParseObject(call.Get("arguments"))
	if err != nil {
		return
	}
	if path := args.String("path"); path != "" {
		f.add(set, kind, path)
	}
}

// addPrevious takes the file lists of a previous compaction Pi generated
// (not one from a hook): readFiles as read, modifiedFiles as edited.
func (f *FileOps) addPrevious(compaction *jsonl.Entry) {
	if jsonl.Truthy(compaction.Obj.Get("fromHook")) {
		return
	}
	details, err := jsonl.ParseObject(compaction.Obj.Get("details"))
	if err != nil {
		return
	}
	for _, p := range stringArray(details.Get("readFiles")) {
		f.add(&f.Read, "read", p)
	}
	for _, p := range stringArray(details.Get("modifiedFiles")) {
		f.add(&f.Edited, "edit", p)
	}
}

func stringArray(raw jsonl.RawMessage) []string {
	elems, _ := jsonl.ParseArray(raw)
	var out []string
	for _, e := range elems {
		if s, ok := jsonl.DecodeString(e); ok {
			out = append(out, s)
		}
	}
	return out
}

// Lists is Pi's computeFileLists.
func (f *FileOps) Lists() FileLists {
	modified := map[string]bool{}
	var lists FileLists
	for _, p := range append(append([]string(nil), f.Edited...), f.Written...) {
		if !modified[p] {
			modified[p] = true
			lists.ModifiedFiles = append(lists.ModifiedFiles, p)
		}
	}
	for _, p := range f.Read {
		if !modified[p] {
			lists.ReadFiles = append(lists.ReadFiles, p)
		}
	}
	sortJS(lists.ReadFiles)
	sortJS(lists.ModifiedFiles)
	return lists
}

func sortJS(s []string) {
	sort.SliceStable(s, func(i, j int) bool { return lessUTF16(s[i], s[j]) })
}

// Format is Pi's formatFileOperations: the <read-files> and <modified-files>
// sections appended to a summary ("" when both lists are empty).
func (l FileLists) Format() string {
	var sections []string
	if len(l.ReadFiles) > 0 {
		sections = append(sections, "<read-files>\n"+strings.Join(l.ReadFiles, "\n")+"\n</read-files>")
	}
	if len(l.ModifiedFiles) > 0 {
		sections = append(sections, "<modified-files>\n"+strings.Join(l.ModifiedFiles, "\n")+"\n</modified-files>")
	}
	if len(sections) == 0 {
		return ""
	}
	return "\n\n" + strings.Join(sections, "\n\n")
}

// AppendJSON writes the lists as {"readFiles":[…],"modifiedFiles":[…]}.
func (l FileLists) AppendJSON(dst []byte) []byte {
	dst = append(dst, `{"readFiles":`...)
	dst = appendStrings(dst, l.ReadFiles)
	dst = append(dst, `,"modifiedFiles":`...)
	dst = appendStrings(dst, l.ModifiedFiles)
	return append(dst, '}')
}

func appendStrings(dst []byte, ss []string) []byte {
	dst = append(dst, '[')
	for i, s := range ss {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = jsonl.AppendString(dst, s)
	}
	return append(dst, ']')
}

package jsonl

import (
	"errors"
	"fmt"
	"iter"
	"slices"
	"unsafe"
)

// The request check: the provider view at a leaf (what Pi sends, see
// WriteView) walked for the tool exchanges a provider refuses. The rules, and
// where they were read (Pi 1.6.0, @earendil-works/pi-ai dist/api):
//
//   - A tool result must answer a tool call of the assistant message right
//     before it, with only tool results (and system messages, which Pi holds
//     back) between. anthropic-messages.js convertMessages: "Anthropic requires
//     `tool_result` blocks to immediately follow their `tool_use`"; each run of
//     results becomes the user message after the assistant's tool_use blocks.
//     openai-completions.js convertMessages sends each result as a "tool"
//     message with its tool_call_id after the assistant's tool_calls, and
//     openai-responses-shared.js convertResponsesMessages as a
//     function_call_output with its call_id, which OpenAI refuses without the
//     matching function_call: "400 No tool call found for function call output"
//     (Pi issues #1764, #4189, #4570, #6832). google-shared.js convertMessages
//     merges the results into the user turn after the model's functionCall
//     turn, which Gemini wants "immediately after a function call turn";
//     bedrock-converse-stream.js convertMessages, like Anthropic, sends each
//     run of results as toolResult blocks of the next user message. Hence
//     CallAbsent, CallAfterResult and CallInEarlierTurn.
//   - A tool call gets one result. The converters above copy every result, so
//     a second result for one call reaches the provider as a second
//     tool_result (Anthropic, Bedrock), function_call_output (OpenAI) or
//     functionResponse part (Gemini, which wants as many response parts as
//     call parts) for one id: each call takes exactly one. Hence
//     AnsweredTwice. (The providers' error texts quoted here are their
//     documented 400s, not measured against the live APIs.)
//   - Not problems, because Pi mends them itself (transform-messages.js
//     transformMessages): a call left without a result before the next
//     assistant or user message gets a synthetic "No result provided" result,
//     and system messages inside an exchange are held until its results.
//     transformMessages also drops assistant messages that stopped with
//     "error" or "aborted", which orphans any result that answered them
//     (CauseFailedTurn).

// RequestProblemKind is what is wrong with one tool result of a request.
type RequestProblemKind uint8

// The problems a provider refuses.
const (
	// CallAbsent: no assistant message of the request holds the result's call.
	CallAbsent RequestProblemKind = iota + 1
	// CallAfterResult: the call is sent only after its result.
	CallAfterResult
	// CallInEarlierTurn: the call was sent, but a user or assistant message
	// comes between it and the result.
	CallInEarlierTurn
	// AnsweredTwice: the call already has a result in this exchange.
	AnsweredTwice
)

var problemKindNames = [...]string{CallAbsent: "call-absent", CallAfterResult: "call-after-result",
	CallInEarlierTurn: "call-in-earlier-turn", AnsweredTwice: "answered-twice"}

// String names the kind as findings print it.
func (k RequestProblemKind) String() string { return problemKindNames[k] }

// Orphan reports whether the result has no call before it in the request:
// the "No tool call found" shape.
func (k RequestProblemKind) Orphan() bool { return k == CallAbsent || k == CallAfterResult }

// RequestCause is what made the request lose or misplace a call.
type RequestCause uint8

// The causes found by walking the path.
const (
	// CauseCompaction: the call lies before the latest compaction's
	// firstKeptEntryId, so it was summarised away (By: the compaction).
	CauseCompaction RequestCause = iota + 1
	// CauseEditDropped: a context_edit with replacement null drops the call's
	// message (By: the edit).
	CauseEditDropped
	// CauseEditReplaced: a context_edit replaces the call's message content
	// with one that holds no such call (By: the edit).
	CauseEditReplaced
	// CauseFailedTurn: the call's message stopped with "error" or "aborted",
	// and transformMessages drops it.
	CauseFailedTurn
	// CauseNotOnPath: no message on the path to the leaf holds the call.
	CauseNotOnPath
	// CauseOrder: the call is written after its result on the path.
	CauseOrder
	// CauseInterrupted: a message ends the call's exchange before the result
	// (By: that message).
	CauseInterrupted
	// CauseRepeated: the call was answered before (By: the first result).
	CauseRepeated
)

var causeNames = [...]string{CauseCompaction: "compaction", CauseEditDropped: "context-edit-dropped",
	CauseEditReplaced: "context-edit-replaced", CauseFailedTurn: "failed-turn", CauseNotOnPath: "not-on-path",
	CauseOrder: "order", CauseInterrupted: "interrupted", CauseRepeated: "repeated"}

// String names the cause as findings print it.
func (c RequestCause) String() string { return causeNames[c] }

// EntryRef points at one entry: its number in the index (None when there is
// no such entry), id and line.
type EntryRef struct {
	Entry int
	ID    string
	Line  int
}

// noEntry is the EntryRef of an entry that does not exist.
var noEntry = EntryRef{Entry: None}

// EntryRef returns the EntryRef of entry i: its number, id and line.
func (ix *Index) EntryRef(i int) EntryRef {
	if i == None {
		return noEntry
	}
	return EntryRef{Entry: i, ID: ix.ID(i), Line: ix.LineNum(i)}
}

// RequestProblem is one tool result of the request at a leaf that a provider
// refuses.
type RequestProblem struct {
	Kind       RequestProblemKind
	ToolCallID string
	Result     EntryRef // the toolResult message entry
	Call       EntryRef // the assistant message entry holding the call on the path; Entry None when none does
	Cause      RequestCause
	By         EntryRef // the compaction, context_edit, message or first result that caused it; Entry None otherwise
}

// String describes the problem in one line.
func (p RequestProblem) String() string {
	s := fmt.Sprintf("tool result %s (line %d) for call %q: %s", p.Result.ID, p.Result.Line, p.ToolCallID, p.Kind)
	if p.Call.Entry != None {
		s += fmt.Sprintf("; call in %s (line %d)", p.Call.ID, p.Call.Line)
	}
	s += "; cause " + p.Cause.String()
	if p.By.Entry != None {
		s += fmt.Sprintf(" %s (line %d)", p.By.ID, p.By.Line)
	}
	return s
}

// RequestChecker checks the requests at many leaves of one index, decoding
// each entry at most once (within keptSkeletonBytes): it keeps, per entry it
// had to read, only the skeleton of its messages that the check reads
// (roles, stop reasons, the hashes of tool call ids).
type RequestChecker struct {
	ix        *Index
	skeletons map[int][]skeleton // entry → its unedited llm messages, reduced, for the checks to come
	// edited holds the skeletons of edited entries, by entry and the
	// context edit whose replacement they take.
	edited map[[2]int32][]skeleton
	// several says that more than one check is to come (CheckEveryLeaf), so
	// skeletons are kept: one check reads an entry once, and a linear
	// session of millions of entries keeps nothing.
	several bool
	kept    int         // what skeletons holds costs about this many bytes
	memo    *selectMemo // the compactions and context edits the selections read
	one     [1]skeleton // the skeleton Index.skeletonOf read last
	// walk is the walk of each check, its maps emptied and reused: grown
	// again from nothing at each of many leaves, they cost a branched
	// session 6% of validate.
	walk requestWalk
}

// keptSkeletonBytes bounds what a RequestChecker keeps of the skeletons it
// read; past it, they are read again at each check.
const keptSkeletonBytes = 16 << 20

// NewRequestChecker returns a checker of ix's requests.
func NewRequestChecker(ix *Index) *RequestChecker {
	return &RequestChecker{ix: ix, skeletons: map[int][]skeleton{}, edited: map[[2]int32][]skeleton{}, memo: newSelectMemo()}
}

// CheckRequest is the request check at one leaf.
func (ix *Index) CheckRequest(leaf int) ([]RequestProblem, error) {
	return NewRequestChecker(ix).Check(leaf)
}

// Check returns the problems of the request Pi sends at leaf, in request
// order. The request is the provider view (ConvertToLlm then
// TransformMessages of the context), replayed with the same transform.
func (c *RequestChecker) Check(leaf int) ([]RequestProblem, error) {
	if leaf == None {
		return nil, nil
	}
	sel, err := c.ix.selectWith(leaf, c.memo)
	if err != nil {
		return nil, err
	}
	return c.check(sel)
}

// LeafRequest is the request check at one leaf.
type LeafRequest struct {
	Leaf     int
	Active   bool // the leaf Pi resumes at; Pi sends another leaf's request only if the user goes back there
	Problems []RequestProblem
}

// CheckEveryLeaf checks the request at the active leaf and at every other
// leaf (Index.Leaves), in that order, and returns those with problems. A
// problem on the path shared by several leaves is reported at each. Leaves
// whose path loops are passed over: the loop is the tree's problem, and Pi
// builds no request there.
func (c *RequestChecker) CheckEveryLeaf() ([]LeafRequest, error) {
	if c.ix.Len() == 0 {
		return nil, nil
	}
	active := c.ix.ActiveLeaf()
	leaves := c.activeFirst(active)
	c.several = c.checks(active) > 1
	defer func() {
		c.several, c.kept, c.skeletons, c.edited = false, 0, map[int][]skeleton{}, map[[2]int32][]skeleton{}
	}()
	var out []LeafRequest
	for leaf := range leaves {
		problems, err := c.Check(leaf)
		var cycle *CycleError
		if errors.As(err, &cycle) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if len(problems) > 0 {
			out = append(out, LeafRequest{Leaf: leaf, Active: leaf == active, Problems: problems})
		}
	}
	return out, nil
}

// activeFirst yields active, then the other leaves in file order, from the
// index's bits rather than a list: a file of siblings or of self-parents has
// as many leaves as entries.
func (c *RequestChecker) activeFirst(active int) iter.Seq[int] {
	return func(yield func(int) bool) {
		if !yield(active) {
			return
		}
		for leaf := range c.ix.eachLeaf() {
			if leaf != active && !yield(leaf) {
				return
			}
		}
	}
}

// CheckAfterCompaction is Check at a compaction with firstKeptEntryId
// firstKept appended after leaf: the problems the request would have once it
// is written. A problem the compaction causes has Cause CauseCompaction and
// By.Entry None.
func (c *RequestChecker) CheckAfterCompaction(leaf int, firstKept string) ([]RequestProblem, error) {
	if leaf == None {
		return nil, nil
	}
	sel, err := c.ix.selectCompacted(leaf, firstKept)
	if err != nil {
		return nil, err
	}
	return c.check(sel)
}

// summarySkeleton is a compaction's summary as the check sees it: a user
// message (ConvertToLlm wraps the summary in user text).
var summarySkeleton = skeleton{role: UserRole}

// check replays the request of a selection, message by message, and
// explains what the walk found.
func (c *RequestChecker) check(sel *Selection) ([]RequestProblem, error) {
	w := c.walk.reset()
	for k := range sel.count() {
		i := sel.at(k)
		w.cur = i
		if i == None {
			w.add(summarySkeleton)
			continue
		}
		if c.addsNothing(sel, k, i) {
			continue
		}
		msgs, err := c.selectedSkeletons(sel, k, i)
		if err != nil {
			return nil, err
		}
		for _, m := range msgs {
			w.add(m)
		}
	}
	return c.explain(sel, w.problems, w.hashes)
}

// addsNothing reports whether the k-th selected entry, i, adds no message to
// the request: a system message from before the compaction, or an older
// compaction inside the kept range.
func (c *RequestChecker) addsNothing(sel *Selection, k, i int) bool {
	return c.ix.skipsSystem(sel, k, i) || (k > 0 && c.ix.Type(i) == TypeCompaction)
}

// selectedSkeletons is the skeleton of the k-th selected entry's messages, as
// the selection projects them.
func (c *RequestChecker) selectedSkeletons(sel *Selection, k, i int) ([]skeleton, error) {
	editor, edited := c.ix.editorOf(sel, i)
	if !edited {
		return c.unedited(i)
	}
	key := [2]int32{int32(i), int32(editor)}
	if s, ok := c.edited[key]; ok {
		return s, nil
	}
	pe, err := c.ix.projectSelected(sel, k, i)
	if err != nil {
		return nil, err
	}
	s := skeletonsOf(pe.Messages)
	if cost := keptCost(s); c.several && c.kept+cost <= keptSkeletonBytes {
		c.edited[key] = s
		c.kept += cost
	}
	return s, nil
}

// editorOf is the context_edit entry whose replacement the selection gives
// entry i, found without making i's id; edited is false when there is none.
func (ix *Index) editorOf(s *Selection, i int) (editor int, edited bool) {
	if len(s.editors) == 0 {
		return None, false
	}
	var buf [packedIDLen]byte
	editor, edited = s.editors[string(ix.ids.view(int32(i), &buf))]
	return editor, edited
}

// checks is how many checks CheckEveryLeaf makes: one per leaf, and one
// at active if it is no leaf.
func (c *RequestChecker) checks(active int) int {
	hasChild := c.ix.hasChildBits()
	n := c.ix.countLeaves(hasChild)
	if !c.ix.isLeaf(hasChild, active) {
		n++ // active is checked first whether or not it is a leaf
	}
	return n
}

// unedited is the skeleton of entry i's own messages, no edit applied. One
// the index does not know (knownSkeleton) is kept when more checks are to
// come, within keptSkeletonBytes: the leaves of a branched file share most
// of their paths. (Counting, at every leaf, which entries a later check
// would read again cost a second selection per leaf, and the index knows
// most skeletons now.)
func (c *RequestChecker) unedited(i int) ([]skeleton, error) {
	if s, ok := c.ix.knownSkeleton(i, &c.one); ok {
		return s, nil
	}
	if s, ok := c.skeletons[i]; ok {
		return s, nil
	}
	s, err := c.ix.skeletonOf(i, &c.one)
	if err != nil {
		return nil, err
	}
	if cost := keptCost(s); c.several && c.kept+cost <= keptSkeletonBytes {
		c.skeletons[i] = slices.Clone(s)
		c.kept += cost
	}
	return s, nil
}

// keptCost is about what keeping skeletons s costs: the structs, their
// calls and the map's entry.
func keptCost(s []skeleton) int {
	n := 64
	for _, sk := range s {
		n += int(unsafe.Sizeof(sk)) + 8*len(sk.calls)
	}
	return n
}

// sentCall is a tool call the request has sent.
type sentCall struct {
	entry    int // its assistant message entry
	closedBy int // the message that ended its exchange, None while open
}

// requestWalk follows the messages of a request as TransformMessages emits
// them and notes each result that no provider takes. Of the transform it
// needs only that an assistant message that stopped with "error" or
// "aborted" is dropped: the synthetic results it adds for unanswered calls
// answer no call of the file, and the system messages it holds back touch
// no exchange.
type requestWalk struct {
	cur      int            // the entry whose message is being added
	exchange []uint64       // the calls of the open exchange, by their hashes (callHash)
	answered map[uint64]int // call → first result entry, in the open exchange
	called   map[uint64]sentCall
	problems []RequestProblem // their ToolCallID is left to explain
	hashes   []uint64         // the hash of each problem's call id
}

// reset empties the walk for the next request, keeping its maps' room; the
// problems found so far are left to the caller.
func (w *requestWalk) reset() *requestWalk {
	if w.called == nil {
		w.called, w.answered = map[uint64]sentCall{}, map[uint64]int{}
	}
	clear(w.called)
	clear(w.answered)
	w.exchange, w.problems, w.hashes = w.exchange[:0], nil, nil
	return w
}

// add takes one message of the request. Any assistant message, even one
// the transform then drops for its stop reason, ends the open exchange, as it
// does in TransformMessages.
func (w *requestWalk) add(m skeleton) {
	switch m.role {
	case AssistantRole:
		w.closeExchange()
		if m.failed {
			return
		}
		for _, id := range m.calls {
			w.exchange = append(w.exchange, id)
			w.called[id] = sentCall{entry: w.cur, closedBy: None}
			w.placeLateCall(id)
		}
	case UserRole:
		w.closeExchange()
	case ToolResultRole:
		w.result(m.callID)
	}
}

// closeExchange ends the open exchange at the message being added.
func (w *requestWalk) closeExchange() {
	for _, id := range w.exchange {
		if sc := w.called[id]; sc.closedBy == None {
			sc.closedBy = w.cur
			w.called[id] = sc
		}
	}
	w.exchange = w.exchange[:0]
	clear(w.answered)
}

// result checks one tool result of the file, the answer to call id.
func (w *requestWalk) result(id uint64) {
	p := RequestProblem{Result: EntryRef{Entry: w.cur}, Call: noEntry, By: noEntry}
	sc, sent := w.called[id]
	switch first, again := w.answered[id]; {
	case !sent:
		p.Kind = CallAbsent
	case sc.closedBy != None:
		p.Kind, p.Cause, p.Call, p.By = CallInEarlierTurn, CauseInterrupted, EntryRef{Entry: sc.entry}, EntryRef{Entry: sc.closedBy}
	case again:
		p.Kind, p.Cause, p.Call, p.By = AnsweredTwice, CauseRepeated, EntryRef{Entry: sc.entry}, EntryRef{Entry: first}
	default:
		w.answered[id] = w.cur
		return
	}
	w.problems = append(w.problems, p)
	w.hashes = append(w.hashes, id)
}

// placeLateCall turns earlier CallAbsent problems for id into CallAfterResult
// now that the call is sent.
func (w *requestWalk) placeLateCall(id uint64) {
	for k := range w.problems {
		if p := &w.problems[k]; p.Kind == CallAbsent && w.hashes[k] == id {
			p.Kind, p.Cause, p.Call = CallAfterResult, CauseOrder, EntryRef{Entry: w.cur}
		}
	}
}

// explain fills in the call ids of the problems (hashes: the hash of
// each one's), the ids and lines of their entries and, for calls absent
// from the request, what removed them.
func (c *RequestChecker) explain(sel *Selection, problems []RequestProblem, hashes []uint64) ([]RequestProblem, error) {
	for k := range problems {
		p := &problems[k]
		if p.Kind == CallAbsent {
			if err := c.findCause(sel, p, hashes[k]); err != nil {
				return nil, err
			}
		}
		id, err := c.ix.resultCallID(p.Result.Entry)
		if err != nil {
			return nil, err
		}
		p.ToolCallID = id
		p.Result, p.Call, p.By = c.ix.EntryRef(p.Result.Entry), c.ix.EntryRef(p.Call.Entry), c.ix.EntryRef(p.By.Entry)
	}
	return problems, nil
}

// findCause looks on the path, back from the result, for the assistant
// message that holds the call (id its hash), and says why the request lost
// it.
func (c *RequestChecker) findCause(sel *Selection, p *RequestProblem, id uint64) error {
	p.Cause = CauseNotOnPath
	for k := indexOf(sel.Path, p.Result.Entry) - 1; k >= 0; k-- {
		i := int(sel.Path[k])
		holds, failed, err := c.holdsCall(i, id)
		if err != nil {
			return err
		}
		if holds {
			p.Call = EntryRef{Entry: i}
			p.Cause, p.By = c.lossOf(sel, i, failed)
			return nil
		}
	}
	return nil
}

// holdsCall reports whether entry i's own messages hold an assistant tool
// call whose id hashes to id, and whether that message stopped with error
// or aborted.
func (c *RequestChecker) holdsCall(i int, id uint64) (holds, failed bool, err error) {
	if c.ix.nodes[i].role != AssistantRole {
		return false, false, nil
	}
	msgs, err := c.unedited(i)
	if err != nil {
		return false, false, err
	}
	for _, m := range msgs {
		if slices.Contains(m.calls, id) {
			return true, m.failed, nil
		}
	}
	return false, false, nil
}

// lossOf says why the call held by path entry i is not in the request.
func (c *RequestChecker) lossOf(sel *Selection, i int, failed bool) (RequestCause, EntryRef) {
	if indexOf(sel.Entries, i) < 0 {
		return CauseCompaction, EntryRef{Entry: sel.at(0)}
	}
	if editor, ok := sel.editors[c.ix.ID(i)]; ok {
		if rep := sel.edits[c.ix.ID(i)]; rep != nil && IsNull(rep) {
			return CauseEditDropped, EntryRef{Entry: editor}
		}
		return CauseEditReplaced, EntryRef{Entry: editor}
	}
	if failed {
		return CauseFailedTurn, noEntry
	}
	return CauseNotOnPath, noEntry
}

// resultCallID is the toolCallId of tool result entry i, as the request
// sends it: the check knows it by its hash only. An edit replaces a
// result's content, never its toolCallId.
func (ix *Index) resultCallID(i int) (string, error) {
	e, err := ix.Decode(i)
	if err != nil {
		return "", err
	}
	msg, err := e.Message()
	if err != nil {
		return "", err
	}
	return msg.String("toolCallId"), nil
}

func indexOf(list []int32, x int) int {
	for k, v := range list {
		if int(v) == x {
			return k
		}
	}
	return -1
}

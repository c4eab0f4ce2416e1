package jsonl

import (
	"bufio"
	"fmt"
	"io"
)

// View names one of the context outputs pi-ref prints.
type View string

// The views of a context.
const (
	ViewContext  View = "context"  // buildSessionContext
	ViewLLM      View = "llm"      // convertToLlm of its messages
	ViewProvider View = "provider" // transformMessages of those, for the last assistant's model
)

// ParseView checks a view name.
func ParseView(name string) (View, error) {
	switch v := View(name); v {
	case ViewContext, ViewLLM, ViewProvider:
		return v, nil
	}
	return "", fmt.Errorf("unknown view %q (want context, llm or provider)", name)
}

// WriteView streams a view of the context at leaf to w as one line of JSON.
// Entries are decoded one at a time, so memory stays bounded by the index and
// the largest entry.
func (ix *Index) WriteView(w io.Writer, leaf int, view View) error {
	sel, err := ix.Select(leaf)
	if err != nil {
		return err
	}
	aw := newArrayWriter(w)
	switch view {
	case ViewContext:
		err = ix.writeContext(aw, sel)
	case ViewLLM:
		err = ix.streamRaw(sel, aw.llmRaw, func(pe ProjectedEntry) error { return aw.objects(ConvertToLlm(pe.Messages)) })
		err = aw.finish(err, "]\n")
	case ViewProvider:
		err = ix.writeProvider(aw, sel)
	}
	return err
}

func (ix *Index) writeContext(aw *arrayWriter, sel *Selection) error {
	aw.raw(`{"messages":`)
	err := ix.streamRaw(sel, func(msg []byte, _ string) error { return aw.element(msg) },
		func(pe ProjectedEntry) error { return aw.objects(pe.Messages) })
	if err != nil {
		return err
	}
	level, model, err := ix.settings(sel)
	if err != nil {
		return err
	}
	c := Context{ThinkingLevel: level, Model: model}
	tail := c.AppendJSON(nil)
	tail = tail[len(`{"messages":[]`):]
	return aw.finish(nil, "]"+string(tail)+"\n")
}

func (ix *Index) writeProvider(aw *arrayWriter, sel *Selection) error {
	model, err := ix.lastAssistantModel(sel)
	if err != nil {
		return err
	}
	t := NewProviderTransform(model, aw.object)
	err = ix.Stream(sel, func(pe ProjectedEntry) error {
		for _, m := range ConvertToLlm(pe.Messages) {
			t.Add(m)
		}
		return nil
	})
	if err == nil {
		err = t.Close()
	}
	return aw.finish(err, "]\n")
}

// lastAssistantModel finds the model of the last assistant message in the
// context: the index tells which entries are assistant messages, so only the
// one found is decoded. An edit that drops it passes over it.
func (ix *Index) lastAssistantModel(sel *Selection) (ProviderModel, error) {
	for k := sel.count() - 1; k >= 0; k-- {
		i := sel.at(k)
		if ix.nodes[i].role != AssistantRole {
			continue
		}
		if rep, edited := ix.editOf(sel, i); edited && IsNull(rep) && rep != nil {
			continue
		}
		e, err := ix.Decode(i)
		if err != nil {
			return ProviderModel{}, err
		}
		msg, err := e.Message()
		if err != nil {
			return ProviderModel{}, err
		}
		return ProviderModel{Provider: msg.String("provider"), API: msg.String("api"), ID: msg.String("model")}, nil
	}
	return ProviderModel{}, nil
}

// arrayWriter writes a JSON array one element at a time.
type arrayWriter struct {
	bw      *bufio.Writer
	count   int
	scratch []byte // reused for each element's encoding
}

func newArrayWriter(w io.Writer) *arrayWriter {
	aw := &arrayWriter{bw: bufio.NewWriterSize(w, 1<<20)}
	return aw
}

func (aw *arrayWriter) raw(s string) { aw.bw.WriteString(s) }

func (aw *arrayWriter) object(o Object) error {
	aw.scratch = o.AppendJSON(aw.scratch[:0])
	return aw.element(aw.scratch)
}

// element writes one encoded element, an object that repeats a key written
// as JSON.parse reads it, and its numbers as Pi sends them (JSNumbers).
func (aw *arrayWriter) element(b []byte) error {
	if aw.count == 0 {
		aw.bw.WriteByte('[')
	} else {
		aw.bw.WriteByte(',')
	}
	aw.count++
	_, err := aw.bw.Write(JSNumbers(ToValidUTF8(MergeRepeatedKeys(b))))
	return err
}

// llmRaw writes a message that passed through the projection unchanged:
// convertToLlm keeps the four model roles as they are and converts the rest.
func (aw *arrayWriter) llmRaw(b []byte, role string) error {
	switch role {
	case RoleSystem, RoleUser, RoleAssistant, RoleToolResult:
		return aw.element(b)
	}
	o, err := ParseObject(b)
	if err != nil {
		return err
	}
	return aw.objects(ConvertToLlm([]Object{o}))
}

func (aw *arrayWriter) objects(objs []Object) error {
	for _, o := range objs {
		if err := aw.object(o); err != nil {
			return err
		}
	}
	return nil
}

// finish closes the array with tail and flushes; an earlier error wins.
func (aw *arrayWriter) finish(err error, tail string) error {
	if err != nil {
		return err
	}
	if aw.count == 0 {
		aw.bw.WriteByte('[')
	}
	aw.bw.WriteString(tail)
	return aw.bw.Flush()
}

package search

import (
	"context"
	"runtime"
)

// FileResult is the end of one file's search: how many matches it found,
// or why it could not be searched.
type FileResult struct {
	File  string
	Count int
	Err   error
}

// Output receives a search's results, file by file in the order the files
// were given: each file's matches, then its FileResult.
type Output interface {
	Match(Match) error
	FileDone(FileResult) error
}

// queued is how many matches a file being searched ahead of the one being
// printed may hold before its worker waits: the bound on memory.
const queued = 256

// fileJob is one file's search: its matches and then its result flow
// through results, which is closed at the end.
type fileJob struct {
	name    string
	file    int      // its place in the files
	copies  *copies  // the first pass's findings, with Options.Copies
	results chan any // Match, then one FileResult
}

// Run searches files with workers goroutines (GOMAXPROCS when workers < 1)
// and hands their results to out in file order. Memory is bounded: a
// worker ahead of the output waits once its file has queued matches. An
// error from out stops the search and is returned; a file that cannot be
// read is reported in its FileResult, and the search goes on.
func Run(ctx context.Context, m *Matcher, opts Options, files []string, workers int, out Output) error {
	if workers < 1 {
		workers = runtime.GOMAXPROCS(0)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var c *copies
	if opts.Copies && len(files) > 1 {
		c = scanCopies(ctx, m, opts, files, workers)
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	jobs := make(chan *fileJob)
	order := make(chan *fileJob, workers)
	go func() {
		defer close(order)
		for i, f := range files {
			j := &fileJob{name: f, file: i, copies: c, results: make(chan any, queued)}
			select {
			case order <- j:
			case <-ctx.Done():
				return
			}
			select {
			case jobs <- j:
			case <-ctx.Done():
				return
			}
		}
		close(jobs)
	}()
	for w := 0; w < workers; w++ {
		go func() {
			for j := range jobs {
				j.run(ctx, m, &opts)
			}
		}()
	}
	for j := range order {
		if err := deliver(ctx, j, out); err != nil {
			return err
		}
	}
	return ctx.Err()
}

// run searches the job's file, sending its matches and then its result;
// a count the first pass already made is sent as it is.
func (j *fileJob) run(ctx context.Context, m *Matcher, opts *Options) {
	defer close(j.results)
	if n, ok := j.copies.count(j.file, j.name); ok {
		j.results <- FileResult{File: j.name, Count: n}
		return
	}
	s := &fileSearch{m: m, opts: opts, name: j.name, copies: j.copies, file: j.file, emit: func(mt Match) error {
		select {
		case j.results <- mt:
			return nil
		case <-ctx.Done():
			return ctx.Err()
		}
	}}
	if i, ok := j.copies.place(j.name); !ok || i != j.file || !j.copies.shares(i) {
		s.copies = nil // stdin, a file given twice (not in the first pass), or a file that shares no match
	}
	n, err := s.search(ctx)
	select {
	case j.results <- FileResult{File: j.name, Count: n, Err: err}:
	case <-ctx.Done():
	}
}

// deliver hands one job's results to out.
func deliver(ctx context.Context, j *fileJob, out Output) error {
	for r := range j.results {
		var err error
		switch r := r.(type) {
		case Match:
			err = out.Match(r)
		case FileResult:
			err = out.FileDone(r)
		}
		if err != nil {
			return err
		}
	}
	return ctx.Err()
}

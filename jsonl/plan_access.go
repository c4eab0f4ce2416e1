package jsonl

// CheckSelected is Check on the selection at a leaf (Select), for a caller
// that holds one: the path is not walked and kept a second time.
func (c *RequestChecker) CheckSelected(sel *Selection) ([]RequestProblem, error) {
	return c.check(sel)
}

// CheckSelectedAfterCompaction is CheckAfterCompaction on the selection at a
// leaf (Select): the compacted selection shares its path.
func (c *RequestChecker) CheckSelectedAfterCompaction(sel *Selection, firstKept string) ([]RequestProblem, error) {
	after, err := c.ix.compactedOn(sel.Path, firstKept)
	if err != nil {
		return nil, err
	}
	return c.check(after)
}

package exporter

import "strings"

// maxDiffCells bounds the LCS table of lineDiff; larger edits are shown as
// every old line removed and every new line added.
const maxDiffCells = 1 << 20

// lineDiff is a line diff of old → new by longest common subsequence, for
// edit calls whose result recorded no diff.
func lineDiff(old, new string) []diffLine {
	a, b := strings.Split(old, "\n"), strings.Split(new, "\n")
	if len(a)*len(b) > maxDiffCells {
		return append(markLines(a, "del", "-"), markLines(b, "add", "+")...)
	}
	lcs := lcsTable(a, b)
	var out []diffLine
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			out = append(out, diffLine{"ctx", " " + a[i]})
			i, j = i+1, j+1
		case j < len(b) && (i == len(a) || lcs[i][j+1] >= lcs[i+1][j]):
			out = append(out, diffLine{"add", "+" + b[j]})
			j++
		default:
			out = append(out, diffLine{"del", "-" + a[i]})
			i++
		}
	}
	return out
}

// lcsTable holds, at [i][j], the LCS length of a[i:] and b[j:].
func lcsTable(a, b []string) [][]int {
	t := make([][]int, len(a)+1)
	for i := range t {
		t[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				t[i][j] = t[i+1][j+1] + 1
			} else {
				t[i][j] = max(t[i+1][j], t[i][j+1])
			}
		}
	}
	return t
}

func markLines(lines []string, class, prefix string) []diffLine {
	out := make([]diffLine, len(lines))
	for i, l := range lines {
		out[i] = diffLine{class, prefix + l}
	}
	return out
}

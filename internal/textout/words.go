package textout

import (
	"strconv"
	"strings"
	"time"
)

// irregular are the plurals the rules in Plural do not make.
var irregular = map[string]string{"leaf": "leaves", "child": "children"}

// Plural is the plural of an English noun: file → files, leaf → leaves,
// entry → entries, match → matches.
func Plural(noun string) string {
	if p, ok := irregular[noun]; ok {
		return p
	}
	switch {
	case strings.HasSuffix(noun, "y") && len(noun) > 1 && !strings.ContainsRune("aeiou", rune(noun[len(noun)-2])):
		return noun[:len(noun)-1] + "ies"
	case strings.HasSuffix(noun, "s"), strings.HasSuffix(noun, "x"), strings.HasSuffix(noun, "ch"), strings.HasSuffix(noun, "sh"):
		return noun + "es"
	}
	return noun + "s"
}

// Count is n and the noun, plural unless n is 1, n with separators:
// "1 file", "2 files", "1,204 leaves".
func Count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return Int(int64(n)) + " " + Plural(noun)
}

// Article is word after "a" or "an": "an assistant", "an entry", "a
// user" (a word starting with u is taken as spoken "you").
func Article(word string) string {
	if word != "" && strings.ContainsRune("aeioAEIO", rune(word[0])) {
		return "an " + word
	}
	return "a " + word
}

// Age is how long before now t was, in the words of Pi's /resume list
// (formatSessionDate in Pi 1.6.0's session selector): "now" under a
// minute, then minutes, hours, days, weeks, months of 30 days and years of
// 365 days, each rounded down: 5m, 3h, 6d, 2w, 1mo, 1y.
func Age(t, now time.Time) string {
	ms := now.Sub(t).Milliseconds()
	mins, hours, days := floorDiv(ms, 60000), floorDiv(ms, 3600000), floorDiv(ms, 86400000)
	switch {
	case mins < 1:
		return "now"
	case mins < 60:
		return itoa(mins) + "m"
	case hours < 24:
		return itoa(hours) + "h"
	case days < 7:
		return itoa(days) + "d"
	case days < 30:
		return itoa(days/7) + "w"
	case days < 365:
		return itoa(days/30) + "mo"
	}
	return itoa(days/365) + "y"
}

// floorDiv is a/b rounded down, as JavaScript's Math.floor(a / b).
func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// Choose is one when n is 1, else many: the verb or phrase that agrees with
// a count ("is"/"are", "it was"/"they were").
func Choose(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

package workspace

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Preview bounds.
const (
	previewLines = 40
	previewBytes = 4 << 10
)

// preview renders a short unified-diff-style view of a change: one hunk
// from the first to the last differing line, at most previewLines lines
// and previewBytes bytes. It is for a dry run's reader, not for patch(1):
// the common prefix and suffix are found in linear time instead of a
// minimal diff, which is what a tool's edit (a few adjacent lines) needs.
func preview(before, after []byte) string {
	if isBinary(before) || isBinary(after) {
		return fmt.Sprintf("binary file: %d bytes -> %d bytes", len(before), len(after))
	}
	a, b := splitLines(before), splitLines(after)
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	del, add := a[pre:len(a)-suf], b[pre:len(b)-suf]
	var out strings.Builder
	fmt.Fprintf(&out, "@@ -%d,%d +%d,%d @@\n", pre+1, len(del), pre+1, len(add))
	lines := 0
	emit := func(prefix string, ls []string) bool {
		for _, l := range ls {
			if lines >= previewLines || out.Len()+len(l) > previewBytes {
				return false
			}
			out.WriteString(prefix)
			out.WriteString(l)
			out.WriteByte('\n')
			lines++
		}
		return true
	}
	if !emit("-", del) || !emit("+", add) {
		fmt.Fprintf(&out, "… (%d lines removed, %d added in all)\n", len(del), len(add))
	}
	return out.String()
}

func splitLines(b []byte) []string {
	if len(b) == 0 {
		return nil
	}
	s := strings.TrimSuffix(string(b), "\n")
	return strings.Split(s, "\n")
}

func isBinary(b []byte) bool {
	head := b
	if len(head) > 8000 {
		head = head[:8000]
	}
	return bytes.IndexByte(head, 0) >= 0 || !utf8.Valid(head)
}

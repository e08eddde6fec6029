package workspace

import (
	"path/filepath"
	"strings"
	"testing"
)

// FuzzClean checks the path rule every workspace call starts with: an
// accepted path is a res:// path whose relative part is local (no "..",
// not absolute, no backslash or NUL) and cleaning it again changes nothing.
//
//	go test -fuzz FuzzClean -fuzztime 1m ./workspace/
func FuzzClean(f *testing.F) {
	for _, s := range []string{"res://a/b.tscn", "a/../b", "../x", "/etc/passwd", "res://", "", "user://x",
		"res://a//b/./c", "a\\b", "res://..", "res:///abs", "x/", "res://a/b/../../..", "\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, arg string) {
		res, rel, err := clean(arg)
		if err != nil {
			return
		}
		if !strings.HasPrefix(res, "res://") || res != "res://"+rel {
			t.Fatalf("clean(%q) = %q, %q", arg, res, rel)
		}
		if rel == "" {
			return
		}
		if !filepath.IsLocal(filepath.FromSlash(rel)) || strings.ContainsAny(rel, "\\\x00") || strings.HasPrefix(rel, "/") {
			t.Fatalf("clean(%q) accepted %q, which is not local", arg, rel)
		}
		for _, part := range strings.Split(rel, "/") {
			if part == ".." || part == "." || part == "" {
				t.Fatalf("clean(%q) = %q keeps a %q element", arg, rel, part)
			}
		}
		res2, rel2, err := clean(res)
		if err != nil || res2 != res || rel2 != rel {
			t.Fatalf("clean is not idempotent on %q: %q %q %v", res, res2, rel2, err)
		}
	})
}

package deps

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Files over the index's size limit are not read: they are summarised as
// skipped, with a TOO_LARGE finding, and listed by Graph.Skipped; a file
// within the limit is parsed as before, and raising the limit reads it.
func TestOversizedFilesAreNotRead(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, body string) {
		if err := os.WriteFile(filepath.Join(dir, rel), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("project.godot", "config_version=5\n")
	write("small.tscn", "[gd_scene format=3]\n\n[node name=\"S\" type=\"Node\"]\n")
	write("big.tscn", "[gd_scene format=3]\n\n[node name=\"B\" type=\"Node\"]\n"+strings.Repeat("; padding\n", 300))
	write("big.gd", "extends Node\n"+strings.Repeat("# padding\n", 300))
	ix := New(dir)
	ix.SetMaxFileSize(2 << 10)
	g, err := ix.Graph(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if st := ix.LastStats(); st.Read != 2 || st.Parsed != 2 { // project.godot and small.tscn
		t.Fatalf("stats %+v: the big files were read", st)
	}
	skipped := g.Skipped()
	if len(skipped) != 2 || skipped[0].File != "res://big.gd" || skipped[1].File != "res://big.tscn" {
		t.Fatalf("skipped %+v", skipped)
	}
	want := "skipped: res://big.tscn is 3.0 KB, over the 2 KB limit for analysis; "
	if f := skipped[1]; f.Code != CodeTooLarge || f.Severity != SeverityWarning || !strings.HasPrefix(f.Message, want) || f.Hint == "" {
		t.Fatalf("finding %+v", f)
	}
	if fi := g.File("res://big.tscn"); !fi.Skipped || len(fi.Nodes) != 0 || fi.Version != "" {
		t.Fatalf("big.tscn %+v", fi)
	}
	ix.SetMaxFileSize(0) // the default: both fit
	if g, err = ix.Graph(context.Background()); err != nil {
		t.Fatal(err)
	}
	if len(g.Skipped()) != 0 || g.File("res://big.tscn").Skipped || len(g.File("res://big.tscn").Nodes) != 1 {
		t.Fatalf("after raising the limit: skipped %+v, big.tscn %+v", g.Skipped(), g.File("res://big.tscn"))
	}
}

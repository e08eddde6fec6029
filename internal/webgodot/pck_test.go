package webgodot

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/internal/testenv"
)

func TestBuildReadRoundTrip(t *testing.T) {
	files := []PackFile{
		{Path: "project.godot", Data: []byte("config_version=5\n")},
		{Path: "res://a/b/c.tscn", Data: []byte("[gd_scene format=3]\n")},
		{Path: "x", Data: nil},                                // empty file
		{Path: "abcde.gd", Data: bytes.Repeat([]byte{7}, 17)}, // path and data both need padding
	}
	pck, err := BuildPCK(EngineVersion{4, 6, 0}, files)
	if err != nil {
		t.Fatal(err)
	}
	if len(pck)%4 != 0 || !bytes.HasPrefix(pck, []byte("GDPC")) {
		t.Fatalf("bad pack start or length %d", len(pck))
	}
	v, got, err := ReadPCK(pck)
	if err != nil {
		t.Fatal(err)
	}
	if v != (EngineVersion{4, 6, 0}) {
		t.Errorf("version %v", v)
	}
	var names []string
	for _, f := range got {
		names = append(names, f.Path)
	}
	if want := []string{"a/b/c.tscn", "abcde.gd", "project.godot", "x"}; !slices.Equal(names, want) {
		t.Errorf("directory %v, want sorted %v", names, want)
	}
	for _, f := range files {
		i := slices.Index(names, strings.TrimPrefix(f.Path, "res://"))
		if !bytes.Equal(got[i].Data, f.Data) {
			t.Errorf("%s: data %q, want %q", f.Path, got[i].Data, f.Data)
		}
	}
}

func TestBuildRefuses(t *testing.T) {
	for _, tt := range []struct {
		files []PackFile
		want  string
	}{
		{[]PackFile{{Path: ""}}, "relative resource path"},
		{[]PackFile{{Path: "/etc/passwd"}}, "relative resource path"},
		{[]PackFile{{Path: "a/../b"}}, `".."`},
		{[]PackFile{{Path: "a//b"}}, "empty"},
		{[]PackFile{{Path: `a\b`}}, "relative resource path"},
		{[]PackFile{{Path: "a"}, {Path: "res://a"}}, "listed twice"},
	} {
		if _, err := BuildPCK(RuntimeVersion, tt.files); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("BuildPCK(%v) = %v, want an error containing %q", tt.files, err, tt.want)
		}
	}
}

func TestReadRefuses(t *testing.T) {
	good, err := BuildPCK(RuntimeVersion, []PackFile{{Path: "a", Data: []byte("hello")}})
	if err != nil {
		t.Fatal(err)
	}
	corrupt := func(at int, b byte) []byte {
		c := slices.Clone(good)
		c[at] = b
		return c
	}
	for name, in := range map[string][]byte{
		"empty":          nil,
		"not a pack":     []byte(strings.Repeat("x", 200)),
		"format 2":       corrupt(4, 2),
		"encrypted":      corrupt(20, 3),
		"dir past end":   corrupt(39, 0x7f),
		"truncated":      good[:len(good)-10],
		"file past end":  corrupt(len(good)-4-16-8-8+6, 0x7f), // high byte of the entry's offset
		"huge path size": corrupt(len(good)-4-16-8-8-4-3, 0x7f),
	} {
		if _, _, err := ReadPCK(in); err == nil {
			t.Errorf("%s: ReadPCK succeeded", name)
		}
	}
}

// TestReproducesShippedPack rebuilds the pack shipped with the engine
// from its own files, in its data order, and must get the same bytes:
// the strongest evidence that BuildPCK writes what Godot's exporter
// writes.
func TestReproducesShippedPack(t *testing.T) {
	dir := filepath.Join(testenv.RequireNodePackage(t, RuntimePackage), "godot")
	shipped, err := os.ReadFile(filepath.Join(dir, "index.pck"))
	if err != nil {
		t.Fatal(err)
	}
	v, files, err := ReadPCK(shipped)
	if err != nil {
		t.Fatal(err)
	}
	if v != RuntimeVersion {
		t.Errorf("shipped pack is for %v, RuntimeVersion is %v", v, RuntimeVersion)
	}
	// The exporter wrote the data in its own order; the offsets say which.
	base := func(f PackFile) int {
		return int(uintptrOf(shipped, f.Data))
	}
	slices.SortFunc(files, func(a, b PackFile) int { return base(a) - base(b) })
	rebuilt, err := BuildPCK(v, files)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(rebuilt, shipped) {
		n := 0
		for n < min(len(rebuilt), len(shipped)) && rebuilt[n] == shipped[n] {
			n++
		}
		t.Fatalf("rebuilt pack differs from index.pck at byte %d (lengths %d and %d)", n, len(rebuilt), len(shipped))
	}
}

// uintptrOf returns the offset of sub within buf (sub is a slice of buf).
func uintptrOf(buf, sub []byte) int {
	if len(sub) == 0 {
		return len(buf)
	}
	for i := range buf {
		if &buf[i] == &sub[0] {
			return i
		}
	}
	return -1
}

func FuzzReadPCK(f *testing.F) {
	good, _ := BuildPCK(RuntimeVersion, []PackFile{{Path: "project.godot", Data: []byte("x=1\n")}, {Path: "a/b.tscn"}})
	f.Add(good)
	f.Add([]byte("GDPC"))
	f.Fuzz(func(t *testing.T, b []byte) {
		v, files, err := ReadPCK(b)
		if err != nil {
			return
		}
		// What reads must rebuild and read back the same.
		again, err := BuildPCK(v, files)
		if err != nil {
			return // a path the builder refuses (".." etc.)
		}
		_, files2, err := ReadPCK(again)
		if err != nil || len(files2) != len(files) {
			t.Fatalf("rebuilt pack does not read back: %v", err)
		}
	})
}

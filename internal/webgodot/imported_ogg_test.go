package webgodot

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/godot-mcp/godot-mcp/internal/testenv"
)

// An Ogg Vorbis file that no editor imported loads from the game pack of
// a project without .godot/: one with the demo's .import file (loop on,
// bar_beats changed here) and one with none (the defaults), each an
// AudioStreamOggVorbis whose pages, packets, granule positions, rate and
// comment tags are those of the engine's own
// AudioStreamOggVorbis.load_from_buffer of the same bytes (what the
// editor's importer saves), of the same length.
func TestImportedOggLoads(t *testing.T) {
	requireSetup(t)
	fixtures := filepath.Join(testenv.RepoRoot(), "..", "shared", "fixtures", "projects")
	music, err := os.ReadFile(filepath.Join(fixtures, "2d-platformer", "music.ogg"))
	if err != nil {
		testenv.Missing(t, "the demo projects fixture ("+fixtures+")", err.Error())
	}
	imp, err := os.ReadFile(filepath.Join(fixtures, "2d-platformer", "music.ogg.import"))
	if err != nil {
		t.Fatal(err)
	}
	imp = []byte(strings.Replace(string(imp), "bar_beats=4", "bar_beats=3", 1))
	house, err := os.ReadFile(filepath.Join(fixtures, "2d-dodge_the_creeps", "art", "House In a Forest Loop.ogg"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	files := ScriptProject(`extends Node
func _ready():
	for p in ["res://music.ogg", "res://art/House In a Forest Loop.ogg"]:
		var s: AudioStreamOggVorbis = load(p)
		var e := AudioStreamOggVorbis.load_from_buffer(FileAccess.get_file_as_bytes(p))
		var a := s.packet_sequence
		var b := e.packet_sequence
		var same: bool = a.packet_data == b.packet_data and a.granule_positions == b.granule_positions and a.sampling_rate == b.sampling_rate and s.tags == e.tags and s.tags.size() > 0
		print("OGG %s|%s|%f|%f|%s|%d|%s|%d" % [p, s.get_class(), s.get_length(), e.get_length(), same, a.granule_positions.size(), s.loop, s.bar_beats])
	get_tree().quit()
`)
	files = append(files,
		PackFile{Path: "music.ogg", Data: music},
		PackFile{Path: "music.ogg.import", Data: imp},
		PackFile{Path: "art/House In a Forest Loop.ogg", Data: house})
	for _, f := range files {
		if strings.HasPrefix(f.Path, ".godot/") {
			continue // a project no editor opened
		}
		p := filepath.Join(dir, filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	pack, err := ReadGameFiles(dir, "")
	if err != nil {
		t.Fatal(err)
	}
	var made []string
	for _, f := range pack {
		if strings.HasPrefix(f.Path, ".godot/imported/") {
			made = append(made, f.Path)
		}
	}
	if len(made) != 2 {
		t.Fatalf("imported files in the pack: %v, want one per Ogg file", made)
	}
	if _, err := os.Stat(filepath.Join(dir, ".godot")); !os.IsNotExist(err) {
		t.Fatalf("the project got a .godot folder: %v", err)
	}
	res := runFiles(t, pack, 3*time.Minute)
	got := map[string][]string{}
	for _, l := range res.Stdout() {
		if rest, ok := strings.CutPrefix(l, "OGG "); ok {
			f := strings.Split(rest, "|")
			got[f[0]] = f[1:]
		}
	}
	for p, want := range map[string][]string{
		// The demo's .import file has loop=true; bar_beats=3 is ours.
		"res://music.ogg": {"AudioStreamOggVorbis", "true", "true", "3"},
		// No .import file: the importer's defaults.
		"res://art/House In a Forest Loop.ogg": {"AudioStreamOggVorbis", "true", "false", "4"},
	} {
		g := got[p]
		if len(g) != 7 {
			t.Errorf("%s: the engine printed %q\nstderr %q", p, g, res.Stderr())
			continue
		}
		ours, _ := strconv.ParseFloat(g[1], 64)
		engine, _ := strconv.ParseFloat(g[2], 64)
		t.Logf("%s: length %.3f s (the engine's own load: %.3f s), %s pages", p, ours, engine, g[4])
		if engine <= 0 || ours < engine*0.99 || ours > engine*1.01 {
			t.Errorf("%s: length %v, the engine's own load of the bytes %v", p, ours, engine)
		}
		if g[0] != want[0] || g[3] != want[1] || g[5] != want[2] || g[6] != want[3] {
			t.Errorf("%s: class, same split, loop, bar_beats = %s %s %s %s, want %s", p, g[0], g[3], g[5], g[6], strings.Join(want, " "))
		}
	}
	if strings.Contains(strings.Join(res.Stderr(), "\n"), "ERROR") {
		t.Errorf("the engine reported errors: %q", res.Stderr())
	}
}

// A file that is not Ogg Vorbis is left out of the pack (the game's load
// of it fails) and the others are still made; one whose .import file
// names imported files the project has is left as it is.
func TestImportedOggBadFile(t *testing.T) {
	music, err := os.ReadFile(filepath.Join(testenv.RepoRoot(), "..", "shared", "fixtures", "projects", "2d-platformer", "music.ogg"))
	if err != nil {
		testenv.Missing(t, "the demo projects fixture", err.Error())
	}
	have := map[string][]byte{
		"bad.ogg":      []byte("OggS but nothing else"),
		"riff.ogg":     []byte("RIFF....WAVE"),
		"music.ogg":    music,
		"imported.ogg": music,
		"imported.ogg.import": []byte(`[remap]

importer="oggvorbisstr"
type="AudioStreamOggVorbis"
path="res://.godot/imported/imported.ogg-0123.oggvorbisstr"

[deps]

source_file="res://imported.ogg"
dest_files=["res://.godot/imported/imported.ogg-0123.oggvorbisstr"]
`),
		".godot/imported/imported.ogg-0123.oggvorbisstr": []byte("RSRC"),
	}
	made := importedFiles([]string{"bad.ogg", "riff.ogg", "music.ogg", "imported.ogg"}, have)
	var paths []string
	for _, f := range made {
		paths = append(paths, f.Path)
	}
	if len(made) != 2 || made[0].Path != "music.ogg.import" || !strings.HasPrefix(made[1].Path, ".godot/imported/music.ogg-") || !strings.HasSuffix(made[1].Path, ".tres") {
		t.Fatalf("made %v, want music.ogg's .import and .tres only", paths)
	}
	for _, want := range []string{`importer="oggvorbisstr"`, `type="AudioStreamOggVorbis"`, `path="res://` + made[1].Path + `"`} {
		if !strings.Contains(string(made[0].Data), want) {
			t.Errorf("the .import file lacks %s:\n%s", want, made[0].Data)
		}
	}
}

package scaffold

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk/godot"
)

const header = `; Engine configuration file.
; It's best edited using the editor UI and not directly,
; since the parameters that go here are not all obvious.
;
; Format:
;   [section] ; section goes between []
;   param=value ; assign values to parameters

config_version=5

[application]

`

// fixed is a deterministic UID source.
func fixed() *bytes.Reader { return bytes.NewReader(bytes.Repeat([]byte{1, 2, 3, 4, 5, 6, 7, 8}, 8)) }

func TestProjectGodotText(t *testing.T) {
	tests := []struct {
		name string
		opts Options
		want string
	}{
		{"empty forward plus newest", Options{Name: "Game"}, `config/name="Game"
config/features=PackedStringArray("4.7", "Forward Plus")
config/icon="res://icon.svg"
`},
		{"mobile 4.2 with main scene by path", Options{Name: "Game", Godot: "4.2", Renderer: "Mobile", Template: "2d"}, `config/name="Game"
run/main_scene="res://scenes/main.tscn"
config/features=PackedStringArray("4.2", "Mobile")
config/icon="res://icon.svg"

[rendering]

renderer/rendering_method="mobile"
`},
		{"compatibility 4.4 with main scene by uid", Options{Name: "Game", Godot: "4.4.1", Renderer: "Compatibility", Template: "ui"}, `config/name="Game"
run/main_scene="uid://iig1wxvoj3lt"
config/features=PackedStringArray("4.4", "GL Compatibility")
config/icon="res://icon.svg"

[rendering]

renderer/rendering_method="gl_compatibility"
renderer/rendering_method.mobile="gl_compatibility"
`},
		{"forward+ alias 4.0 3d, quoted name", Options{Name: `My "Game"`, Godot: "4.0", Renderer: "Forward+", Template: "3D"}, `config/name="My \"Game\""
run/main_scene="res://scenes/main.tscn"
config/features=PackedStringArray("4.0", "Forward Plus")
config/icon="res://icon.svg"
`},
		{"default name", Options{}, `config/name="New Game Project"
config/features=PackedStringArray("4.7", "Forward Plus")
config/icon="res://icon.svg"
`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.opts.Rand = fixed()
			p, err := New(tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			got := string(file(t, p, "res://project.godot"))
			if got != header+tt.want {
				t.Errorf("project.godot:\n%s\nwant:\n%s", got, header+tt.want)
			}
			proj, err := godot.ParseProject("project.godot", []byte(got))
			if err != nil {
				t.Fatal(err)
			}
			if proj.GodotVersion() != p.Godot {
				t.Errorf("GodotVersion() = %q, want %q", proj.GodotVersion(), p.Godot)
			}
			if p.Files[len(p.Files)-1].Path != "res://project.godot" {
				t.Errorf("project.godot is not written last: %v", p.Paths())
			}
		})
	}
}

func file(t *testing.T, p *Project, path string) []byte {
	t.Helper()
	for _, f := range p.Files {
		if f.Path == path {
			return f.Data
		}
	}
	t.Fatalf("no %s in %v", path, p.Paths())
	return nil
}

// TestTemplates checks every template on every version: the files, the
// scene's nodes and header as that version writes them, and the script's
// .uid sidecar from 4.4 on.
func TestTemplates(t *testing.T) {
	nodes := map[string][]string{
		TwoD:   {"Node2D", "Camera2D"},
		ThreeD: {"Node3D", "Camera3D", "DirectionalLight3D", "WorldEnvironment"},
		UI:     {"Control"},
	}
	for _, v := range Versions {
		for _, tpl := range Templates {
			t.Run(v+"/"+tpl, func(t *testing.T) {
				p, err := New(Options{Godot: v, Template: tpl, Rand: fixed()})
				if err != nil {
					t.Fatal(err)
				}
				want := []string{"res://icon.svg", "res://.gitignore", "res://.gitattributes"}
				if tpl != Empty {
					want = append(want, MainScript)
					if minor(v) >= 4 {
						want = append(want, MainScript+".uid")
					}
					want = append(want, MainScene)
				}
				want = append(want, "res://project.godot")
				if !slices.Equal(p.Paths(), want) {
					t.Fatalf("files %v, want %v", p.Paths(), want)
				}
				if tpl == Empty {
					return
				}
				data := file(t, p, MainScene)
				f, err := godot.ParseFile("main.tscn", data)
				if err != nil {
					t.Fatalf("%v\n%s", err, data)
				}
				if f.UID() != p.MainSceneUID || !strings.HasPrefix(f.UID(), "uid://") {
					t.Errorf("scene uid %q, project main scene uid %q", f.UID(), p.MainSceneUID)
				}
				var types []string
				for _, n := range f.Nodes() {
					types = append(types, n.Type())
				}
				if !slices.Equal(types, nodes[tpl]) {
					t.Errorf("node types %v, want %v", types, nodes[tpl])
				}
				_, unique := f.Root().UniqueID()
				if unique != (minor(v) >= 6) {
					t.Errorf("root has unique_id: %v, want it from 4.6 on", unique)
				}
				if steps := f.LoadSteps(); (steps > 0) != (minor(v) < 6) {
					t.Errorf("load_steps=%d; Godot writes it before 4.6 only", steps)
				}
				if !bytes.Equal(f.Bytes(), data) {
					t.Errorf("the scene does not round-trip:\n%s", data)
				}
				ext := f.ExtResourceByPath(MainScript)
				if ext == nil {
					t.Fatalf("the scene has no script ext_resource:\n%s", data)
				}
				if minor(v) >= 4 {
					sidecar := strings.TrimSpace(string(file(t, p, MainScript+".uid")))
					if got := ext.UID(); got != sidecar {
						t.Errorf("ext_resource uid %v, sidecar %q", got, sidecar)
					}
				} else if ext.UID() != "" {
					t.Errorf("scripts have no UIDs before 4.4:\n%s", data)
				}
			})
		}
	}
}

func TestInvalidOptions(t *testing.T) {
	for _, o := range []Options{
		{Godot: "3.5"}, {Godot: "4.8"}, {Renderer: "vulkan"}, {Template: "platformer"}, {Name: "a\nb"},
	} {
		if _, err := New(o); !errors.Is(err, ErrInvalid) {
			t.Errorf("New(%+v) = %v, want ErrInvalid", o, err)
		}
	}
}

func TestVCSFiles(t *testing.T) {
	p, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := string(file(t, p, "res://.gitignore")); !strings.Contains(got, ".godot/\n") || !strings.Contains(got, "/android/\n") {
		t.Errorf(".gitignore = %q", got)
	}
	if got := string(file(t, p, "res://.gitattributes")); !strings.Contains(got, "* text=auto eol=lf\n") {
		t.Errorf(".gitattributes = %q", got)
	}
	if got := string(file(t, p, "res://icon.svg")); !strings.Contains(got, `width="128" height="128"`) {
		t.Errorf("icon.svg is not 128x128: %s", got)
	}
}

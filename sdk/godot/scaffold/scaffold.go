// Package scaffold builds the files of a new Godot 4 project the way the
// editor's project manager writes them: project.godot for a chosen Godot
// version and renderer, an icon, the editor's .gitignore and
// .gitattributes, and a main scene (with its script) from a template.
//
// It only builds bytes; callers write them (the project_scaffold toolset
// through the host's workspace, `godot-mcp new` to disk), so both share
// exactly one definition of a new project.
package scaffold

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/uid"
)

// Versions are the Godot versions a project can be scaffolded for, oldest
// first; the last is the default.
var Versions = []string{"4.0", "4.1", "4.2", "4.3", "4.4", "4.5", "4.6", "4.7"}

// Newest is the default Godot version.
var Newest = Versions[len(Versions)-1]

// Renderers, by the value project.godot stores in
// rendering/renderer/rendering_method.
const (
	ForwardPlus   = "forward_plus"
	Mobile        = "mobile"
	Compatibility = "gl_compatibility"
)

// Renderers lists the renderer names New accepts, canonical first.
var Renderers = []string{ForwardPlus, Mobile, Compatibility}

// Templates of the main scene.
const (
	Empty  = "empty" // no main scene
	TwoD   = "2d"    // Node2D + Camera2D
	ThreeD = "3d"    // Node3D + Camera3D + DirectionalLight3D + WorldEnvironment
	UI     = "ui"    // a full-rect Control
)

// Templates lists the template names, the default first.
var Templates = []string{Empty, TwoD, ThreeD, UI}

// ErrInvalid marks an option New cannot use; the message says which values
// it takes.
var ErrInvalid = errors.New("invalid scaffold option")

// DefaultName is the project name when none is given, as in the editor.
const DefaultName = "New Game Project"

// Main scene and script paths of the templates.
const (
	MainScene  = "res://scenes/main.tscn"
	MainScript = "res://scripts/main.gd"
)

// Options choose what New builds. The zero value is an empty project for
// the newest Godot with Forward+.
type Options struct {
	Name     string // config/name; DefaultName when empty
	Godot    string // "4.0" … "4.7"; Newest when empty
	Renderer string // ForwardPlus (default), Mobile, Compatibility or an alias ("Forward+", "compatibility")
	Template string // Empty (default), TwoD, ThreeD or UI
	// SceneName names the main scene and its script, res://scenes/NAME.tscn
	// and res://scripts/NAME.gd, and (unless it is "main") its root node;
	// "main" when empty.
	SceneName string
	Rand      io.Reader // UID source; crypto/rand when nil (tests pass a fixed one)
}

// File is one file of the new project.
type File struct {
	Path string // res:// path
	Data []byte
}

// Project is what New builds.
type Project struct {
	Name, Godot, Renderer, Template string
	// MainScene is the res:// path of the main scene, "" for Empty.
	MainScene string
	// MainSceneUID is its uid:// ("" for Empty).
	MainSceneUID string
	// Files in the order they should be written (project.godot last, so a
	// partial write never looks like a finished project).
	Files []File
}

// Paths returns the res:// paths of the files.
func (p *Project) Paths() []string {
	out := make([]string, len(p.Files))
	for i, f := range p.Files {
		out[i] = f.Path
	}
	return out
}

// NormalizeRenderer maps a renderer name or alias to its canonical value.
func NormalizeRenderer(s string) (string, error) {
	k := strings.ToLower(strings.TrimSpace(s))
	k = strings.NewReplacer(" ", "_", "-", "_").Replace(k)
	switch k {
	case "", "forward_plus", "forward+", "forwardplus", "forward":
		return ForwardPlus, nil
	case "mobile":
		return Mobile, nil
	case "gl_compatibility", "compatibility", "gl", "opengl", "gl_compat", "compat":
		return Compatibility, nil
	}
	return "", fmt.Errorf("%w: renderer %q: use forward_plus (Forward+), mobile or gl_compatibility (Compatibility)", ErrInvalid, s)
}

// NormalizeTemplate maps a template name (any case, "2D", "three_d" is not
// accepted) to its canonical value.
func NormalizeTemplate(s string) (string, error) {
	k := strings.ToLower(strings.TrimSpace(s))
	if k == "" || k == "none" {
		return Empty, nil
	}
	if slices.Contains(Templates, k) {
		return k, nil
	}
	return "", fmt.Errorf("%w: template %q: use one of %s", ErrInvalid, s, strings.Join(Templates, ", "))
}

// NormalizeVersion maps "4.4", "4.4.1" or "v4.4" to "4.4", refusing
// versions outside Versions.
func NormalizeVersion(s string) (string, error) {
	k := strings.TrimPrefix(strings.TrimSpace(s), "v")
	if k == "" {
		return Newest, nil
	}
	if parts := strings.Split(k, "."); len(parts) > 2 {
		k = parts[0] + "." + parts[1]
	}
	if slices.Contains(Versions, k) {
		return k, nil
	}
	return "", fmt.Errorf("%w: Godot version %q: use one of %s", ErrInvalid, s, strings.Join(Versions, ", "))
}

// minor returns the minor version of a normalized "4.x".
func minor(v string) int { return int(v[2] - '0') }

// New builds the files of a new project.
func New(o Options) (*Project, error) {
	ver, err := NormalizeVersion(o.Godot)
	if err != nil {
		return nil, err
	}
	ren, err := NormalizeRenderer(o.Renderer)
	if err != nil {
		return nil, err
	}
	tpl, err := NormalizeTemplate(o.Template)
	if err != nil {
		return nil, err
	}
	name := strings.TrimSpace(o.Name)
	if name == "" {
		name = DefaultName
	}
	if strings.ContainsAny(name, "\n\r") {
		return nil, fmt.Errorf("%w: project name %q: use a single line", ErrInvalid, name)
	}
	r := o.Rand
	if r == nil {
		r = rand.Reader
	}
	p := &Project{Name: name, Godot: ver, Renderer: ren, Template: tpl}
	p.Files = append(p.Files,
		File{"res://icon.svg", []byte(IconSVG)},
		File{"res://.gitignore", []byte(GitIgnore)},
		File{"res://.gitattributes", []byte(GitAttributes)},
	)
	if tpl != Empty {
		sc, err := newSceneNames(o.SceneName)
		if err != nil {
			return nil, err
		}
		files, sceneUID, err := mainScene(tpl, ver, sc, r)
		if err != nil {
			return nil, err
		}
		p.Files = append(p.Files, files...)
		p.MainScene, p.MainSceneUID = sc.scene, sceneUID
	}
	p.Files = append(p.Files, File{"res://project.godot", ProjectGodot(name, ver, ren, p.MainScene, p.MainSceneUID)})
	return p, nil
}

// ProjectGodot returns project.godot as the editor's project manager writes
// it for a new project (plus run/main_scene when mainScene is set: as its
// uid:// from 4.4 on, as the res:// path before).
func ProjectGodot(name, version, renderer, mainScene, mainUID string) []byte {
	feature := map[string]string{ForwardPlus: "Forward Plus", Mobile: "Mobile", Compatibility: "GL Compatibility"}[renderer]
	var b strings.Builder
	b.WriteString(`; Engine configuration file.
; It's best edited using the editor UI and not directly,
; since the parameters that go here are not all obvious.
;
; Format:
;   [section] ; section goes between []
;   param=value ; assign values to parameters

config_version=5

[application]

`)
	fmt.Fprintf(&b, "config/name=%s\n", godot.FormatValue(godot.String(name)))
	if mainScene != "" {
		main := mainScene
		if minor(version) >= 4 && mainUID != "" {
			main = mainUID
		}
		fmt.Fprintf(&b, "run/main_scene=%s\n", godot.FormatValue(godot.String(main)))
	}
	fmt.Fprintf(&b, "config/features=PackedStringArray(%q, %q)\n", version, feature)
	b.WriteString("config/icon=\"res://icon.svg\"\n")
	switch renderer {
	case Mobile:
		b.WriteString("\n[rendering]\n\nrenderer/rendering_method=\"mobile\"\n")
	case Compatibility:
		b.WriteString("\n[rendering]\n\nrenderer/rendering_method=\"gl_compatibility\"\nrenderer/rendering_method.mobile=\"gl_compatibility\"\n")
	}
	return []byte(b.String())
}

// GitIgnore and GitAttributes are the files the editor writes into a new
// project for version control.
const (
	GitIgnore     = "# Godot 4+ specific ignores\n.godot/\n/android/\n"
	GitAttributes = "# Normalize EOL for all files that Git considers text files.\n* text=auto eol=lf\n"
)

// IconSVG is the project icon: a 128×128 rounded square with a simple
// face, our own drawing.
const IconSVG = `<svg xmlns="http://www.w3.org/2000/svg" width="128" height="128" viewBox="0 0 128 128">
<rect x="4" y="4" width="120" height="120" rx="20" fill="#363d52" stroke="#212532" stroke-width="4"/>
<circle cx="44" cy="56" r="14" fill="#fff"/>
<circle cx="84" cy="56" r="14" fill="#fff"/>
<circle cx="46" cy="58" r="6" fill="#414042"/>
<circle cx="82" cy="58" r="6" fill="#414042"/>
<path d="M40 88 Q64 106 88 88" fill="none" stroke="#478cbf" stroke-width="8" stroke-linecap="round"/>
</svg>
`

// sceneNames are the main scene's file, script and root node names.
type sceneNames struct{ scene, script, root string }

// newSceneNames checks a main scene name ("" for "main"): one file name
// part, no extension.
func newSceneNames(name string) (sceneNames, error) {
	if name == "" || name == "main" {
		return sceneNames{MainScene, MainScript, "Main"}, nil
	}
	if strings.ContainsAny(name, "/\\:.*?\"<>|%@") || strings.TrimSpace(name) != name {
		return sceneNames{}, fmt.Errorf("%w: main scene name %q: use a plain name such as \"level\" (no folders, dots or extension)", ErrInvalid, name)
	}
	return sceneNames{"res://scenes/" + name + ".tscn", "res://scripts/" + name + ".gd", name}, nil
}

// rootTypes are the main scene's root class per template.
var rootTypes = map[string]string{TwoD: "Node2D", ThreeD: "Node3D", UI: "Control"}

// mainScene builds the template's scene and script (and the script's
// .uid sidecar from 4.4 on, when scripts got UIDs).
func mainScene(tpl, version string, sc sceneNames, r io.Reader) ([]File, string, error) {
	sceneID, err := uid.Generate(r)
	if err != nil {
		return nil, "", fmt.Errorf("scaffold: generating a UID: %w", err)
	}
	sceneUID := sceneID.String()
	m := minor(version)
	var f *godot.File
	if m >= 6 {
		f, err = godot.NewScene(sc.scene, sceneUID, true)
	} else {
		// Before 4.6 the header counts the resources in load_steps; Bytes
		// keeps it current (and drops it when there are none).
		f, err = godot.ParseFile(sc.scene, []byte("[gd_scene load_steps=1 format=3 uid="+godot.FormatValue(godot.String(sceneUID))+"]\n"))
	}
	if err != nil {
		return nil, "", err
	}
	root := rootTypes[tpl]
	var files []File
	scriptUID := ""
	if m >= 4 {
		id, err := uid.Generate(r)
		if err != nil {
			return nil, "", fmt.Errorf("scaffold: generating a UID: %w", err)
		}
		scriptUID = id.String()
	}
	script, err := f.AddExtResource("Script", sc.script, scriptUID)
	if err != nil {
		return nil, "", err
	}
	rootNode, err := f.AddNode("", sc.root, root)
	if err != nil {
		return nil, "", err
	}
	set := func(n *godot.Section, key, value string) error {
		v, err := godot.ParseValue([]byte(value))
		if err != nil {
			return fmt.Errorf("scaffold: %s = %s: %w", key, value, err)
		}
		n.Set(key, v)
		return nil
	}
	var errs []error
	switch tpl {
	case TwoD:
		_, err = f.AddNode(".", "Camera2D", "Camera2D")
		errs = append(errs, err)
	case UI:
		for _, kv := range [][2]string{{"layout_mode", "3"}, {"anchors_preset", "15"}, {"anchor_right", "1.0"},
			{"anchor_bottom", "1.0"}, {"grow_horizontal", "2"}, {"grow_vertical", "2"}} {
			errs = append(errs, set(rootNode.Section, kv[0], kv[1]))
		}
	case ThreeD:
		sky, err := f.AddSubResource("ProceduralSkyMaterial")
		errs = append(errs, err)
		if sky != nil {
			errs = append(errs, set(sky.Section, "sky_horizon_color", "Color(0.662243, 0.671743, 0.686743, 1)"),
				set(sky.Section, "ground_horizon_color", "Color(0.662243, 0.671743, 0.686743, 1)"))
		}
		skyRes, err := f.AddSubResource("Sky")
		errs = append(errs, err)
		env, err2 := f.AddSubResource("Environment")
		errs = append(errs, err2)
		if skyRes != nil && env != nil && sky != nil {
			errs = append(errs, set(skyRes.Section, "sky_material", `SubResource("`+sky.ID()+`")`),
				set(env.Section, "background_mode", "2"),
				set(env.Section, "sky", `SubResource("`+skyRes.ID()+`")`),
				set(env.Section, "tonemap_mode", "2"))
		}
		cam, err := f.AddNode(".", "Camera3D", "Camera3D")
		errs = append(errs, err)
		if cam != nil {
			errs = append(errs, set(cam.Section, "transform", "Transform3D(1, 0, 0, 0, 0.965926, 0.258819, 0, -0.258819, 0.965926, 0, 2, 6)"))
		}
		light, err := f.AddNode(".", "DirectionalLight3D", "DirectionalLight3D")
		errs = append(errs, err)
		if light != nil {
			errs = append(errs, set(light.Section, "transform", "Transform3D(-0.866025, -0.433013, 0.25, 0, 0.5, 0.866025, -0.5, 0.75, -0.433013, 0, 0, 0)"),
				set(light.Section, "shadow_enabled", "true"))
		}
		we, err := f.AddNode(".", "WorldEnvironment", "WorldEnvironment")
		errs = append(errs, err)
		if we != nil && env != nil {
			errs = append(errs, set(we.Section, "environment", `SubResource("`+env.ID()+`")`))
		}
	}
	errs = append(errs, set(rootNode.Section, "script", `ExtResource("`+script.ID+`")`))
	if err := errors.Join(errs...); err != nil {
		return nil, "", fmt.Errorf("scaffold: building the %s scene: %w", tpl, err)
	}
	files = append(files, File{sc.script, []byte(ScriptText(root))})
	if scriptUID != "" {
		files = append(files, File{sc.script + ".uid", []byte(scriptUID + "\n")})
	}
	files = append(files, File{sc.scene, f.Bytes()})
	return files, sceneUID, nil
}

// ScriptText is the main scene's script: the editor's default template for
// a node of class base.
func ScriptText(base string) string {
	return "extends " + base + "\n\n\n" +
		"# Called when the node enters the scene tree for the first time.\n" +
		"func _ready() -> void:\n\tpass # Replace with function body.\n\n\n" +
		"# Called every frame. 'delta' is the elapsed time since the previous frame.\n" +
		"func _process(_delta: float) -> void:\n\tpass\n"
}

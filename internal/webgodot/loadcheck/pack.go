package loadcheck

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/godot-mcp/godot-mcp/internal/webgodot"
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/classdb"
)

// Kind says how a file is checked.
type Kind string

// The kinds of checked files; other files go into the pack as data.
const (
	KindScene    Kind = "scene"    // .tscn: load, instantiate, compare with the file
	KindResource Kind = "resource" // .tres: load, look for ignored properties
	KindScript   Kind = "script"   // .gd: compile
	KindProject  Kind = "project"  // project.godot: parse (and the engine starts with it)
)

// KindOf returns how a file is checked, or "" for data files.
func KindOf(p string) Kind {
	switch {
	case path.Base(p) == "project.godot":
		return KindProject
	case strings.HasSuffix(p, ".tscn"):
		return KindScene
	case strings.HasSuffix(p, ".tres"):
		return KindResource
	case strings.HasSuffix(p, ".gd"):
		return KindScript
	}
	return ""
}

// importable lists extensions Godot imports: the editor turns these into
// engine resources under .godot/imported, which a project checkout does
// not have. The check replaces each one a file references with a
// placeholder resource of the declared type.
var importable = map[string]bool{
	".png": true, ".jpg": true, ".jpeg": true, ".svg": true, ".webp": true, ".bmp": true, ".tga": true,
	".hdr": true, ".exr": true, ".ktx": true, ".dds": true,
	".wav": true, ".ogg": true, ".mp3": true,
	".ttf": true, ".otf": true, ".woff": true, ".woff2": true, ".fnt": true, ".font": true,
	".glb": true, ".gltf": true, ".obj": true, ".fbx": true, ".blend": true, ".dae": true,
	".csv": true,
}

// IsImportable reports whether a resource path names a file Godot imports.
func IsImportable(p string) bool { return importable[strings.ToLower(path.Ext(p))] }

// stubResource returns the text of a placeholder resource standing in for
// an imported file whose ext_resource declares type typ.
func stubResource(typ, file string) string {
	switch typ {
	case "Texture2D", "Texture", "CompressedTexture2D", "ImageTexture", "":
		// Large, so that tile atlases find their tiles inside it; a
		// placeholder has no pixels, so the size costs nothing.
		return "[gd_resource type=\"PlaceholderTexture2D\" format=3]\n\n[resource]\nsize = Vector2(8192, 8192)\n"
	case "Texture3D", "CompressedTexture3D":
		return "[gd_resource type=\"PlaceholderTexture3D\" format=3]\n\n[resource]\n"
	case "TextureLayered", "Texture2DArray", "CompressedTexture2DArray":
		return "[gd_resource type=\"PlaceholderTexture2DArray\" format=3]\n\n[resource]\n"
	case "Cubemap", "CompressedCubemap":
		return "[gd_resource type=\"PlaceholderCubemap\" format=3]\n\n[resource]\n"
	case "AudioStream", "AudioStreamOggVorbis", "AudioStreamMP3":
		return "[gd_resource type=\"AudioStreamWAV\" format=3]\n\n[resource]\n"
	case "Font":
		return "[gd_resource type=\"FontFile\" format=3]\n\n[resource]\n"
	case "Mesh":
		return "[gd_resource type=\"PlaceholderMesh\" format=3]\n\n[resource]\n"
	case "Material":
		return "[gd_resource type=\"PlaceholderMaterial\" format=3]\n\n[resource]\n"
	case "PackedScene":
		name := strings.TrimSuffix(path.Base(file), path.Ext(file))
		return fmt.Sprintf("[gd_scene format=3]\n\n[node name=%q type=\"Node3D\"]\n", name)
	}
	if db, err := classdb.Embedded(); err == nil && db.Instantiable(typ) && db.Inherits(typ, "Resource") {
		return fmt.Sprintf("[gd_resource type=%q format=3]\n\n[resource]\n", typ)
	}
	return "[gd_resource type=\"Resource\" format=3]\n\n[resource]\n"
}

// manifest is what check.gd reads.
type manifest struct {
	AllowMissing bool           `json:"allow_missing"`
	Placeholders []string       `json:"placeholders"`
	Files        []manifestFile `json:"files"`
}

type manifestFile struct {
	Path string `json:"path"`
	Kind Kind   `json:"kind"`
	// Subs are the file's [sub_resource] sections and Main the property
	// names of a .tres's [resource] section, for finding properties the
	// engine ignored.
	Subs []manifestSub `json:"subs,omitempty"`
	Main []string      `json:"main,omitempty"`
	// MainKinds are the Variant types of Main's values, as written.
	MainKinds []int `json:"main_kinds,omitempty"`
}

type manifestSub struct {
	ID    string   `json:"id"`
	Type  string   `json:"type"`
	Props []string `json:"props"`
	// Kinds are the Variant types of the values as written (godot.Kind
	// numbers Variant.Type the way the engine does).
	Kinds []int `json:"kinds"`
}

// packPlan is the pack and what the Go side needs to read the results.
type packPlan struct {
	files   []webgodot.PackFile
	checked []manifestFile
	// missing are res:// paths referenced by checked files but absent.
	missing map[string]bool
	// stubbed are imported files replaced by placeholders.
	stubbed []string
	// opaque maps a scene file to the paths of its nodes that instance a
	// scene the check cannot see into (a placeholder for an imported
	// model, or a missing file): nodes and properties under them are not
	// verifiable.
	opaque map[string][]string
	// deps maps a scene or resource file to the res:// paths it references.
	deps map[string][]string
	// unverifiable are res:// paths of present files that did not load
	// because of a missing dependency (filled after the run).
	unverifiable map[string]bool
	// skipped lists the editor-only files left unchecked, with why.
	skipped []Skip
}

// plan builds the pack for files (keys are paths relative to res://).
// With autoloads, the project's autoloads stay as it defines them (a
// check loads them as the game would); without, they are commented out.
func plan(files map[string][]byte, allowMissing, autoloads bool) (*packPlan, error) {
	keepOrStrip := func(src []byte) []byte {
		if autoloads {
			return src
		}
		return webgodot.WithoutAutoloads(src)
	}
	p := &packPlan{missing: map[string]bool{}, opaque: map[string][]string{}, deps: map[string][]string{}, unverifiable: map[string]bool{}}
	names := make([]string, 0, len(files))
	for name := range files {
		name = strings.TrimPrefix(name, "res://")
		if strings.HasPrefix(name, "webgodot/") {
			return nil, &sdk.Error{Code: sdk.CodeInvalidArgument,
				Message: fmt.Sprintf("%s: the webgodot/ folder is reserved for the checker's own files", name),
				Hint:    "rename the folder; the check packs its scene and script under res://webgodot/"}
		}
		names = append(names, name)
	}
	slices.Sort(names)
	have := func(resPath string) bool {
		_, ok := files[strings.TrimPrefix(resPath, "res://")]
		if !ok {
			_, ok = files[resPath]
		}
		return ok
	}
	data := func(name string) []byte {
		if b, ok := files[name]; ok {
			return b
		}
		return files["res://"+name]
	}

	stubs := map[string]string{} // imported path -> declared type
	var classes []webgodot.GlobalClass
	scripts := map[string]scriptInfo{}
	hasProject := false
	var override []byte
	for _, name := range names {
		src := data(name)
		if name == "override.cfg" {
			// The project's own; merged with the checker's below.
			override = keepOrStrip(src)
			continue
		}
		kind := KindOf(name)
		switch kind {
		case KindProject:
			if name != "project.godot" {
				continue // a nested project is not this project's
			}
			hasProject = true
			p.files = append(p.files, webgodot.PackFile{Path: name, Data: keepOrStrip(src)})
			p.checked = append(p.checked, manifestFile{Path: "res://" + name, Kind: kind})
			continue
		case KindScene, KindResource:
			mf := manifestFile{Path: "res://" + name, Kind: kind}
			if f, err := godot.ParseFile(name, src); err == nil {
				for _, sub := range f.SubResources() {
					ms := manifestSub{ID: sub.ID(), Type: sub.Type(), Props: []string{}, Kinds: []int{}}
					for _, pr := range sub.Properties() {
						ms.Props = append(ms.Props, pr.Key)
						ms.Kinds = append(ms.Kinds, int(pr.Value.Kind()))
					}
					mf.Subs = append(mf.Subs, ms)
				}
				for _, n := range f.Nodes() {
					if inst, ok := n.Instance(); ok {
						if e := f.ExtResource(inst.ID); e != nil && (IsImportable(e.Path()) || !have(e.Path())) {
							p.opaque[name] = append(p.opaque[name], strings.TrimPrefix(n.Path(), "./"))
						}
					}
				}
				if main := f.Resource(); main != nil {
					for _, pr := range main.Properties() {
						mf.Main = append(mf.Main, pr.Key)
						mf.MainKinds = append(mf.MainKinds, int(pr.Value.Kind()))
					}
				}
				for _, e := range f.ExtResources() {
					ep := e.Path()
					p.deps[name] = append(p.deps[name], ep)
					switch {
					case ep == "" || !strings.HasPrefix(ep, "res://"):
					case IsImportable(ep):
						if _, ok := stubs[ep]; !ok {
							stubs[ep] = e.Type()
						}
					case !have(ep):
						p.missing[ep] = true
					}
				}
			}
			p.files = append(p.files, webgodot.PackFile{Path: name, Data: src})
			p.checked = append(p.checked, mf)
			continue
		case KindScript:
			if c, ok := webgodot.ScriptClass("res://"+name, src); ok {
				classes = append(classes, c)
			}
			si := readScript(name, src)
			scripts[name] = si
			// Assets a script preloads or loads need their placeholder
			// as much as those a scene declares.
			for _, ref := range si.paths {
				if IsImportable(ref) && !strings.Contains(ref, "://") {
					if _, ok := stubs["res://"+ref]; !ok {
						stubs["res://"+ref] = importedType(ref)
					}
				}
			}
		}
		if IsImportable(name) {
			continue // the source of an import; the stub stands in for it
		}
		p.files = append(p.files, webgodot.PackFile{Path: name, Data: src})
		if kind != "" {
			p.checked = append(p.checked, manifestFile{Path: "res://" + name, Kind: kind})
		}
	}

	// Editor-only files are packed (others may name them) but not checked.
	classPaths := map[string]string{}
	for _, c := range classes {
		classPaths[c.Name] = strings.TrimPrefix(c.Path, "res://")
	}
	if eo := editorOnly(scripts, classPaths, p.deps); len(eo) > 0 {
		p.checked = slices.DeleteFunc(p.checked, func(f manifestFile) bool {
			_, skip := eo[strings.TrimPrefix(f.Path, "res://")]
			return skip
		})
		for _, name := range slices.Sorted(mapKeys(eo)) {
			p.skipped = append(p.skipped, Skip{File: name, Reason: eo[name]})
		}
	}

	stubPaths := make([]string, 0, len(stubs))
	for sp := range stubs {
		stubPaths = append(stubPaths, sp)
	}
	slices.Sort(stubPaths)
	for _, sp := range stubPaths {
		rel := strings.TrimPrefix(sp, "res://")
		sum := sha256.Sum256([]byte(sp))
		stub := "webgodot/stub/" + hex.EncodeToString(sum[:8]) + ".tres"
		p.files = append(p.files,
			webgodot.PackFile{Path: stub, Data: []byte(stubResource(stubs[sp], rel))},
			webgodot.PackFile{Path: rel + ".import", Data: fmt.Appendf(nil,
				"[remap]\n\nimporter=\"godot_mcp_placeholder\"\ntype=\"Resource\"\npath=%q\n", "res://"+stub)})
		p.stubbed = append(p.stubbed, sp)
	}

	// The editor keeps the global class list in .godot; a checkout has
	// none, so scripts using another script's class_name would not
	// compile. Build it from the class_name lines.
	p.files = append(p.files, webgodot.PackFile{Path: ".godot/global_script_class_cache.cfg", Data: webgodot.ClassCache(classes)})

	main := webgodot.CheckerScene(checkScript)
	p.files = append(p.files, main...)
	if !hasProject {
		p.files = append(p.files, webgodot.PackFile{Path: "project.godot", Data: []byte(webgodot.MinimalProject())})
	}
	if hasProject || override != nil {
		// The project's override.cfg keeps its settings (its autoloads
		// as in project.godot); the checker's main scene comes after
		// them, so it wins.
		var ov bytes.Buffer
		if override != nil {
			ov.Write(override)
			ov.WriteString("\n")
		}
		ov.WriteString(webgodot.MainSceneOverride())
		p.files = append(p.files, webgodot.PackFile{Path: "override.cfg", Data: ov.Bytes()})
	}
	// Scripts first: a script checked after a scene loaded it would be a
	// second copy of a cached resource.
	order := map[Kind]int{KindProject: 0, KindScript: 1, KindResource: 2, KindScene: 3}
	slices.SortStableFunc(p.checked, func(a, b manifestFile) int { return order[a.Kind] - order[b.Kind] })
	m, err := json.Marshal(manifest{AllowMissing: allowMissing, Files: p.checked, Placeholders: p.stubbed})
	if err != nil {
		return nil, err
	}
	p.files = append(p.files, webgodot.PackFile{Path: "webgodot/manifest.json", Data: m})
	return p, nil
}

// importedType is the resource type an imported file of this name
// becomes, for a placeholder when no scene declares it.
func importedType(name string) string {
	switch strings.ToLower(path.Ext(name)) {
	case ".wav", ".ogg", ".mp3":
		return "AudioStream"
	case ".ttf", ".otf", ".woff", ".woff2", ".fnt", ".font":
		return "Font"
	case ".glb", ".gltf", ".fbx", ".blend", ".dae":
		return "PackedScene"
	case ".obj":
		return "Mesh"
	case ".csv":
		return "Translation"
	}
	return "Texture2D"
}

// missingUnder returns the missing files name depends on, directly or
// through other files, sorted.
func (p *packPlan) missingUnder(name string) []string {
	seen := map[string]bool{}
	out := map[string]bool{}
	var walk func(string)
	walk = func(n string) {
		if seen[n] {
			return
		}
		seen[n] = true
		for _, d := range p.deps[n] {
			if p.missing[d] {
				out[d] = true
			} else {
				walk(strings.TrimPrefix(d, "res://"))
			}
		}
	}
	walk(name)
	return slices.Sorted(mapKeys(out))
}

// ProjectPack returns the project part of a check's pack for files (as
// Check takes them): the files, placeholders for imported assets, the
// global class cache and project.godot and override.cfg with autoloads
// commented out and the main scene set to res://webgodot/main.tscn, but
// not the checker's own scene and script. A warm engine that compiles the
// project's scripts adds its own (webgodot.WarmProject's) to it.
func ProjectPack(files map[string][]byte) ([]webgodot.PackFile, error) {
	p, err := plan(files, false, false)
	if err != nil {
		return nil, err
	}
	out := make([]webgodot.PackFile, 0, len(p.files))
	for _, f := range p.files {
		switch f.Path {
		case "webgodot/main.tscn", "webgodot/main.gd", "webgodot/manifest.json":
			continue
		}
		out = append(out, f)
	}
	return out, nil
}

// IsProjectFile reports whether ReadProject reads a file of this name.
func IsProjectFile(name string) bool { return projectFiles[strings.ToLower(path.Ext(name))] }

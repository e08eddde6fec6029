package main

import (
	"crypto/rand"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/nodeedit"
	"github.com/godot-mcp/godot-mcp/sdk/godot/uid"
)

// An AnimationPlayer keeps its animations in AnimationLibraries: the
// default library "" and named ones, whose animations the player names
// "library/animation". Godot 4.6 saves each library as a property of the
// player, libraries/<name> = SubResource(...) (the default one is
// "libraries/"); earlier 4.x versions saved one dictionary, libraries =
// {&"": SubResource(...)}. A library's animations are its _data
// dictionary, {&"walk": SubResource(...)}. Either link may instead be an
// ExtResource: a library or an animation saved as a .tres of its own, and
// an edit of the animation is then written there.
//
// Godot 4.6's runtime ignores the dictionary form (the engine check
// reports the property as unknown), so in a 4.6 project a player whose
// libraries change gets the 4.6 form.

func newUID() string {
	id, err := uid.Generate(rand.Reader)
	if err != nil {
		return ""
	}
	return id.String()
}

// player is an AnimationPlayer node of a scene.
type player struct {
	e    *edit
	path string      // the node's path in the scene
	node *godot.Node // its section
	// dictForm: the file saves libraries as one dictionary (before 4.6).
	dictForm bool
}

// library is one AnimationLibrary of a player.
type library struct {
	name string
	fd   *fileDoc
	sec  *godot.Section
}

// animation is one Animation resource and where it is saved.
type animation struct {
	name string // as the player names it: "walk" or "lib/walk"
	lib  *library
	fd   *fileDoc
	sec  *godot.Section
}

// openPlayer resolves node_path in the edit's scene to an AnimationPlayer.
func (e *edit) openPlayer(nodePath string) (*player, error) {
	if strings.TrimSpace(nodePath) == "" {
		return nil, invalid("node_path", "pass the AnimationPlayer's path relative to the scene root, e.g. \"AnimationPlayer\"", "node_path is required")
	}
	np := nodeedit.NormalizePath(nodePath)
	sec, tn, err := e.scene.Lookup(np)
	if err != nil {
		return nil, err
	}
	class := ""
	if sec != nil {
		class = sec.Type()
	}
	if tn != nil {
		class = tn.Class()
	}
	if class != "AnimationPlayer" {
		return nil, invalid("node_path", "pass the path of an AnimationPlayer (godot_inspection_get_scene_tree lists the nodes)",
			"Node is not an AnimationPlayer: %s is a %s", np, orUnknown(class))
	}
	if sec == nil || !sec.Declared() || tn != nil && !tn.Declared() {
		return nil, &sdk.Error{Code: sdk.CodePreconditionFailed, Required: "node_path",
			Message: fmt.Sprintf("%s is an AnimationPlayer of an instanced scene; its animations are saved in that scene", np),
			Hint:    "edit the animations in the scene that defines the player (open it with scene_edit's open_scene, or pass scene)"}
	}
	p := &player{e: e, path: sec.Path(), node: sec}
	_, p.dictForm = sec.Get("libraries")
	return p, nil
}

func orUnknown(s string) string {
	if s == "" {
		return "node of unknown class"
	}
	return s
}

// libraryRefs lists the player's libraries (name → reference), in file
// order.
func (p *player) libraryRefs() (names []string, refs map[string]godot.Value) {
	refs = map[string]godot.Value{}
	if v, ok := p.node.Get("libraries"); ok {
		if d, ok := v.(godot.Dictionary); ok {
			for _, en := range d.Entries {
				if k, ok := keyString(en.Key); ok {
					names = append(names, k)
					refs[k] = en.Value
				}
			}
		}
		return names, refs
	}
	for _, k := range p.node.Keys() {
		if name, ok := strings.CutPrefix(k, "libraries/"); ok {
			v, _ := p.node.Get(k)
			names = append(names, name)
			refs[name] = v
		}
	}
	return names, refs
}

func keyString(v godot.Value) (string, bool) {
	switch k := v.(type) {
	case godot.String:
		return string(k), true
	case godot.StringName:
		return string(k), true
	}
	return "", false
}

// resolve follows a SubResource or ExtResource reference of fd to the
// section of the resource, which must be of class want.
func (e *edit) resolve(fd *fileDoc, ref godot.Value, want string) (*fileDoc, *godot.Section, error) {
	switch r := ref.(type) {
	case godot.SubResource:
		s := fd.doc.SubResource(r.ID)
		if s == nil {
			return nil, nil, sdk.Errorf(sdk.CodePreconditionFailed, "repair the file or restore it with godot_undo", "%s refers to SubResource(%q), which it does not declare", fd.path, r.ID)
		}
		if s.Type() != want {
			return nil, nil, sdk.Errorf(sdk.CodePreconditionFailed, "repair the file", "%s: SubResource(%q) is a %s, not an %s", fd.path, r.ID, s.Type(), want)
		}
		return fd, s.Section, nil
	case godot.ExtResource:
		x := fd.doc.ExtResource(r.ID)
		if x == nil {
			return nil, nil, sdk.Errorf(sdk.CodePreconditionFailed, "repair the file or restore it with godot_undo", "%s refers to ExtResource(%q), which it does not declare", fd.path, r.ID)
		}
		if !strings.HasSuffix(x.Path(), ".tres") {
			return nil, nil, sdk.Errorf(sdk.CodePreconditionFailed, "attach the Godot editor to edit it, or save it as .tres",
				"the %s is saved as %s, which cannot be edited headless (only .tres text resources can)", want, x.Path())
		}
		ext, err := e.open(x.Path())
		if err != nil {
			return nil, nil, err
		}
		if t := ext.doc.ResourceType(); t != want {
			return nil, nil, sdk.Errorf(sdk.CodePreconditionFailed, "repair the reference", "%s is a %s, not an %s", x.Path(), t, want)
		}
		return ext, ext.doc.Resource(), nil
	}
	return nil, nil, sdk.Errorf(sdk.CodePreconditionFailed, "repair the file", "%s: expected a resource reference, found %s", fd.path, godot.FormatValue(ref))
}

// libraries opens the player's libraries, in file order.
func (p *player) libraries() ([]*library, error) {
	names, refs := p.libraryRefs()
	out := make([]*library, 0, len(names))
	for _, n := range names {
		fd, sec, err := p.e.resolve(p.e.files[0], refs[n], "AnimationLibrary")
		if err != nil {
			return nil, err
		}
		out = append(out, &library{name: n, fd: fd, sec: sec})
	}
	return out, nil
}

// animationRefs lists the library's animations (name → reference).
func (l *library) animationRefs() (names []string, refs map[string]godot.Value) {
	refs = map[string]godot.Value{}
	v, _ := l.sec.Get("_data")
	d, _ := v.(godot.Dictionary)
	for _, en := range d.Entries {
		if k, ok := keyString(en.Key); ok {
			names = append(names, k)
			refs[k] = en.Value
		}
	}
	return names, refs
}

// fullName is the player's name of animation a of library lib.
func fullName(lib, a string) string {
	if lib == "" {
		return a
	}
	return lib + "/" + a
}

// animationNames lists every animation of the player by the name the
// player gives it, sorted as AnimationPlayer.get_animation_list sorts.
func (p *player) animationNames() ([]string, error) {
	libs, err := p.libraries()
	if err != nil {
		return nil, err
	}
	var out []string
	for _, l := range libs {
		names, _ := l.animationRefs()
		for _, n := range names {
			out = append(out, fullName(l.name, n))
		}
	}
	sort.Strings(out)
	return out, nil
}

// animation opens the player's animation name ("walk", "lib/walk").
func (p *player) animation(name string) (*animation, error) {
	libs, err := p.libraries()
	if err != nil {
		return nil, err
	}
	for _, l := range libs {
		names, refs := l.animationRefs()
		for _, n := range names {
			if fullName(l.name, n) != name {
				continue
			}
			fd, sec, err := p.e.resolve(l.fd, refs[n], "Animation")
			if err != nil {
				return nil, err
			}
			return &animation{name: name, lib: l, fd: fd, sec: sec}, nil
		}
	}
	all, _ := p.animationNames()
	return nil, notFound(fmt.Sprintf("the player's animations: %s (godot_animation_list_animations lists them; godot_animation_create makes one)", quoteList(all)),
		"No animation '%s' on the AnimationPlayer at %s.", name, p.path)
}

// validAnimationName applies AnimationLibrary's rule for names.
func validAnimationName(what, name string) error {
	if name == "" {
		return invalid(what, "pass a non-empty name, e.g. \"walk\"", "'%s' must be a non-empty string.", what)
	}
	if i := strings.IndexAny(name, "/:,["); i >= 0 {
		return invalid(what, "leave out '/', ':', ',' and '['; put the animation in a named library with library",
			"%s %q contains %q, which Godot does not allow in animation and library names", what, name, name[i])
	}
	return nil
}

// addLibrary adds an empty AnimationLibrary named name to the player, as
// a sub-resource of the scene. A project for Godot 4.6 or later gets the
// libraries/<name> properties, also in place of a dictionary an older
// editor saved (which the 4.6 runtime ignores); an older project keeps
// (or gets) the dictionary, its keys spelled as the file spells them.
func (p *player) addLibrary(name string) (*library, error) {
	fd := p.e.files[0]
	sub, err := fd.doc.AddSubResource("AnimationLibrary")
	if err != nil {
		return nil, err
	}
	ref := godot.SubResource{ID: sub.ID()}
	modern := godotAtLeast(p.e.call.Workspace().GodotVersion(p.e.ctx), 4, 6)
	if modern {
		names, refs := p.libraryRefs()
		if p.dictForm {
			// The new references first: clearing the dictionary first
			// would drop the libraries as unused.
			for _, n := range names {
				p.node.SetOrdered("libraries/"+n, refs[n], libraryRank())
			}
			p.node.Clear("libraries")
			p.dictForm = false
		}
		p.node.SetOrdered("libraries/"+name, ref, libraryRank())
	} else {
		v, _ := p.node.Get("libraries")
		d, _ := v.(godot.Dictionary)
		var key godot.Value = godot.StringName(name)
		if len(d.Entries) > 0 {
			if _, ok := d.Entries[0].Key.(godot.String); ok {
				key = godot.String(name)
			}
		}
		d.Entries = append(slices.Clone(d.Entries), godot.DictEntry{Key: key, Value: ref})
		p.node.SetOrdered("libraries", d, libraryRank())
		p.dictForm = true
	}
	return &library{name: name, fd: fd, sec: sub.Section}, nil
}

// libraryRank places libraries where AnimationMixer lists them: after its
// own properties, before AnimationPlayer's (autoplay, ...).
func libraryRank() func(string) int {
	rank := nodeedit.DB().PropertyRank("AnimationPlayer")
	at := rank("callback_mode_discrete")
	return func(k string) int {
		if k == "libraries" || strings.HasPrefix(k, "libraries/") {
			return at
		}
		return rank(k)
	}
}

// godotAtLeast compares a project's "4.6" style version; unknown means
// current.
func godotAtLeast(v string, major, minor int) bool {
	var a, b int
	if _, err := fmt.Sscanf(v, "%d.%d", &a, &b); err != nil {
		return true
	}
	return a > major || a == major && b >= minor
}

// add adds the Animation resource ref to the library under name.
func (l *library) add(name string, ref godot.Value) {
	v, _ := l.sec.Get("_data")
	d, _ := v.(godot.Dictionary)
	var key godot.Value = godot.StringName(name)
	if len(d.Entries) > 0 {
		if _, ok := d.Entries[0].Key.(godot.String); ok {
			key = godot.String(name) // files before Godot 4.3 keyed by String
		}
	}
	d.Entries = append(slices.Clone(d.Entries), godot.DictEntry{Key: key, Value: ref})
	l.sec.Set("_data", d)
}

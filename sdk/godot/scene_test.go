package godot

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// Setting one property of a corpus scene changes exactly that property's
// line(s) and nothing else, for the first property of every node of every
// scene in the corpus.
func TestSetPropertyChangesOnlyThatLine(t *testing.T) {
	edits := 0
	for _, c := range loadCorpus(t) {
		if !strings.HasSuffix(c.rel, ".tscn") {
			continue
		}
		base := mustParseFile(t, c.rel, string(c.data))
		for ni, n := range base.Nodes() {
			// The first property that refers to no resource and holds no
			// byte or Vector4 array: replacing a resource's last reference
			// (rightly) removes the resource, and replacing a large byte
			// array can (rightly) change the file's format line.
			key := ""
			for _, p := range n.Properties() {
				refs := newRefSets()
				refs.add(p.Value)
				k := p.Value.Kind()
				if refs.empty() && k != KindPackedByteArray && k != KindPackedVector4Array {
					key = p.Key
					break
				}
			}
			if key == "" {
				continue
			}
			f := mustParseFile(t, c.rel, string(c.data))
			node := f.Nodes()[ni]
			i := node.find(key)
			oldText := string(node.doc.text(node.entries[i].raw))
			node.Set(key, Int(123456789))
			out := string(f.Bytes())
			removed, added := lineDiff(string(c.data), out) // one contiguous change expected
			wantRemoved := strings.SplitAfter(oldText, "\n")
			newLine := string(appendKey(nil, key)) + " = 123456789"
			if len(added) != 1 || !strings.HasPrefix(added[0], newLine) || len(removed) != len(wantRemoved) {
				t.Fatalf("%s node %q key %q: removed %q, added %q", c.rel, n.Path(), key, removed, added)
			}
			if _, err := ParseFile(c.rel, []byte(out)); err != nil {
				t.Fatalf("%s: edited file does not parse: %v", c.rel, err)
			}
			edits++
		}
	}
	t.Logf("%d single-property edits checked", edits)
}

func TestSetPropertyOnCorpusScene(t *testing.T) {
	src := string(readFixture(t, "2d-dodge_the_creeps/main.tscn"))
	f := mustParseFile(t, "main.tscn", src)
	timer := f.Node("MobTimer")
	if timer == nil || timer.Type() != "Timer" {
		t.Fatalf("MobTimer = %v", timer)
	}
	timer.Set("wait_time", Float(0.75))
	removed, added := diffLines(src, string(f.Bytes()))
	if !slices.Equal(removed, []string{"wait_time = 0.5\n"}) || !slices.Equal(added, []string{"wait_time = 0.75\n"}) {
		t.Fatalf("removed %q, added %q", removed, added)
	}
	// Setting the same canonical text again is not an edit at all.
	g := mustParseFile(t, "main.tscn", src)
	g.Node("StartTimer").Set("wait_time", Float(2))
	if string(g.Bytes()) != src {
		t.Fatal("setting an identical value changed the file")
	}
	// A new property goes at the end of the node's properties.
	g.Node("ScoreTimer").Set("one_shot", Bool(true))
	removed, added = diffLines(src, string(g.Bytes()))
	if len(removed) != 0 || !slices.Equal(added, []string{"one_shot = true\n"}) {
		t.Fatalf("removed %q, added %q", removed, added)
	}
	if !strings.Contains(string(g.Bytes()), "[node name=\"ScoreTimer\" type=\"Timer\" parent=\".\" unique_id=451982858]\none_shot = true\n\n") {
		t.Fatal("new property not placed under its node")
	}
}

func TestAddNodeWithTexture(t *testing.T) {
	src := string(readFixture(t, "2d-dodge_the_creeps/main.tscn"))
	f := mustParseFile(t, "main.tscn", src)
	tex, err := f.AddExtResource("Texture2D", "res://art/icon.png", "uid://dq7ylnhnr1emp")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(tex.ID, "7_") || len(tex.ID) != 7 || strings.ContainsAny(tex.ID[2:], "z9") {
		t.Errorf("new ext id %q, want 7_<5 chars from a..y0..8>", tex.ID)
	}
	again, _ := f.AddExtResource("Texture2D", "res://art/icon.png", "")
	if again != tex {
		t.Errorf("same path got a second id %q", again.ID)
	}
	existing, _ := f.AddExtResource("PackedScene", "res://mob.tscn", "")
	if existing.ID != "2_50pww" {
		t.Errorf("existing path got id %q, want 2_50pww", existing.ID)
	}
	n, err := f.AddNode(".", "Icon", "Sprite2D")
	if err != nil {
		t.Fatal(err)
	}
	n.Set("texture", tex)
	out := string(f.Bytes())
	removed, added := diffLines(src, out)
	if len(removed) != 0 {
		t.Fatalf("lines removed: %q", removed)
	}
	id, _ := n.UniqueID()
	want := []string{
		`[ext_resource type="Texture2D" uid="uid://dq7ylnhnr1emp" path="res://art/icon.png" id="` + tex.ID + `"]` + "\n",
		"\n",
		`[node name="Icon" type="Sprite2D" parent="." unique_id=` + itoa(int(id)) + "]\n",
		`texture = ExtResource("` + tex.ID + `")` + "\n",
	}
	slices.Sort(added)
	slices.Sort(want)
	if !slices.Equal(added, want) {
		t.Fatalf("added %q\nwant %q", added, want)
	}
	// The ext_resource line is the last of its group, and the node the last
	// child of the root (after DeathSound, before the connections).
	if !strings.Contains(out, `id="6_hp1r0"]`+"\n"+`[ext_resource type="Texture2D"`) ||
		!strings.Contains(out, "stream = ExtResource(\"6_hp1r0\")\n\n[node name=\"Icon\"") {
		t.Fatalf("unexpected placement:\n%s", out)
	}
	re := mustParseFile(t, "main.tscn", out)
	if got := re.Node("Icon"); got == nil || got.Parent() != re.Root() {
		t.Fatal("new node not found under the root after re-parsing")
	}
}

func TestRemovingLastUserRemovesSubResource(t *testing.T) {
	src := string(readFixture(t, "2d-dodge_the_creeps/main.tscn"))
	f := mustParseFile(t, "main.tscn", src)
	if !f.Node("MobPath").Clear("curve") {
		t.Fatal("curve was not set")
	}
	if f.SubResource("1") != nil {
		t.Fatal("sub_resource 1 (the curve) survived its last reference")
	}
	out := string(f.Bytes())
	removed, added := diffLines(src, out)
	wantRemoved := []string{
		"[sub_resource type=\"Curve2D\" id=\"1\"]\n", "_data = {\n",
		"\"points\": PackedVector2Array(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 480, 0, 0, 0, 0, 0, 480, 720, 0, 0, 0, 0, 0, 720, 0, 0, 0, 0, 0, 0)\n",
		"}\n", "point_count = 5\n", "\n", "curve = SubResource(\"1\")\n",
	}
	if len(added) != 0 || !slices.Equal(removed, wantRemoved) {
		t.Fatalf("removed %q\nadded %q", removed, added)
	}
	if !strings.Contains(out, `id="6_hp1r0"]`+"\n\n[node name=\"Main\"") {
		t.Fatalf("blank line between groups lost:\n%s", out[:600])
	}

	// Transitively: the Shortcut sub resource is the only user of the
	// InputEventAction one.
	hud := mustParseFile(t, "hud.tscn", string(readFixture(t, "2d-dodge_the_creeps/hud.tscn")))
	hud.Node("StartButton").Clear("shortcut")
	if hud.SubResource("4") != nil || hud.SubResource("InputEventAction_fopy7") != nil {
		t.Fatal("unreferenced sub resources survived")
	}
	if _, err := ParseFile("hud.tscn", hud.Bytes()); err != nil {
		t.Fatal(err)
	}
}

func TestRemoveNode(t *testing.T) {
	src := string(readFixture(t, "2d-dodge_the_creeps/main.tscn"))
	f := mustParseFile(t, "main.tscn", src)
	if err := f.RemoveNode("MobPath"); err != nil {
		t.Fatal(err)
	}
	if f.Node("MobPath") != nil || f.Node("MobPath/MobSpawnLocation") != nil {
		t.Fatal("node or descendant survived")
	}
	if f.SubResource("1") != nil {
		t.Fatal("the curve only MobPath used survived")
	}
	if err := f.RemoveNode("Player"); err != nil {
		t.Fatal(err)
	}
	for _, c := range f.Connections() {
		if c.From == "Player" || c.To == "Player" {
			t.Fatalf("connection %+v survived", c)
		}
	}
	if f.ExtResource("3_veqnc") != nil {
		t.Fatal("player.tscn ext_resource survived its only instance")
	}
	out := f.Bytes()
	if _, err := ParseFile("main.tscn", out); err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(string(out), "method=\"new_game\"]\n") {
		t.Fatalf("tail changed:\n%s", out)
	}
	if err := f.RemoveNode("."); !errors.Is(err, ErrInvalid) {
		t.Errorf("removing the root: %v", err)
	}
	if err := f.RemoveNode("Nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("removing a missing node: %v", err)
	}
}

const pathsScene = `[gd_scene format=3 uid="uid://abc"]

[node name="Root" type="Node2D" unique_id=1]
target = NodePath("A/B")

[node name="A" type="Node2D" parent="." unique_id=2]

[node name="B" type="Sprite2D" parent="A" unique_id=3 groups=["enemies"]]
follow = NodePath("../../C:position")
paths = [NodePath("../B"), NodePath("/root/Abs"), NodePath("%Unique")]

[node name="Leaf" type="Node" parent="A/B" unique_id=4]

[node name="C" type="Node2D" parent="." unique_id=5]
back = NodePath("../A/B/Leaf")

[connection signal="hit" from="A/B" to="." method="_on_hit"]
[connection signal="done" from="C" to="A/B/Leaf" method="_on_done" binds= [1, "x"]]
`

func TestRenameNode(t *testing.T) {
	f := mustParseFile(t, "paths.tscn", pathsScene)
	if err := f.RenameNode("A/B", "Body"); err != nil {
		t.Fatal(err)
	}
	out := string(f.Bytes())
	removed, added := diffLines(pathsScene, out)
	wantAdded := []string{
		"target = NodePath(\"A/Body\")\n",
		"[node name=\"Body\" type=\"Sprite2D\" parent=\"A\" unique_id=3 groups=[\"enemies\"]]\n",
		"paths = [NodePath(\"../Body\"), NodePath(\"/root/Abs\"), NodePath(\"%Unique\")]\n",
		"[node name=\"Leaf\" type=\"Node\" parent=\"A/Body\" unique_id=4]\n",
		"back = NodePath(\"../A/Body/Leaf\")\n",
		"[connection signal=\"hit\" from=\"A/Body\" to=\".\" method=\"_on_hit\"]\n",
		"[connection signal=\"done\" from=\"C\" to=\"A/Body/Leaf\" method=\"_on_done\" binds= [1, \"x\"]]\n",
	}
	if !slices.Equal(added, wantAdded) || len(removed) != len(wantAdded) {
		t.Fatalf("removed %q\nadded %q", removed, added)
	}
	if f.Node("A/Body/Leaf") == nil || f.Node("A/B") != nil {
		t.Fatal("tree not updated")
	}
	if err := f.RenameNode("C", "A"); !errors.Is(err, ErrExists) {
		t.Errorf("rename onto a sibling: %v", err)
	}
	if err := f.RenameNode("C", "bad/name"); !errors.Is(err, ErrInvalid) {
		t.Errorf("invalid name: %v", err)
	}
	if err := f.RenameNode(".", "NewRoot"); err != nil || f.Root().Name() != "NewRoot" {
		t.Errorf("rename root: %v", err)
	}
}

func TestMoveNode(t *testing.T) {
	f := mustParseFile(t, "paths.tscn", pathsScene)
	if err := f.MoveNode("A/B", "C"); err != nil {
		t.Fatal(err)
	}
	out := string(f.Bytes())
	re := mustParseFile(t, "paths.tscn", out)
	b := re.Node("C/B")
	if b == nil || re.Node("C/B/Leaf") == nil || re.Node("A/B") != nil {
		t.Fatalf("tree not moved:\n%s", out)
	}
	// Sections are in tree order: C, then its new children.
	var order []string
	for _, n := range re.Nodes() {
		order = append(order, n.Path())
	}
	if want := []string{".", "A", "C", "C/B", "C/B/Leaf"}; !slices.Equal(order, want) {
		t.Fatalf("node order %v, want %v", order, want)
	}
	checks := map[string]Value{
		"follow": NodePath("../../C:position"), // still reaches C from C/B: kept
		"paths":  Array{Items: []Value{NodePath("../B"), NodePath("/root/Abs"), NodePath("%Unique")}},
	}
	for k, want := range checks {
		if got, _ := b.Get(k); !Equal(got, want) {
			t.Errorf("%s = %s, want %s", k, FormatValue(got), FormatValue(want))
		}
	}
	if got, _ := re.Node("C").Get("back"); !Equal(got, NodePath("B/Leaf")) {
		t.Errorf("back = %s", FormatValue(got))
	}
	if got, _ := re.Root().Get("target"); !Equal(got, NodePath("C/B")) {
		t.Errorf("target = %s", FormatValue(got))
	}
	conns := re.Connections()
	if conns[0].From != "C/B" || conns[1].To != "C/B/Leaf" {
		t.Errorf("connections not updated: %+v", conns)
	}
	if err := f.MoveNode("C", "C/B"); !errors.Is(err, ErrInvalid) {
		t.Errorf("moving a node under itself: %v", err)
	}
	if err := f.MoveNode(".", "A"); !errors.Is(err, ErrInvalid) {
		t.Errorf("moving the root: %v", err)
	}
}

func TestDuplicateNode(t *testing.T) {
	f := mustParseFile(t, "paths.tscn", pathsScene)
	n, err := f.DuplicateNode("A/B", "")
	if err != nil {
		t.Fatal(err)
	}
	if n.Path() != "A/B2" || f.Node("A/B2/Leaf") == nil {
		t.Fatalf("duplicate at %q", n.Path())
	}
	ids := map[int64]bool{}
	for _, x := range f.Nodes() {
		id, _ := x.UniqueID()
		if ids[id] {
			t.Fatalf("unique_id %d used twice", id)
		}
		ids[id] = true
	}
	if got, _ := n.Get("follow"); !Equal(got, NodePath("../../C:position")) {
		t.Errorf("copied property = %s", FormatValue(got))
	}
	if !slices.Equal(n.Groups(), []string{"enemies"}) {
		t.Errorf("groups = %v", n.Groups())
	}
	var hits int
	for _, c := range f.Connections() {
		if c.Signal == "hit" {
			hits++
		}
	}
	if hits != 2 {
		t.Errorf("connection from the duplicated node not copied: %+v", f.Connections())
	}
	out := string(f.Bytes())
	removed, _ := diffLines(pathsScene, out)
	if len(removed) != 0 {
		t.Fatalf("duplicate changed existing lines: %q", removed)
	}
	if _, err := f.DuplicateNode("A/B", "B2"); !errors.Is(err, ErrExists) {
		t.Errorf("duplicate onto an existing name: %v", err)
	}
	mustParseFile(t, "paths.tscn", out)
}

func TestConnections(t *testing.T) {
	f := mustParseFile(t, "paths.tscn", pathsScene)
	conns := f.Connections()
	if len(conns) != 2 || conns[1].Flags != ConnectPersist || !Equal(Array{Items: conns[1].Binds}, Array{Items: []Value{Int(1), String("x")}}) {
		t.Fatalf("connections = %+v", conns)
	}
	c := Connection{Signal: "ready", From: "A", To: ".", Method: "_on_ready", Flags: 1 | ConnectPersist, Unbinds: 1}
	if err := f.AddConnection(c); err != nil {
		t.Fatal(err)
	}
	if err := f.AddConnection(c); !errors.Is(err, ErrExists) {
		t.Errorf("duplicate connection: %v", err)
	}
	if err := f.AddConnection(Connection{Signal: "x", From: "Nope", To: ".", Method: "m"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("connection from a missing node: %v", err)
	}
	out := string(f.Bytes())
	removed, added := diffLines(pathsScene, out)
	want := "[connection signal=\"ready\" from=\"A\" to=\".\" method=\"_on_ready\" flags=3 unbinds=1]\n"
	if len(removed) != 0 || !slices.Equal(added, []string{want}) {
		t.Fatalf("removed %q, added %q", removed, added)
	}
	if !f.RemoveConnection(Connection{Signal: "hit", From: "A/B", To: ".", Method: "_on_hit"}) {
		t.Fatal("connection not found")
	}
	if f.RemoveConnection(Connection{Signal: "hit", From: "A/B", To: ".", Method: "_on_hit"}) {
		t.Fatal("connection removed twice")
	}
	removed, _ = diffLines(pathsScene, string(f.Bytes()))
	if !slices.Equal(removed, []string{"[connection signal=\"hit\" from=\"A/B\" to=\".\" method=\"_on_hit\"]\n"}) {
		t.Fatalf("removed %q", removed)
	}

	// The first connection of a scene gets a blank line before it.
	g := mustParseFile(t, "s.tscn", "[gd_scene format=3]\n\n[node name=\"R\" type=\"Node\"]\n\n[node name=\"A\" type=\"Node\" parent=\".\"]\n")
	if err := g.AddConnection(Connection{Signal: "s", From: "A", To: ".", Method: "m"}); err != nil {
		t.Fatal(err)
	}
	if got := string(g.Bytes()); !strings.HasSuffix(got, "parent=\".\"]\n\n[connection signal=\"s\" from=\"A\" to=\".\" method=\"m\"]\n") {
		t.Fatalf("got\n%s", got)
	}
}

func TestGroups(t *testing.T) {
	f := mustParseFile(t, "paths.tscn", pathsScene)
	c := f.Node("C")
	if err := c.AddGroup("zeta"); err != nil {
		t.Fatal(err)
	}
	if err := c.AddGroup("alpha"); err != nil {
		t.Fatal(err)
	}
	if err := c.AddGroup("alpha"); err != nil {
		t.Fatal(err)
	}
	if err := c.AddGroup(""); !errors.Is(err, ErrInvalid) {
		t.Errorf("empty group: %v", err)
	}
	removed, added := diffLines(pathsScene, string(f.Bytes()))
	if !slices.Equal(added, []string{"[node name=\"C\" type=\"Node2D\" parent=\".\" unique_id=5 groups=[\"alpha\", \"zeta\"]]\n"}) || len(removed) != 1 {
		t.Fatalf("removed %q, added %q", removed, added)
	}
	b := f.Node("A/B")
	if !b.RemoveGroup("enemies") || b.RemoveGroup("enemies") {
		t.Fatal("RemoveGroup result wrong")
	}
	if strings.Contains(string(f.Bytes()), "enemies") {
		t.Fatal("groups field not removed")
	}
	if !c.RemoveGroup("alpha") || !c.RemoveGroup("zeta") {
		t.Fatal("RemoveGroup failed")
	}
	want := strings.Replace(pathsScene, ` groups=["enemies"]`, "", 1)
	if got := string(f.Bytes()); got != want {
		t.Fatalf("adding and removing groups is not an identity:\n%s", got)
	}
}

// Godot 4.6+ headers: unique_id on every node, parent_id_path for nodes whose
// parent lies inside an instanced scene.
func TestUniqueIDAndParentIDPath(t *testing.T) {
	f := mustParseFile(t, "pause_menu_splitscreen.tscn", string(readFixture(t, "2d-platformer/gui/pause_menu_splitscreen.tscn")))
	var withPath *Node
	for _, n := range f.Nodes() {
		if _, ok := n.UniqueID(); !ok {
			t.Errorf("node %q has no unique_id", n.Path())
		}
		if len(n.ParentIDPath()) > 0 && withPath == nil {
			withPath = n
		}
	}
	if withPath == nil {
		t.Fatal("no node with parent_id_path found")
	}
	if v, ok := withPath.Field("parent_id_path"); !ok || v.Kind() != KindPackedInt32Array {
		t.Fatalf("parent_id_path field = %v", v)
	}
	t.Logf("%s: parent_id_path=%v", withPath.Path(), withPath.ParentIDPath())

	g := mustParseFile(t, "game_splitscreen.tscn", string(readFixture(t, "2d-platformer/game_splitscreen.tscn")))
	p := g.Node("Black/SplitContainer/ViewportContainer1/Viewport1/Player1")
	if id, ok := p.UniqueID(); !ok || id != 1560919728 {
		t.Errorf("unique_id = %d, %v", id, ok)
	}
	if ext, ok := p.Instance(); !ok || g.ExtResource(ext.ID).Type() != "PackedScene" {
		t.Errorf("instance = %v", ext)
	}
	if p.Type() != "" {
		t.Errorf("instanced node has type %q", p.Type())
	}
}

func TestLoadStepsFile(t *testing.T) {
	src := string(readFixture(t, "gui-translation/translation_demo_csv.tscn"))
	f := mustParseFile(t, "translation_demo_csv.tscn", src)
	if f.LoadSteps() != 6 || f.Format() != 3 || f.UID() != "uid://dbyf8vqdm3gxk" {
		t.Fatalf("header: load_steps=%d format=%d uid=%s", f.LoadSteps(), f.Format(), f.UID())
	}
	if string(f.Bytes()) != src {
		t.Fatal("load_steps file does not round-trip")
	}
	// load_steps follows the resource count when an edit changes it.
	ref, err := f.AddExtResource("Texture2D", "res://images/new.webp", "")
	if err != nil {
		t.Fatal(err)
	}
	f.Root().Set("icon", ref)
	out := string(f.Bytes())
	if !strings.HasPrefix(out, "[gd_scene load_steps=7 format=3 uid=\"uid://dbyf8vqdm3gxk\"]\n") {
		t.Fatalf("header not updated:\n%.200s", out)
	}
}

func TestSceneQueries(t *testing.T) {
	f := mustParseFile(t, "paths.tscn", pathsScene)
	if f.Root().Name() != "Root" || !f.Root().IsRoot() || f.Root().Parent() != nil {
		t.Fatal("root")
	}
	a := f.Node("./A/")
	if a == nil || a.Path() != "A" || a.Parent() != f.Root() {
		t.Fatal("path normalisation")
	}
	var kids []string
	for _, c := range a.Children() {
		kids = append(kids, c.Name())
	}
	if !slices.Equal(kids, []string{"B"}) {
		t.Fatalf("children = %v", kids)
	}
	if f.ResourceType() != "PackedScene" || !f.IsScene() || f.Resource() != nil {
		t.Fatal("scene metadata")
	}
	if _, err := f.AddNode("A", "B", "Node"); !errors.Is(err, ErrExists) {
		t.Errorf("duplicate child: %v", err)
	}
	if _, err := f.AddNode("Missing", "X", "Node"); !errors.Is(err, ErrNotFound) {
		t.Errorf("missing parent: %v", err)
	}
	if _, err := f.AddNode(".", "a:b", "Node"); !errors.Is(err, ErrInvalid) {
		t.Errorf("invalid name: %v", err)
	}
}

func TestEmptySceneGetsRoot(t *testing.T) {
	f := mustParseFile(t, "new.tscn", "[gd_scene format=3]\n")
	root, err := f.AddNode("", "Main", "Node2D")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.AddNode(".", "Child", "Sprite2D"); err != nil {
		t.Fatal(err)
	}
	root.Set("position", Vector2{1, 2})
	want := "[gd_scene format=3]\n\n[node name=\"Main\" type=\"Node2D\"]\nposition = Vector2(1, 2)\n\n[node name=\"Child\" type=\"Sprite2D\" parent=\".\"]\n"
	if got := string(f.Bytes()); got != want {
		t.Fatalf("got\n%q\nwant\n%q", got, want)
	}
}

func TestResourceFileEditing(t *testing.T) {
	src := string(readFixture(t, "3d-csg/blue_material.tres"))
	f := mustParseFile(t, "blue_material.tres", src)
	if f.IsScene() || f.ResourceType() != "StandardMaterial3D" || f.Resource() == nil || f.Root() != nil {
		t.Fatal("resource metadata")
	}
	if _, err := f.AddNode(".", "X", "Node"); !errors.Is(err, ErrInvalid) {
		t.Errorf("AddNode on a resource: %v", err)
	}
	sub, err := f.AddSubResource("Gradient")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(sub.ID(), "Gradient_") || len(sub.ID()) != len("Gradient_")+5 {
		t.Errorf("sub id %q", sub.ID())
	}
	sub.Set("offsets", PackedFloat32Array{0, 1})
	f.Resource().Set("roughness_texture", sub.Ref())
	out := string(f.Bytes())
	re := mustParseFile(t, "blue_material.tres", out)
	if got, _ := re.Resource().Get("roughness_texture"); !Equal(got, sub.Ref()) {
		t.Fatalf("reference lost:\n%s", out)
	}
	if removed, _ := diffLines(src, out); len(removed) != 0 {
		t.Fatalf("lines removed: %q", removed)
	}
	// Dropping the only reference drops the new sub resource again.
	f.Resource().Clear("roughness_texture")
	if got := string(f.Bytes()); got != src {
		t.Fatalf("not back to the original:\n%s", got)
	}
}

func TestRemoveUnusedSubResources(t *testing.T) {
	src := "[gd_scene format=3]\n\n[sub_resource type=\"A\" id=\"a\"]\n\n[sub_resource type=\"B\" id=\"b\"]\nx = SubResource(\"a\")\n\n[sub_resource type=\"C\" id=\"c\"]\n\n[node name=\"R\" type=\"Node\"]\ny = SubResource(\"c\")\n"
	f := mustParseFile(t, "s.tscn", src)
	if got := f.RemoveUnusedSubResources(); !slices.Equal(got, []string{"a", "b"}) {
		t.Fatalf("removed %v", got)
	}
	want := "[gd_scene format=3]\n\n[sub_resource type=\"C\" id=\"c\"]\n\n[node name=\"R\" type=\"Node\"]\ny = SubResource(\"c\")\n"
	if got := string(f.Bytes()); got != want {
		t.Fatalf("got\n%s", got)
	}
}

func TestExtResourceIDOrder(t *testing.T) {
	src := "[gd_scene format=3]\n\n[ext_resource type=\"Script\" path=\"res://a.gd\" id=\"2_aaaaa\"]\n[ext_resource type=\"Script\" path=\"res://b.gd\" id=\"10_bbbbb\"]\n\n[node name=\"R\" type=\"Node\"]\n"
	f := mustParseFile(t, "s.tscn", src)
	ref, err := f.AddExtResource("Texture2D", "res://c.png", "")
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, e := range f.ExtResources() {
		ids = append(ids, e.ID())
	}
	// "3_..." sorts between 2_ and 10_ in natural order.
	if !slices.Equal(ids, []string{"2_aaaaa", ref.ID, "10_bbbbb"}) || !strings.HasPrefix(ref.ID, "3_") {
		t.Fatalf("ids %v", ids)
	}
	if !naturalLess("2_x", "10_a") || naturalLess("10_a", "2_x") || !naturalLess("a", "B") {
		t.Fatal("naturalLess")
	}
	if removed, _ := diffLines(src, string(f.Bytes())); len(removed) != 0 {
		t.Fatalf("removed %q", removed)
	}
}

// A sub resource that comes to refer to a later one is moved after it, so
// the file stays loadable; files already in order are not reordered.
func TestSubResourceDependencyOrder(t *testing.T) {
	src := "[gd_scene format=3]\n\n[sub_resource type=\"Shortcut\" id=\"s\"]\n\n[node name=\"R\" type=\"Button\"]\nshortcut = SubResource(\"s\")\n"
	f := mustParseFile(t, "s.tscn", src)
	ev, err := f.AddSubResource("InputEventAction")
	if err != nil {
		t.Fatal(err)
	}
	ev.Set("action", StringName("ui_accept"))
	f.SubResource("s").Set("events", Array{Items: []Value{ev.Ref()}})
	out := string(f.Bytes())
	want := "[gd_scene format=3]\n\n[sub_resource type=\"InputEventAction\" id=\"" + ev.ID() + "\"]\naction = &\"ui_accept\"\n\n" +
		"[sub_resource type=\"Shortcut\" id=\"s\"]\nevents = [SubResource(\"" + ev.ID() + "\")]\n\n[node name=\"R\" type=\"Button\"]\nshortcut = SubResource(\"s\")\n"
	if out != want {
		t.Fatalf("got\n%s\nwant\n%s", out, want)
	}
	mustParseFile(t, "s.tscn", out)
}

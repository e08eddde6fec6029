package main

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/nodeedit"
)

// A GridMap saves its cells as data = {"cells": PackedInt32Array(...)},
// three integers a cell (modules/gridmap/grid_map.cpp, _get and _set):
//
//   - the low 32 bits of the cell's key: x in bits 0-15, y in bits 16-31
//     (each an int16);
//   - the high 32 bits: z in bits 0-15;
//   - the cell: item in bits 0-15, orientation (0-23) in bits 16-20,
//     layer in bits 21-28.
//
// Cells are listed in the order the GridMap's hash map holds them: the
// order they were first set. A cell set again keeps its place, a new one
// goes last, an erased one leaves the list.

// cell is one GridMap cell.
type cell struct {
	X, Y, Z     int16
	Item        int
	Orientation int
	rest        int32 // the layer bits, kept as they were
}

func (c cell) at(x, y, z int16) bool { return c.X == x && c.Y == y && c.Z == z }

func decodeCells(a godot.PackedInt32Array) ([]cell, error) {
	if len(a)%3 != 0 {
		return nil, fmt.Errorf("cells has %d integers, not a multiple of 3", len(a))
	}
	out := make([]cell, 0, len(a)/3)
	for i := 0; i < len(a); i += 3 {
		k0, k1, v := uint32(a[i]), uint32(a[i+1]), uint32(a[i+2])
		out = append(out, cell{
			X: int16(k0 & 0xffff), Y: int16(k0 >> 16), Z: int16(k1 & 0xffff),
			Item: int(v & 0xffff), Orientation: int(v >> 16 & 0x1f), rest: int32(v &^ 0x1fffff),
		})
	}
	return out, nil
}

func encodeCells(cells []cell) godot.PackedInt32Array {
	out := make(godot.PackedInt32Array, 0, 3*len(cells))
	for _, c := range cells {
		k0 := uint32(uint16(c.X)) | uint32(uint16(c.Y))<<16
		k1 := uint32(uint16(c.Z))
		v := uint32(c.Item&0xffff) | uint32(c.Orientation&0x1f)<<16 | uint32(c.rest)
		out = append(out, int32(k0), int32(k1), int32(v))
	}
	return out
}

// cellsOf reads the cells of a data value (nil: none).
func cellsOf(v godot.Value) ([]cell, error) {
	if v == nil {
		return nil, nil
	}
	d, ok := v.(godot.Dictionary)
	if !ok {
		return nil, fmt.Errorf("data is a %s, not a Dictionary", godot.FormatValue(v))
	}
	for _, e := range d.Entries {
		if k, ok := e.Key.(godot.String); ok && k == "cells" {
			a, ok := e.Value.(godot.PackedInt32Array)
			if !ok {
				return nil, fmt.Errorf("data.cells is not a PackedInt32Array")
			}
			return decodeCells(a)
		}
	}
	return nil, nil
}

// withCells returns data (a Dictionary or nil) with its cells replaced.
func withCells(data godot.Value, cells []cell) godot.Value {
	d, _ := data.(godot.Dictionary)
	entries := slices.Clone(d.Entries)
	for i, e := range entries {
		if k, ok := e.Key.(godot.String); ok && k == "cells" {
			entries[i].Value = encodeCells(cells)
			d.Entries = entries
			return d
		}
	}
	d.Entries = append(entries, godot.DictEntry{Key: godot.String("cells"), Value: encodeCells(cells)})
	return d
}

type gridArgs struct {
	NodePath  string        `json:"node_path" jsonschema:"path of the GridMap node relative to the scene root"`
	Position  []int         `json:"position" jsonschema:"integer grid cell [x, y, z] (each -32768..32767)"`
	ScenePath sdk.ScenePath `json:"scene_path,omitempty" jsonschema:"the res:// scene to edit (in the editor it becomes the active tab); default the active scene"`
}

func (a gridArgs) scene() sdk.ScenePath { return a.ScenePath }

func (a gridArgs) pos() ([3]int16, error) {
	var p [3]int16
	if len(a.Position) != 3 {
		return p, nodeedit.Invalid("position", "pass [x, y, z], e.g. [0, 0, 0]", "'position' must be a [x, y, z] integer array; got %d numbers", len(a.Position))
	}
	for i, v := range a.Position {
		if v < -32768 || v > 32767 {
			return p, nodeedit.Invalid("position", "GridMap cells are int16: pass coordinates in -32768..32767", "position[%d] = %d is outside the GridMap's range", i, v)
		}
		p[i] = int16(v)
	}
	return p, nil
}

type setCellArgs struct {
	gridArgs
	Item        *int `json:"item" jsonschema:"MeshLibrary item id to place (add_mesh_library_item answers it); a negative item clears the cell"`
	Orientation int  `json:"orientation,omitempty" jsonschema:"cell orientation 0-23 (default 0): Godot's 24 right-angle rotations, as GridMap.get_orthogonal_index_from_basis numbers them (10 turns 180° about Y, 16 turns 90° about Y, 22 turns 270° about Y)" minimum:"0" maximum:"23"`
}

func (a setCellArgs) check() ([3]int16, int, error) {
	p, err := a.pos()
	if err != nil {
		return p, 0, err
	}
	if a.Item == nil {
		return p, 0, nodeedit.Invalid("item", "pass the MeshLibrary item id, or -1 to clear the cell", "item is required")
	}
	if *a.Item > 0xffff {
		return p, 0, nodeedit.Invalid("item", "a GridMap cell holds item ids 0-65535", "item %d is out of range", *a.Item)
	}
	return p, *a.Item, nil
}

func setCellParams(in setCellArgs) (map[string]any, error) {
	p, item, err := in.check()
	if err != nil {
		return nil, err
	}
	return map[string]any{"node_path": in.NodePath, "position": []int{int(p[0]), int(p[1]), int(p[2])}, "item": item, "orientation": in.Orientation}, nil
}

func getCellParams(in gridArgs) (map[string]any, error) {
	p, err := in.pos()
	if err != nil {
		return nil, err
	}
	return map[string]any{"node_path": in.NodePath, "position": []int{int(p[0]), int(p[1]), int(p[2])}}, nil
}

// gridMap is a GridMap node of an open scene.
type gridMap struct {
	sec   *godot.Node
	tn    *godot.TreeNode
	class string
}

// get is the node's value of key: its own, else the instanced scene's.
func (g gridMap) get(key string) (godot.Value, *godot.File) {
	if v, ok := g.sec.Get(key); ok {
		return v, nil
	}
	if g.tn != nil {
		if v, f, ok := g.tn.Get(key); ok {
			return v, f
		}
	}
	return nil, nil
}

// findGridMap resolves node_path to a GridMap: the node's own section, or
// the override section of a node of an instanced scene.
func findGridMap(ctx context.Context, call *sdk.Call, s *nodeedit.Scene, path string, write bool) (gridMap, error) {
	var g gridMap
	var err error
	if write {
		g.sec, g.tn, err = s.Override(path)
	} else {
		g.sec, g.tn, err = s.Lookup(path)
	}
	if err != nil {
		return g, err
	}
	if g.sec == nil && g.tn != nil {
		return g, nodeedit.Invalid("node_path", "attach the Godot editor to read it", "'%s' lies in %s, which cannot be read headless", path, g.tn.Instance())
	}
	g.class = g.sec.Type()
	if g.tn != nil && g.tn.Class() != "" {
		g.class = g.tn.Class()
	}
	if g.class == "" {
		g.class = nodeedit.NodeClass(ctx, call, s.Doc, g.sec)
	}
	// An instance of a binary scene has no known class; its data says
	// what it is.
	if _, has := g.sec.Get("data"); g.class == "" && has {
		g.class = "GridMap"
	}
	if g.class != "GridMap" {
		return g, nodeedit.Invalid("node_path", "pass the path of a GridMap node (godot_inspection_get_scene_tree lists the scene's nodes)", "Node is not a GridMap. ('%s' is a %s)", path, orUnknown(g.class))
	}
	return g, nil
}

func orUnknown(s string) string {
	if s == "" {
		return "node of unknown class"
	}
	return s
}

func gridmapGetCell(ctx context.Context, call *sdk.Call, in gridArgs) (sdk.Result, error) {
	p, err := in.pos()
	if err != nil {
		return sdk.Result{}, err
	}
	s, err := nodeedit.OpenScene(ctx, call, string(in.ScenePath))
	if err != nil {
		return sdk.Result{}, err
	}
	g, err := findGridMap(ctx, call, s, in.NodePath, false)
	if err != nil {
		return sdk.Result{}, err
	}
	data, _ := g.get("data")
	cells, err := cellsOf(data)
	if err != nil {
		return sdk.Result{}, badData(s.Path, in.NodePath, err)
	}
	out := map[string]any{"node_path": in.NodePath, "position": []int{int(p[0]), int(p[1]), int(p[2])}, "item": -1, "orientation": -1, "empty": true}
	for _, c := range cells {
		if c.at(p[0], p[1], p[2]) {
			out["item"], out["orientation"], out["empty"] = c.Item, c.Orientation, false
		}
	}
	return sdk.JSON(out), nil
}

func badData(scene, node string, err error) error {
	return &sdk.Error{Code: sdk.CodePreconditionFailed, Message: fmt.Sprintf("the GridMap %s of %s has data Godot cannot read: %v", node, scene, err),
		Hint: "open and re-save the scene in the Godot editor, or restore it with godot_undo"}
}

func gridmapSetCell(ctx context.Context, call *sdk.Call, in setCellArgs) (sdk.Result, error) {
	p, item, err := in.check()
	if err != nil {
		return sdk.Result{}, err
	}
	s, err := nodeedit.OpenScene(ctx, call, string(in.ScenePath))
	if err != nil {
		return sdk.Result{}, err
	}
	g, err := findGridMap(ctx, call, s, in.NodePath, true)
	if err != nil {
		return sdk.Result{}, err
	}
	lib, libFile := g.get("mesh_library")
	if lib == nil && (g.sec.Type() != "" || g.tn != nil && !g.tn.Opaque()) {
		return sdk.Result{}, &sdk.Error{Code: sdk.CodeInvalidArgument, Required: "mesh_library",
			Message: "GridMap has no mesh_library; assign one first.",
			Hint:    "godot_scene_3d_create_mesh_library {\"node_path\": \"" + in.NodePath + "\"}, then godot_scene_3d_add_mesh_library_item"}
	}
	if item >= 0 && libFile == nil && lib != nil {
		if ids, ok := libraryItems(ctx, call, s.Doc, lib); ok && !slices.Contains(ids, item) {
			return sdk.Result{}, nodeedit.Invalid("item", fmt.Sprintf("its items are %s; add one with godot_scene_3d_add_mesh_library_item", idList(ids)),
				"the GridMap's MeshLibrary has no item %d", item)
		}
	}
	data, _ := g.get("data")
	cells, err := cellsOf(data)
	if err != nil {
		return sdk.Result{}, badData(s.Path, in.NodePath, err)
	}
	i := slices.IndexFunc(cells, func(c cell) bool { return c.at(p[0], p[1], p[2]) })
	switch {
	case item < 0 && i >= 0:
		cells = slices.Delete(cells, i, i+1)
	case item < 0:
	case i >= 0:
		cells[i].Item, cells[i].Orientation = item, in.Orientation
	default:
		cells = append(cells, cell{X: p[0], Y: p[1], Z: p[2], Item: item, Orientation: in.Orientation})
	}
	g.sec.SetOrdered("data", withCells(data, cells), dataRank())
	s.Edited = true
	out := map[string]any{"node_path": in.NodePath, "position": []int{int(p[0]), int(p[1]), int(p[2])}, "item": item}
	return s.CommitAnswer(fmt.Sprintf("Set GridMap cell (%d, %d, %d)", p[0], p[1], p[2]), out)
}

// dataRank places data where GridMap saves it: after the class's own
// properties (it comes from _get_property_list), before script and
// metadata.
func dataRank() func(string) int {
	rank := nodeedit.DB().PropertyRank("GridMap")
	after := 0
	if c, ok := nodeedit.DB().Class("GridMap"); ok {
		for _, p := range c.Properties {
			after = max(after, rank(p.Name))
		}
	}
	return func(k string) int {
		if k == "data" {
			return after + 1
		}
		return rank(k)
	}
}

func idList(ids []int) string {
	if len(ids) == 0 {
		return "none"
	}
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = strconv.Itoa(id)
	}
	return strings.Join(s, ", ")
}

// libraryItems lists the item ids of a MeshLibrary value of doc: a
// sub-resource of doc or a .tres it references. ok is false when the
// library cannot be read (it is then not checked).
func libraryItems(ctx context.Context, call *sdk.Call, doc *godot.File, lib godot.Value) ([]int, bool) {
	switch v := lib.(type) {
	case godot.SubResource:
		if sr := doc.SubResource(v.ID); sr != nil {
			return itemIDs(sr.Section), true
		}
	case godot.ExtResource:
		if e := doc.ExtResource(v.ID); e != nil && strings.HasSuffix(e.Path(), ".tres") {
			if l, err := readLibrary(ctx, call, e.Path()); err == nil {
				return itemIDs(l.sec), true
			}
		}
	}
	return nil, false
}

// itemIDs lists the ids of a MeshLibrary's item/N/... properties.
func itemIDs(sec *godot.Section) []int {
	var ids []int
	for _, k := range sec.Keys() {
		if id, _, ok := itemKey(k); ok && !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	sort.Ints(ids)
	return ids
}

// itemKey splits "item/N/field".
func itemKey(k string) (int, string, bool) {
	rest, ok := strings.CutPrefix(k, "item/")
	if !ok {
		return 0, "", false
	}
	n, field, ok := strings.Cut(rest, "/")
	if !ok {
		return 0, "", false
	}
	id, err := strconv.Atoi(n)
	return id, field, err == nil
}

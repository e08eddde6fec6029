package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/tiledata"
)

// doc is a scene or resource file read through the workspace and parsed.
type doc struct {
	file sdk.File
	res  *godot.File
}

// readDoc reads and parses a .tscn or .tres.
func readDoc(ctx context.Context, call *sdk.Call, path string) (*doc, error) {
	f, err := call.Workspace().Read(ctx, path)
	if err != nil {
		return nil, err
	}
	res, err := call.Workspace().ParseFile(ctx, f)
	if err != nil {
		return nil, &sdk.Error{Code: sdk.CodePreconditionFailed, Message: fmt.Sprintf("%s cannot be parsed: %v", f.Path, err),
			Hint: "fix the file (godot-mcp check names the problem) or restore it with godot_undo", Err: err}
	}
	return &doc{file: f, res: res}, nil
}

// openScene reads scene, or the workspace's active scene.
func openScene(ctx context.Context, call *sdk.Call, scene sdk.ScenePath) (*doc, error) {
	scenePath := string(scene)
	if scenePath == "" {
		active, err := call.Workspace().ActiveScene(ctx)
		if err != nil {
			return nil, err
		}
		if active == "" {
			return nil, &sdk.Error{Code: sdk.CodePreconditionFailed, Message: "no scene is active",
				Hint: "pass scene_path (res://….tscn), or open a scene first", Required: "active_scene"}
		}
		scenePath = active
	}
	if !strings.HasSuffix(scenePath, ".tscn") {
		return nil, invalid("pass a res:// path ending in .tscn", "scene_path %q is not a text scene", scenePath)
	}
	return readDoc(ctx, call, scenePath)
}

// commit writes the changed docs as one undoable action and returns the
// result fields with what changed (or, in a dry run, would change).
func commit(ctx context.Context, call *sdk.Call, name string, out map[string]any, docs ...*doc) (sdk.Result, error) {
	return commitNew(ctx, call, name, out, "", nil, docs...)
}

// commitNew is commit that also creates the file newPath (unless "").
func commitNew(ctx context.Context, call *sdk.Call, name string, out map[string]any, newPath string, newData []byte, docs ...*doc) (sdk.Result, error) {
	tx := call.Workspace().Begin(name)
	if newPath != "" {
		tx.Write(newPath, newData, "")
	}
	for _, d := range docs {
		tx.Write(d.file.Path, d.res.Bytes(), d.file.Version)
	}
	res, err := tx.Commit(ctx)
	if err != nil {
		return sdk.Result{}, err
	}
	out["dry_run"] = res.DryRun
	out["changes"] = res.Files
	if len(res.Warnings) > 0 {
		out["warnings"] = res.Warnings
	}
	return sdk.JSON(out), nil
}

// tileMap is one layer of a tile map node, decoded for editing.
type tileMap struct {
	node   *godot.Node
	legacy bool
	layer  int // legacy TileMap layer index
	format int // legacy TileMap "format"
	cells  *tiledata.Layer
}

// errNotTileMap is the contract's refusal for other node types.
func errNotTileMap(path, typ string) error {
	return invalid("pass the path of a TileMapLayer or TileMap node (godot_tilemap_layers lists a node's layers)",
		"Node is not a TileMap/TileMapLayer. (%s is a %s)", path, typ)
}

func findNode(d *doc, path string) (*godot.Node, error) {
	if path == "" {
		return nil, invalid("pass node_path relative to the scene root, e.g. \"Ground\" or \".\"", "node_path is required")
	}
	n := d.res.Node(path)
	if n == nil {
		names := make([]string, 0, 8)
		for _, c := range d.res.Nodes() {
			if t := c.Type(); t == "TileMapLayer" || t == "TileMap" {
				names = append(names, c.Path())
			}
		}
		return nil, &sdk.Error{Code: sdk.CodeNotFound, Message: fmt.Sprintf("no node %q in %s", path, d.file.Path),
			Hint: fmt.Sprintf("tile map nodes of this scene: %s", list(names))}
	}
	return n, nil
}

func list(s []string) string {
	if len(s) == 0 {
		return "(none)"
	}
	return strings.Join(s, ", ")
}

// layerCount is the number of layers of a legacy TileMap: one past the
// highest layer_N/ property, at least one.
func layerCount(n *godot.Node) int {
	count := 1
	for _, k := range n.Keys() {
		var i int
		var rest string
		if _, err := fmt.Sscanf(k, "layer_%d/%s", &i, &rest); err == nil && i+1 > count {
			count = i + 1
		}
	}
	return count
}

// openLayer decodes the cells of node path (layer selects a legacy
// TileMap's layer; nil is 0).
func openLayer(d *doc, path string, layer *int) (*tileMap, error) {
	n, err := findNode(d, path)
	if err != nil {
		return nil, err
	}
	switch n.Type() {
	case "TileMapLayer":
		m := &tileMap{node: n}
		var data []byte
		if v, ok := n.Get("tile_map_data"); ok {
			b, ok := v.(godot.PackedByteArray)
			if !ok {
				return nil, &sdk.Error{Code: sdk.CodePreconditionFailed, Message: fmt.Sprintf("%s: tile_map_data of %s is a %s, not a PackedByteArray", d.file.Path, path, v.Kind()),
					Hint: "repair the scene file; Godot saves tile_map_data as PackedByteArray(\"…\")"}
			}
			data = b.Data
		}
		m.cells, err = tiledata.DecodeLayer(data)
		if err != nil {
			return nil, corrupt(d, path, err)
		}
		return m, nil
	case "TileMap":
		l := 0
		if layer != nil {
			l = *layer
		}
		if count := layerCount(n); l < 0 || l >= count {
			return nil, invalid(fmt.Sprintf("use a layer index from 0 to %d (godot_tilemap_layers lists them)", count-1),
				"layer %d is out of range: %s has %d layer(s)", l, path, count)
		}
		m := &tileMap{node: n, legacy: true, layer: l}
		if v, ok := n.Get("format"); ok {
			if i, ok := v.(godot.Int); ok {
				m.format = int(i)
			}
		}
		var ints []int32
		if v, ok := n.Get(fmt.Sprintf("layer_%d/tile_data", l)); ok {
			a, ok := v.(godot.PackedInt32Array)
			if !ok {
				return nil, &sdk.Error{Code: sdk.CodePreconditionFailed, Message: fmt.Sprintf("%s: layer_%d/tile_data of %s is a %s, not a PackedInt32Array", d.file.Path, l, path, v.Kind()),
					Hint: "repair the scene file"}
			}
			ints = a
		}
		cells, err := tiledata.DecodeLegacy(ints, m.format)
		if err != nil {
			return nil, corrupt(d, path, err)
		}
		m.cells = tiledata.NewLayer(cells)
		return m, nil
	}
	return nil, errNotTileMap(path, n.Type())
}

func corrupt(d *doc, path string, err error) error {
	return &sdk.Error{Code: sdk.CodePreconditionFailed, Message: fmt.Sprintf("%s: the tile data of %s is corrupt: %v", d.file.Path, path, err),
		Hint: "restore the scene (godot_undo, or version control) or clear the layer in the Godot editor", Err: err}
}

// save writes the layer's cells back into the node, the way the editor
// saves them: base64 bytes for a TileMapLayer (the property omitted when
// empty), format 2 int32 triples for a legacy TileMap.
func (m *tileMap) save() {
	if !m.legacy {
		if m.cells.Len() == 0 {
			m.node.Clear("tile_map_data")
			return
		}
		m.node.Set("tile_map_data", godot.PackedByteArray{Data: m.cells.Encode(), Base64: true})
		return
	}
	if m.format != tiledata.LegacyFormatAtlas {
		m.node.Set("format", godot.Int(tiledata.LegacyFormatAtlas))
		m.format = tiledata.LegacyFormatAtlas
	}
	m.node.Set(fmt.Sprintf("layer_%d/tile_data", m.layer), godot.PackedInt32Array(tiledata.EncodeLegacy(m.cells.Cells())))
}

// layerOut is the result's "layer": the index for a TileMap, null for a
// TileMapLayer.
func (m *tileMap) layerOut() any {
	if m.legacy {
		return m.layer
	}
	return nil
}

// cellOut is one cell in results, with the addon's raw [x, y] arrays.
type cellOut struct {
	Coords          [2]int `json:"coords"`
	SourceID        int    `json:"source_id"`
	AtlasCoords     [2]int `json:"atlas_coords"`
	AlternativeTile int    `json:"alternative_tile"`
}

func cellJSON(c tiledata.Cell) cellOut {
	return cellOut{
		Coords:          [2]int{int(c.Coords.X), int(c.Coords.Y)},
		SourceID:        int(c.SourceID),
		AtlasCoords:     [2]int{int(c.AtlasCoords.X), int(c.AtlasCoords.Y)},
		AlternativeTile: int(c.Alternative),
	}
}

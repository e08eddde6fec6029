package main

import (
	"context"
	"fmt"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot"
	"github.com/godot-mcp/godot-mcp/sdk/godot/tiledata"
)

func (a layerArgs) layerIndex() int {
	if a.Layer == nil {
		return 0
	}
	return *a.Layer
}

// open reads the scene (headless) and decodes the cells of the layer the
// arguments name.
func (a layerArgs) open(ctx context.Context, call *sdk.Call) (*doc, *tileMap, error) {
	d, err := openScene(ctx, call, a.ScenePath)
	if err != nil {
		return nil, nil, err
	}
	m, err := openLayer(d, a.NodePath, a.Layer)
	if err != nil {
		return nil, nil, err
	}
	return d, m, nil
}

func layers(ctx context.Context, call *sdk.Call, in nodeArgs) (sdk.Result, error) {
	d, err := openScene(ctx, call, in.ScenePath)
	if err != nil {
		return sdk.Result{}, err
	}
	n, err := findNode(d, in.NodePath)
	if err != nil {
		return sdk.Result{}, err
	}
	var ls []map[string]any
	switch n.Type() {
	case "TileMapLayer":
		enabled := true
		if v, ok := n.Get("enabled"); ok {
			if b, ok := v.(godot.Bool); ok {
				enabled = bool(b)
			}
		}
		ls = append(ls, map[string]any{"index": 0, "name": n.Name(), "enabled": enabled})
	case "TileMap":
		for i := range layerCount(n) {
			name, enabled := "", true
			if v, ok := n.Get(fmt.Sprintf("layer_%d/name", i)); ok {
				if s, ok := v.(godot.String); ok {
					name = string(s)
				}
			}
			if v, ok := n.Get(fmt.Sprintf("layer_%d/enabled", i)); ok {
				if b, ok := v.(godot.Bool); ok {
					enabled = bool(b)
				}
			}
			ls = append(ls, map[string]any{"index": i, "name": name, "enabled": enabled})
		}
	default:
		return sdk.Result{}, errNotTileMap(in.NodePath, n.Type())
	}
	return sdk.JSON(map[string]any{"node_path": in.NodePath, "node_type": n.Type(), "layers": ls}), nil
}

func getCell(ctx context.Context, call *sdk.Call, in cellArgs) (sdk.Result, error) {
	c, err := vec2("coords", in.Coords, nil)
	if err != nil {
		return sdk.Result{}, err
	}
	if err := cellRange("coords", c); err != nil {
		return sdk.Result{}, err
	}
	_, m, err := in.open(ctx, call)
	if err != nil {
		return sdk.Result{}, err
	}
	out := map[string]any{"node_path": in.NodePath, "coords": c[:]}
	if cell, ok := m.cells.Get(tiledata.Coords{X: int16(c[0]), Y: int16(c[1])}); ok {
		j := cellJSON(cell)
		out["source_id"], out["atlas_coords"], out["alternative_tile"], out["empty"] = j.SourceID, j.AtlasCoords, j.AlternativeTile, false
	} else {
		out["source_id"], out["atlas_coords"], out["alternative_tile"], out["empty"] = -1, []int{-1, -1}, -1, true
	}
	return sdk.JSON(out), nil
}

// defaultCellPage is the most cells of a get_used_cells page without a
// limit: about 20 KB (a cell is some 70 bytes of JSON).
const defaultCellPage = 250

func getUsedCells(ctx context.Context, call *sdk.Call, in usedCellsArgs) (sdk.Result, error) {
	_, m, err := in.open(ctx, call)
	if err != nil {
		return sdk.Result{}, err
	}
	cells := make([]cellOut, 0, m.cells.Len())
	for c := range m.cells.All() {
		if err := sdk.Interrupted(ctx, len(cells)); err != nil {
			return sdk.Result{}, err
		}
		cells = append(cells, cellJSON(c))
	}
	return cellsPage(map[string]any{"node_path": in.NodePath, "layer": m.layerOut()}, cells, in), nil
}

// getUsedCellsEditor reads the cells from the editor and pages them as
// headless does: the addon answers every cell at once.
func getUsedCellsEditor(ctx context.Context, _ *sdk.Call, ed *sdk.Editor, in usedCellsArgs) (sdk.Result, error) {
	if err := ed.OpenScene(ctx, string(in.scene())); err != nil {
		return sdk.Result{}, err
	}
	p, _ := layerParams(in.layerArgs)
	var out map[string]any
	if err := ed.Query(ctx, "cmd_tilemap_get_used_cells", p, &out); err != nil {
		return sdk.Result{}, err
	}
	if out == nil {
		out = map[string]any{}
	}
	cells, _ := out["cells"].([]any)
	return cellsPage(out, cells, in), nil
}

// cellsPage answers one page of cells in the shape of both modes: the
// answer's own fields, count (every cell), the page's cells and where the
// page sits (sdk.Page).
func cellsPage[T any](out map[string]any, cells []T, in usedCellsArgs) sdk.Result {
	page, p := sdk.Paginate(cells, in.Offset, in.Limit, defaultCellPage)
	out["count"], out["cells"] = len(cells), page
	p.AddTo(out)
	return sdk.JSON(out)
}

func (t tile) cell(x, y int) tiledata.Cell {
	return tiledata.Cell{
		Coords:      tiledata.Coords{X: int16(x), Y: int16(y)},
		SourceID:    uint16(t.source),
		AtlasCoords: tiledata.AtlasCoords{X: uint16(t.atlas[0]), Y: uint16(t.atlas[1])},
		Alternative: uint16(t.alt),
	}
}

// paint sets cell (x, y) of l to t, or erases it.
func (t tile) paint(l *tiledata.Layer, x, y int) {
	if t.erase {
		l.Erase(tiledata.Coords{X: int16(x), Y: int16(y)})
	} else {
		l.Set(t.cell(x, y))
	}
}

func (t tile) params(p map[string]any, layer int) map[string]any {
	p["source_id"], p["atlas_coords"], p["alternative_tile"], p["layer"] = t.source, t.atlasSent[:], t.alt, layer
	return p
}

func setCell(ctx context.Context, call *sdk.Call, in setCellArgs) (sdk.Result, error) {
	c, err := vec2("coords", in.Coords, nil)
	if err != nil {
		return sdk.Result{}, err
	}
	t, err := in.tile()
	if err != nil {
		return sdk.Result{}, err
	}
	if err := cellRange("coords", c); err != nil {
		return sdk.Result{}, err
	}
	d, m, err := in.open(ctx, call)
	if err != nil {
		return sdk.Result{}, err
	}
	if err := m.checkPaint(ctx, call, d, in.NodePath, t); err != nil {
		return sdk.Result{}, err
	}
	t.paint(m.cells, c[0], c[1])
	m.save()
	src := t.source
	if t.erase {
		src = -1
	}
	out := map[string]any{"node_path": in.NodePath, "coords": c[:], "source_id": src, "layer": m.layerOut()}
	return commit(ctx, call, fmt.Sprintf("Set cell (%d, %d) of %s", c[0], c[1], in.NodePath), out, d)
}

// checkPaint refuses a tile the tile map's TileSet does not have.
func (m *tileMap) checkPaint(ctx context.Context, call *sdk.Call, d *doc, node string, t tile) error {
	if t.erase {
		return nil
	}
	ts, err := tilesetOfNode(ctx, call, d, m.node)
	if err != nil {
		return err
	}
	return checkPaint(ts, node, t)
}

func fillRect(ctx context.Context, call *sdk.Call, in fillArgs) (sdk.Result, error) {
	r, err := rect4(in.Rect)
	if err != nil {
		return sdk.Result{}, err
	}
	t, err := in.tile()
	if err != nil {
		return sdk.Result{}, err
	}
	d, m, err := in.open(ctx, call)
	if err != nil {
		return sdk.Result{}, err
	}
	if err := m.checkPaint(ctx, call, d, in.NodePath, t); err != nil {
		return sdk.Result{}, err
	}
	if err := fill(ctx, m.cells, r, t); err != nil {
		return sdk.Result{}, err
	}
	m.save()
	out := map[string]any{"node_path": in.NodePath, "rect": r[:], "cells": r[2] * r[3], "layer": m.layerOut()}
	return commit(ctx, call, fmt.Sprintf("Fill %dx%d cells of %s", r[2], r[3], in.NodePath), out, d)
}

// fill paints (or erases) rect r row by row, the order the editor's fill
// visits cells in, so new cells are appended in that order. A cancelled
// call stops between rows, before anything is written.
func fill(ctx context.Context, l *tiledata.Layer, r [4]int, t tile) error {
	for y := r[1]; y < r[1]+r[3]; y++ {
		if err := sdk.Stopped(ctx); err != nil {
			return err
		}
		for x := r[0]; x < r[0]+r[2]; x++ {
			t.paint(l, x, y)
		}
	}
	return nil
}

func clearLayer(ctx context.Context, call *sdk.Call, in layerArgs) (sdk.Result, error) {
	d, m, err := in.open(ctx, call)
	if err != nil {
		return sdk.Result{}, err
	}
	n := m.cells.Len()
	if n > MaxCells {
		return sdk.Result{}, invalid("erase it in parts with godot_tilemap_fill_rect and source_id -1",
			"%s has %d cells, more than the %d one clear may erase", in.NodePath, n, MaxCells)
	}
	m.cells = tiledata.NewLayer(nil)
	m.save()
	out := map[string]any{"node_path": in.NodePath, "layer": m.layerOut(), "cleared": n}
	return commit(ctx, call, "Clear "+in.NodePath, out, d)
}

package tiledata

import (
	"encoding/base64"
	"testing"
)

// benchCells is a 128x128 layer (16,384 cells, the fill_rect limit) in row
// order, as a fill leaves it.
func benchCells() []Cell {
	cells := make([]Cell, 0, 128*128)
	for y := range 128 {
		for x := range 128 {
			cells = append(cells, Cell{Coords: Coords{X: int16(x - 64), Y: int16(y - 64)}, SourceID: 1,
				AtlasCoords: AtlasCoords{X: uint16(x % 4), Y: uint16(y % 4)}})
		}
	}
	return cells
}

func BenchmarkEncode16384(b *testing.B) {
	cells := benchCells()
	b.SetBytes(int64(2 + 12*len(cells)))
	for b.Loop() {
		_ = EncodeBase64(cells)
	}
}

func BenchmarkDecode16384(b *testing.B) {
	text := EncodeBase64(benchCells())
	n, _ := base64.StdEncoding.DecodeString(text)
	b.SetBytes(int64(len(n)))
	for b.Loop() {
		if _, err := DecodeLayer(n); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLayerFill16384 sets 16,384 cells over an existing 16,384-cell
// layer, half of them new: the in-memory part of fill_rect.
func BenchmarkLayerFill16384(b *testing.B) {
	cells := benchCells()
	for b.Loop() {
		l := NewLayer(cells)
		for y := range 128 {
			for x := range 128 {
				l.Set(Cell{Coords: Coords{X: int16(x), Y: int16(y)}, SourceID: 2})
			}
		}
		_ = l.Encode()
	}
}

// benchConnect paints a 128x128 rectangle (16,384 cells, the most one
// paint_terrain call takes) on an empty layer with every tile of set.
func benchConnect(b *testing.B, set TerrainSet) {
	cells := make([]Coords, 0, 128*128)
	for y := range 128 {
		for x := range 128 {
			cells = append(cells, Coords{X: int16(x), Y: int16(y)})
		}
	}
	empty := func(Coords) int { return -1 }
	for b.Loop() {
		if _, _, err := ConnectTerrain(set, empty, cells, 0); err != nil {
			b.Fatal(err)
		}
	}
}

// 256 patterns of eight bits.
func BenchmarkConnectTerrainSquare16384(b *testing.B) {
	benchConnect(b, everyTile(Grid{}, MatchCornersAndSides))
}

// 4,096 patterns of twelve bits.
func BenchmarkConnectTerrainHexagon16384(b *testing.B) {
	benchConnect(b, everyTile(Grid{Shape: ShapeHexagon, Axis: AxisVertical}, MatchCornersAndSides))
}

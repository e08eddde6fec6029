package tiledata

import (
	"encoding/binary"
	"fmt"
)

// Values of a TileMap node's "format" property, which says how its
// layer_N/tile_data arrays are laid out. They are the engine's
// TileMapDataFormat enum (TILE_MAP_DATA_FORMAT_1..3 = 0..2), so the number
// written in the file is one less than the engine's name for it.
const (
	// LegacyFormatTileID is the oldest layout (Godot 3 files without a
	// format line): two int32s per cell, the coordinates and a Godot 3 tile
	// id with flip flags.
	LegacyFormatTileID = 0
	// LegacyFormatAutotile is what Godot 3 writes ("format = 1"): three
	// int32s per cell, the two above plus autotile coordinates.
	LegacyFormatAutotile = 1
	// LegacyFormatAtlas is what Godot 4.0 to 4.2 write ("format = 2"):
	// three int32s per cell holding the same 12 bytes as a tile_map_data
	// record. TileMapPattern's tile_data always uses this layout.
	LegacyFormatAtlas = 2
)

// Godot3Cell is one cell of Godot 3 TileMap data, as stored. Godot 3 named a
// tile by a single id in its TileSet and kept the flips beside it; Godot 4
// can only map that to a source, atlas tile and alternative with the
// converted TileSet in hand (TileSet::compatibility_tilemap_map).
type Godot3Cell struct {
	Coords Coords
	// TileID is the Godot 3 TileSet tile id (29 bits).
	TileID                  uint32
	FlipH, FlipV, Transpose bool
	// Autotile is the autotile or atlas subtile position; always zero in
	// LegacyFormatTileID data.
	Autotile Coords
}

// Godot 3 packed the transform flags into the top three bits of the tile id.
const (
	g3FlipH     = 1 << 29
	g3FlipV     = 1 << 30
	g3Transpose = 1 << 31
	g3IDMask    = 1<<29 - 1
)

// Cell converts c the way Godot 4 does when the TileMap has no TileSet to
// consult: the tile id becomes the source id, the autotile position the
// atlas coordinates, and the flips a small alternative id (FlipH 1, FlipV 2,
// Transpose 4). It fails when the tile id does not fit the 16-bit source
// id of the 4.3+ format.
func (c Godot3Cell) Cell() (Cell, error) {
	if c.TileID > 0xFFFF {
		return Cell{}, fmt.Errorf("tiledata: Godot 3 tile id %d at (%d, %d) does not fit a 16-bit TileSet source id",
			c.TileID, c.Coords.X, c.Coords.Y)
	}
	var alt uint16
	if c.FlipH {
		alt |= 1
	}
	if c.FlipV {
		alt |= 2
	}
	if c.Transpose {
		alt |= 4
	}
	return Cell{
		Coords:   c.Coords,
		SourceID: uint16(c.TileID),
		// The engine stores autotile positions as int16 and writes them
		// back as uint16, so negative ones wrap the same way here.
		AtlasCoords: AtlasCoords{X: uint16(c.Autotile.X), Y: uint16(c.Autotile.Y)},
		Alternative: alt,
	}, nil
}

// legacyStride is the number of int32s per cell in each legacy format.
func legacyStride(format int) (int, error) {
	switch format {
	case LegacyFormatTileID:
		return 2, nil
	case LegacyFormatAutotile, LegacyFormatAtlas:
		return 3, nil
	}
	return 0, fmt.Errorf("tiledata: unknown TileMap format %d; expected 0 or 1 (Godot 3) or 2 (Godot 4.0 to 4.2)", format)
}

// checkLegacy validates the length of legacy data for the given format.
func checkLegacy(data []int32, format int) (int, error) {
	stride, err := legacyStride(format)
	if err != nil {
		return 0, err
	}
	if extra := len(data) % stride; extra != 0 {
		return 0, &DecodeError{Offset: 4 * (len(data) - extra), Reason: fmt.Sprintf(
			"%d int32(s) is not a whole number of cells; TileMap format %d uses %d int32s per cell",
			len(data), format, stride)}
	}
	return stride, nil
}

// DecodeLegacy decodes a TileMap node's layer_N/tile_data array (or a
// TileMapPattern's tile_data), given the node's "format" value.
//
// For LegacyFormatAtlas (2, the Godot 4.0 to 4.2 layout) the result is
// exact: EncodeLegacy gives back the same integers. For the Godot 3 layouts
// (0 and 1) each cell is converted with Godot3Cell.Cell, the engine's
// fallback when no TileSet is attached; use DecodeGodot3 to get the stored
// Godot 3 fields instead. The length must be a whole number of cells, or a
// *DecodeError gives the byte offset of the leftover int32s.
func DecodeLegacy(data []int32, format int) ([]Cell, error) {
	stride, err := checkLegacy(data, format)
	if err != nil {
		return nil, err
	}
	if len(data) == 0 {
		return nil, nil
	}
	cells := make([]Cell, 0, len(data)/stride)
	if format == LegacyFormatAtlas {
		var rec [recordSize]byte
		for i := 0; i < len(data); i += stride {
			putInt32s(rec[:], data[i:i+3])
			cells = append(cells, getRecord(rec[:]))
		}
		return cells, nil
	}
	old, _ := DecodeGodot3(data, format) // length already checked
	for _, g := range old {
		c, err := g.Cell()
		if err != nil {
			return nil, err
		}
		cells = append(cells, c)
	}
	return cells, nil
}

// DecodeGodot3 decodes Godot 3 TileMap data (format 0 or 1) into its stored
// fields, for callers that convert tiles with the help of a TileSet.
func DecodeGodot3(data []int32, format int) ([]Godot3Cell, error) {
	if format != LegacyFormatTileID && format != LegacyFormatAutotile {
		return nil, fmt.Errorf("tiledata: DecodeGodot3 reads TileMap formats 0 and 1, not %d; use DecodeLegacy for format 2", format)
	}
	stride, err := checkLegacy(data, format)
	if err != nil {
		return nil, err
	}
	if len(data) == 0 {
		return nil, nil
	}
	cells := make([]Godot3Cell, 0, len(data)/stride)
	var rec [recordSize]byte
	le := binary.LittleEndian
	for i := 0; i < len(data); i += stride {
		putInt32s(rec[:], data[i:i+stride])
		v := le.Uint32(rec[4:])
		c := Godot3Cell{
			Coords:    Coords{X: int16(le.Uint16(rec[0:])), Y: int16(le.Uint16(rec[2:]))},
			TileID:    v & g3IDMask,
			FlipH:     v&g3FlipH != 0,
			FlipV:     v&g3FlipV != 0,
			Transpose: v&g3Transpose != 0,
		}
		if stride == 3 {
			c.Autotile = Coords{X: int16(le.Uint16(rec[8:])), Y: int16(le.Uint16(rec[10:]))}
		}
		cells = append(cells, c)
	}
	return cells, nil
}

// EncodeLegacy writes cells as LegacyFormatAtlas (format 2) tile_data, three
// int32s per cell, in the given order. This is the layout Godot 4.0 to 4.2
// read, and the one TileMapPattern uses in every 4.x version. No cells give
// an empty, non-nil slice.
func EncodeLegacy(cells []Cell) []int32 {
	out := make([]int32, 0, 3*len(cells))
	var rec [recordSize]byte
	le := binary.LittleEndian
	for _, c := range cells {
		putRecord(rec[:], c)
		out = append(out,
			int32(le.Uint32(rec[0:])),
			int32(le.Uint32(rec[4:])),
			int32(le.Uint32(rec[8:])))
	}
	return out
}

// putInt32s writes ints little-endian into b, which must hold 4*len(ints)
// bytes. The engine reinterprets the int array's memory as bytes on a
// little-endian machine, so this reproduces its view on any host.
func putInt32s(b []byte, ints []int32) {
	for i, v := range ints {
		binary.LittleEndian.PutUint32(b[4*i:], uint32(v))
	}
}

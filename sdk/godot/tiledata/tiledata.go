// Package tiledata reads and writes the cell data of Godot tile maps: the
// tile_map_data byte array of a TileMapLayer node (Godot 4.3+) and the
// layer_N/tile_data integer arrays of the older TileMap node.
//
// A TileMapLayer saves its cells like this:
//
//	[node name="Ground" type="TileMapLayer" parent="."]
//	tile_map_data = PackedByteArray("AAALAPL/AAAAAAAAAAAMAPL/AAAAAAAAAAA...")
//	tile_set = ExtResource("2_tiles")
//
// The base64 text holds a 2-byte format version (always 0) and then one
// 12-byte little-endian record per cell:
//
//	+0  int16   cell x          (may be negative)
//	+2  int16   cell y
//	+4  uint16  TileSet source id
//	+6  uint16  atlas x
//	+8  uint16  atlas y
//	+10 uint16  alternative tile; bits 12, 13, 14 flip and transpose it
//
// Records are in the layer's insertion order, not sorted, and a byte-exact
// writer must keep that order. Decode and Encode do; Layer keeps it while
// cells are edited.
//
// # Reading, editing, writing
//
//	cells, err := tiledata.DecodeBase64(text)
//	if err != nil {
//		return err // names the byte offset of the corruption
//	}
//	layer := tiledata.NewLayer(cells)
//	layer.Set(tiledata.Cell{Coords: tiledata.Coords{X: 3, Y: -2}, SourceID: 1})
//	layer.Erase(tiledata.Coords{X: 0, Y: 0})
//	text = tiledata.EncodeBase64(layer.Cells())
//
// An empty layer is an empty array; Godot omits the property then, and never
// writes a lone 2-byte header. Encode follows suit.
//
// # Legacy TileMap data
//
// Godot 4.0 to 4.2 saved a TileMap node with "format = 2" and, per layer,
// "layer_N/tile_data = PackedInt32Array(...)": three int32s per cell that
// hold the same 12-byte record as above. TileMapPattern resources store
// their tile_data the same way. DecodeLegacy and EncodeLegacy handle this,
// plus the two Godot 3 layouts (format 0 and 1) on read; see DecodeLegacy.
package tiledata

import (
	"encoding/base64"
	"encoding/binary"
	"fmt"
)

// Coords is a cell position in the layer's grid. The format stores each
// axis as int16, so maps span -32768..32767.
type Coords struct {
	X, Y int16
}

// AtlasCoords is a tile position inside a TileSetAtlasSource.
type AtlasCoords struct {
	X, Y uint16
}

// Cell is one tile placed on a layer: one 12-byte record.
type Cell struct {
	Coords      Coords
	SourceID    uint16
	AtlasCoords AtlasCoords
	// Alternative is the alternative tile id as stored, transform flags
	// included. Use AlternativeID and Flags to take it apart.
	Alternative uint16
}

// Transform is the set of transform flags stored in the top bits of an
// alternative tile id (TileSetAtlasSource::TRANSFORM_FLIP_H and friends).
// The engine applies them on top of the alternative's own flip settings, so
// a single atlas tile can be drawn in all eight orientations.
type Transform uint16

// Transform flags, matching TileSetAtlasSource.
const (
	FlipH     Transform = 1 << 12
	FlipV     Transform = 1 << 13
	Transpose Transform = 1 << 14

	// TransformMask covers every transform flag.
	TransformMask = FlipH | FlipV | Transpose
)

// AlternativeID returns the alternative tile id without transform flags,
// the number that names an alternative in the TileSet ("0:0/1 = 1").
func (c Cell) AlternativeID() uint16 { return c.Alternative &^ uint16(TransformMask) }

// Flags returns the cell's transform flags.
func (c Cell) Flags() Transform { return Transform(c.Alternative) & TransformMask }

// FlipH reports whether the tile is mirrored horizontally.
func (c Cell) FlipH() bool { return c.Flags()&FlipH != 0 }

// FlipV reports whether the tile is mirrored vertically.
func (c Cell) FlipV() bool { return c.Flags()&FlipV != 0 }

// Transpose reports whether the tile's x and y axes are swapped.
func (c Cell) Transpose() bool { return c.Flags()&Transpose != 0 }

// WithFlags returns a copy of c whose transform flags are exactly f (bits of
// f outside TransformMask are ignored). The alternative id is kept.
func (c Cell) WithFlags(f Transform) Cell {
	c.Alternative = c.AlternativeID() | uint16(f&TransformMask)
	return c
}

// FormatVersion is the only tile_map_data version Godot knows
// (TILE_MAP_LAYER_DATA_FORMAT_0); the engine rejects anything else.
const FormatVersion = 0

const (
	headerSize = 2
	recordSize = 12
)

// DecodeError reports corrupt tile data. Offset is the byte offset (into the
// byte array, or into the int32 array's bytes for legacy data) where the
// problem starts.
type DecodeError struct {
	Offset int
	Reason string
}

func (e *DecodeError) Error() string {
	return fmt.Sprintf("tiledata: corrupt tile data at byte offset %d: %s", e.Offset, e.Reason)
}

// Decode parses tile_map_data bytes into cells, in stored order.
//
// An empty input is an empty layer. Anything else must start with the 2-byte
// version 0 and continue with whole 12-byte records; a 1-byte input, another
// version or a trailing partial record is a *DecodeError. A lone header
// decodes to no cells, as in the engine, although Encode never writes one.
// Records with the same coordinates are all returned; the engine keeps the
// last one's tile at the first one's position, which is what NewLayer does.
func Decode(data []byte) ([]Cell, error) {
	if len(data) == 0 {
		return nil, nil
	}
	if len(data) < headerSize {
		return nil, &DecodeError{Offset: 0, Reason: fmt.Sprintf(
			"%d byte(s) is shorter than the 2-byte format version header", len(data))}
	}
	if v := binary.LittleEndian.Uint16(data); v != FormatVersion {
		return nil, &DecodeError{Offset: 0, Reason: fmt.Sprintf(
			"unknown format version %d; only version %d (Godot 4.3+) exists", v, FormatVersion)}
	}
	body := data[headerSize:]
	if extra := len(body) % recordSize; extra != 0 {
		off := len(data) - extra
		return nil, &DecodeError{Offset: off, Reason: fmt.Sprintf(
			"trailing partial cell record of %d byte(s); the data after the header must be whole 12-byte records (length 2+12n, got %d)",
			extra, len(data))}
	}
	cells := make([]Cell, len(body)/recordSize)
	for i := range cells {
		cells[i] = getRecord(body[i*recordSize:])
	}
	return cells, nil
}

// Encode writes cells as tile_map_data bytes, in the given order. No cells
// give an empty, non-nil slice: Godot stores an empty layer as an empty
// array, never as a lone header.
func Encode(cells []Cell) []byte {
	if len(cells) == 0 {
		return []byte{}
	}
	out := make([]byte, headerSize+len(cells)*recordSize)
	binary.LittleEndian.PutUint16(out, FormatVersion)
	for i, c := range cells {
		putRecord(out[headerSize+i*recordSize:], c)
	}
	return out
}

// DecodeBase64 decodes the base64 text of a PackedByteArray("...") (standard
// alphabet, padded, as Godot writes it) and then the cells.
func DecodeBase64(text string) ([]Cell, error) {
	data, err := base64.StdEncoding.DecodeString(text)
	if err != nil {
		return nil, fmt.Errorf("tiledata: tile_map_data is not valid standard base64: %w", err)
	}
	return Decode(data)
}

// EncodeBase64 encodes cells as the base64 text Godot writes inside
// PackedByteArray("..."). No cells give "".
func EncodeBase64(cells []Cell) string {
	return base64.StdEncoding.EncodeToString(Encode(cells))
}

// getRecord reads one 12-byte record; b must hold at least 12 bytes.
func getRecord(b []byte) Cell {
	le := binary.LittleEndian
	return Cell{
		Coords:      Coords{X: int16(le.Uint16(b[0:])), Y: int16(le.Uint16(b[2:]))},
		SourceID:    le.Uint16(b[4:]),
		AtlasCoords: AtlasCoords{X: le.Uint16(b[6:]), Y: le.Uint16(b[8:])},
		Alternative: le.Uint16(b[10:]),
	}
}

// putRecord writes one 12-byte record; b must hold at least 12 bytes.
func putRecord(b []byte, c Cell) {
	le := binary.LittleEndian
	le.PutUint16(b[0:], uint16(c.Coords.X))
	le.PutUint16(b[2:], uint16(c.Coords.Y))
	le.PutUint16(b[4:], c.SourceID)
	le.PutUint16(b[6:], c.AtlasCoords.X)
	le.PutUint16(b[8:], c.AtlasCoords.Y)
	le.PutUint16(b[10:], c.Alternative)
}

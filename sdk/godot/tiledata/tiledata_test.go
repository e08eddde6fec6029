package tiledata

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/godot-mcp/godot-mcp/sdk/internal/fixtures"
)

type corpusArray struct {
	file string
	text string // base64 text or comma-separated ints
}

var (
	layerDataRE  = regexp.MustCompile(`tile_map_data = PackedByteArray\("([^"]*)"\)`)
	legacyDataRE = regexp.MustCompile(`(?m)^(?:layer_\d+/)?tile_data = PackedInt32Array\(([^)]*)\)`)
)

// corpusArrays returns every match of re's first group in the corpus's
// scenes and resources.
func corpusArrays(t *testing.T, re *regexp.Regexp) []corpusArray {
	t.Helper()
	root := fixtures.Dir(t)
	var out []corpusArray
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if ext := filepath.Ext(path); ext != ".tscn" && ext != ".tres" {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		for _, m := range re.FindAllSubmatch(data, -1) {
			out = append(out, corpusArray{file: rel, text: string(m[1])})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestCorpusTileMapData(t *testing.T) {
	arrays := corpusArrays(t, layerDataRE)
	if len(arrays) < 11 {
		t.Fatalf("found %d tile_map_data arrays, the corpus has 11", len(arrays))
	}
	total := 0
	var minX, minY int16
	for _, a := range arrays {
		raw, err := base64.StdEncoding.DecodeString(a.text)
		if err != nil {
			t.Fatalf("%s: bad base64: %v", a.file, err)
		}
		cells, err := DecodeBase64(a.text)
		if err != nil {
			t.Errorf("%s: %v", a.file, err)
			continue
		}
		if want := (len(raw) - 2) / 12; len(cells) != want {
			t.Errorf("%s: %d cells from %d bytes, want (len-2)/12 = %d", a.file, len(cells), len(raw), want)
		}
		if got := EncodeBase64(cells); got != a.text {
			t.Errorf("%s: re-encoded base64 differs from the file", a.file)
		}
		if got := NewLayer(cells).Encode(); !bytes.Equal(got, raw) {
			t.Errorf("%s: Layer re-encoding differs from the file", a.file)
		}
		for _, c := range cells {
			// The corpus uses explicit alternatives, never transform flags.
			if c.Flags() != 0 {
				t.Errorf("%s: unexpected transform flags on %+v", a.file, c)
			}
			minX, minY = min(minX, c.Coords.X), min(minY, c.Coords.Y)
		}
		total += len(cells)
	}
	if total != 2103 {
		t.Errorf("decoded %d cells in all, the corpus holds 2,103", total)
	}
	if minX > -16 || minY > -20 {
		t.Errorf("lowest coordinates (%d, %d); the corpus goes down to (-16, -20)", minX, minY)
	}
	t.Logf("%d arrays, %d cells, lowest coordinates (%d, %d)", len(arrays), total, minX, minY)
}

// The navigation_astar demo saves (11,3) before (8,3): stored order is
// insertion order, not sorted, and must survive decoding.
func TestCorpusOrderIsNotSorted(t *testing.T) {
	var found bool
	for _, a := range corpusArrays(t, layerDataRE) {
		if !strings.Contains(a.file, "navigation_astar") {
			continue
		}
		cells, err := DecodeBase64(a.text)
		if err != nil {
			t.Fatal(err)
		}
		i := slices.IndexFunc(cells, func(c Cell) bool { return c.Coords == Coords{11, 3} })
		j := slices.IndexFunc(cells, func(c Cell) bool { return c.Coords == Coords{8, 3} })
		if i < 0 || j < 0 {
			t.Fatalf("%s: cells (11,3) or (8,3) missing", a.file)
		}
		if i > j {
			t.Errorf("%s: (11,3) at %d comes after (8,3) at %d; decoding reordered cells", a.file, i, j)
		}
		found = true
	}
	if !found {
		t.Fatal("navigation_astar tile_map_data not found in the corpus")
	}
}

func parseInts(t *testing.T, s string) []int32 {
	t.Helper()
	var out []int32
	for f := range strings.SplitSeq(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		v, err := strconv.ParseInt(f, 10, 32)
		if err != nil {
			t.Fatalf("bad int %q: %v", f, err)
		}
		out = append(out, int32(v))
	}
	return out
}

// The corpus has no pre-4.3 TileMap, but TileMapPattern stores tile_data in
// the same three-int32 layout, so those arrays exercise the legacy codec.
func TestCorpusLegacyTileData(t *testing.T) {
	arrays := corpusArrays(t, legacyDataRE)
	if len(arrays) == 0 {
		t.Fatal("no PackedInt32Array tile_data in the corpus; expected the 2d-skeleton TileMapPattern arrays")
	}
	for _, a := range arrays {
		ints := parseInts(t, a.text)
		cells, err := DecodeLegacy(ints, LegacyFormatAtlas)
		if err != nil {
			t.Errorf("%s: %v", a.file, err)
			continue
		}
		if len(cells) != len(ints)/3 {
			t.Errorf("%s: %d cells from %d ints", a.file, len(cells), len(ints))
		}
		if got := EncodeLegacy(cells); !slices.Equal(got, ints) {
			t.Errorf("%s: re-encoded %v, file has %v", a.file, got, ints)
		}
	}
	// Spot-check one decoded pattern against a hand reading of its ints:
	// 0 -> (0,0); 393217 = 0x00060001 -> source 1, atlas x 6;
	// 65538 = 0x00010002 -> atlas y 2, alternative 1.
	cells, err := DecodeLegacy([]int32{0, 393217, 65538}, LegacyFormatAtlas)
	if err != nil {
		t.Fatal(err)
	}
	want := Cell{Coords: Coords{0, 0}, SourceID: 1, AtlasCoords: AtlasCoords{6, 2}, Alternative: 1}
	if cells[0] != want {
		t.Errorf("decoded %+v, want %+v", cells[0], want)
	}
}

// record builds one 12-byte record by hand, independent of putRecord.
func record(x, y int16, src, ax, ay, alt uint16) []byte {
	b := make([]byte, 0, 12)
	for _, v := range []uint16{uint16(x), uint16(y), src, ax, ay, alt} {
		b = binary.LittleEndian.AppendUint16(b, v)
	}
	return b
}

func data(records ...[]byte) []byte {
	return slices.Concat(append([][]byte{{0, 0}}, records...)...)
}

func TestDecode(t *testing.T) {
	tests := []struct {
		name string
		in   []byte
		want []Cell
	}{
		{"empty layer", []byte{}, nil},
		{"nil", nil, nil},
		{"lone header", []byte{0, 0}, []Cell{}},
		{"one cell", data(record(1, 2, 3, 4, 5, 6)),
			[]Cell{{Coords{1, 2}, 3, AtlasCoords{4, 5}, 6}}},
		{"negative coordinates", data(record(-16, -20, 0, 0, 0, 0), record(-32768, 32767, 0, 0, 0, 0)),
			[]Cell{{Coords: Coords{-16, -20}}, {Coords: Coords{-32768, 32767}}}},
		{"stored order kept", data(record(11, 3, 0, 0, 0, 0), record(8, 3, 0, 0, 0, 0)),
			[]Cell{{Coords: Coords{11, 3}}, {Coords: Coords{8, 3}}}},
		{"all flags", data(record(0, 0, 65535, 65535, 65535, 0x7001)),
			[]Cell{{SourceID: 65535, AtlasCoords: AtlasCoords{65535, 65535}, Alternative: 0x7001}}},
	}
	for _, tt := range tests {
		got, err := Decode(tt.in)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: Decode = %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

func TestDecodeErrors(t *testing.T) {
	tests := []struct {
		name   string
		in     []byte
		offset int
		msg    string
	}{
		{"one byte", []byte{0}, 0, "shorter than the 2-byte format version header"},
		{"version 1", []byte{1, 0}, 0, "unknown format version 1"},
		{"version 256", append([]byte{0, 1}, record(0, 0, 0, 0, 0, 0)...), 0, "unknown format version 256"},
		{"partial record", []byte{0, 0, 1, 2, 3}, 2, "trailing partial cell record of 3 byte(s)"},
		{"partial second record", append(data(record(0, 0, 0, 0, 0, 0)), 9, 9), 14, "trailing partial cell record of 2 byte(s)"},
		{"eleven bytes", data(record(0, 0, 0, 0, 0, 0)[:11]), 2, "length 2+12n, got 13"},
	}
	for _, tt := range tests {
		cells, err := Decode(tt.in)
		if err == nil {
			t.Errorf("%s: Decode = %v, want an error", tt.name, cells)
			continue
		}
		var de *DecodeError
		if !errors.As(err, &de) {
			t.Errorf("%s: error %T is not a *DecodeError", tt.name, err)
			continue
		}
		if de.Offset != tt.offset {
			t.Errorf("%s: offset %d, want %d", tt.name, de.Offset, tt.offset)
		}
		msg := err.Error()
		if !strings.Contains(msg, tt.msg) || !strings.Contains(msg, "byte offset "+strconv.Itoa(tt.offset)) {
			t.Errorf("%s: error %q should contain %q and the byte offset %d", tt.name, msg, tt.msg, tt.offset)
		}
	}
	if _, err := DecodeBase64("AAA*"); err == nil || !strings.Contains(err.Error(), "base64") {
		t.Errorf("DecodeBase64 of bad text: %v, want a base64 error", err)
	}
}

func TestEncode(t *testing.T) {
	if got := Encode(nil); got == nil || len(got) != 0 {
		t.Errorf("Encode(nil) = %#v, want an empty non-nil slice (never a lone header)", got)
	}
	if got := EncodeBase64(nil); got != "" {
		t.Errorf("EncodeBase64(nil) = %q, want \"\"", got)
	}
	cells := []Cell{
		{Coords{11, 3}, 1, AtlasCoords{2, 3}, 0},
		{Coords{8, 3}, 0, AtlasCoords{0, 0}, uint16(FlipH | FlipV | Transpose)},
		{Coords{-1, -32768}, 7, AtlasCoords{65535, 0}, 5 | uint16(Transpose)},
	}
	want := data(
		record(11, 3, 1, 2, 3, 0),
		record(8, 3, 0, 0, 0, 0x7000),
		record(-1, -32768, 7, 65535, 0, 0x4005),
	)
	got := Encode(cells)
	if !bytes.Equal(got, want) {
		t.Fatalf("Encode = % x\nwant     % x", got, want)
	}
	back, err := Decode(got)
	if err != nil || !slices.Equal(back, cells) {
		t.Fatalf("Decode(Encode) = %+v, %v; want %+v", back, err, cells)
	}
	back, err = DecodeBase64(EncodeBase64(cells))
	if err != nil || !slices.Equal(back, cells) {
		t.Fatalf("base64 round trip = %+v, %v", back, err)
	}
}

func TestTransformFlags(t *testing.T) {
	tests := []struct {
		alt                     uint16
		id                      uint16
		flags                   Transform
		flipH, flipV, transpose bool
	}{
		{0, 0, 0, false, false, false},
		{3, 3, 0, false, false, false},
		{1<<12 | 2, 2, FlipH, true, false, false},
		{1 << 13, 0, FlipV, false, true, false},
		{1<<14 | 7, 7, Transpose, false, false, true},
		{0x7000 | 0x0fff, 0x0fff, TransformMask, true, true, true},
		// Bit 15 is not a transform flag; it stays part of the id.
		{0x8000 | 1<<12, 0x8000, FlipH, true, false, false},
	}
	for _, tt := range tests {
		c := Cell{Alternative: tt.alt}
		if c.AlternativeID() != tt.id || c.Flags() != tt.flags ||
			c.FlipH() != tt.flipH || c.FlipV() != tt.flipV || c.Transpose() != tt.transpose {
			t.Errorf("alternative %#04x: id %d flags %#x h/v/t %v/%v/%v; want id %d flags %#x h/v/t %v/%v/%v",
				tt.alt, c.AlternativeID(), c.Flags(), c.FlipH(), c.FlipV(), c.Transpose(),
				tt.id, tt.flags, tt.flipH, tt.flipV, tt.transpose)
		}
		// Flagged cells survive the byte format.
		back, err := Decode(Encode([]Cell{c}))
		if err != nil || back[0] != c {
			t.Errorf("alternative %#04x: round trip gave %+v, %v", tt.alt, back, err)
		}
	}

	c := Cell{Alternative: 5}
	for _, f := range []Transform{FlipH, FlipV, Transpose, FlipH | Transpose, TransformMask, 0} {
		got := c.WithFlags(f)
		if got.AlternativeID() != 5 || got.Flags() != f {
			t.Errorf("WithFlags(%#x) = alternative %#04x", f, got.Alternative)
		}
	}
	// WithFlags replaces flags rather than adding to them, and ignores
	// bits that are not flags.
	if got := c.WithFlags(TransformMask).WithFlags(FlipV | 0x8001); got.Alternative != 5|uint16(FlipV) {
		t.Errorf("WithFlags replacing flags = %#04x, want %#04x", got.Alternative, 5|uint16(FlipV))
	}
}

func TestLayer(t *testing.T) {
	a := Cell{Coords: Coords{11, 3}, SourceID: 1}
	b := Cell{Coords: Coords{8, 3}, SourceID: 2}
	c := Cell{Coords: Coords{-4, -9}, SourceID: 3}

	var l Layer // the zero Layer is usable
	l.Set(a)
	l.Set(b)
	l.Set(c)
	if l.Len() != 3 || !slices.Equal(l.Cells(), []Cell{a, b, c}) {
		t.Fatalf("after three sets: %+v", l.Cells())
	}

	// Updating in place keeps the position.
	b2 := b
	b2.AtlasCoords = AtlasCoords{4, 4}
	l.Set(b2)
	if !slices.Equal(l.Cells(), []Cell{a, b2, c}) {
		t.Fatalf("update moved the cell: %+v", l.Cells())
	}
	if got, ok := l.Get(Coords{8, 3}); !ok || got != b2 {
		t.Fatalf("Get(8,3) = %+v, %v", got, ok)
	}

	// Erasing keeps the rest in order and the index consistent.
	if !l.Erase(Coords{11, 3}) {
		t.Fatal("Erase(11,3) found nothing")
	}
	if l.Erase(Coords{11, 3}) {
		t.Fatal("second Erase(11,3) reported a cell")
	}
	if _, ok := l.Get(Coords{11, 3}); ok {
		t.Fatal("erased cell still found")
	}
	if got, ok := l.Get(Coords{-4, -9}); !ok || got != c {
		t.Fatalf("Get after erase = %+v, %v", got, ok)
	}
	// Re-adding an erased coordinate appends it, as the engine does.
	l.Set(a)
	if !slices.Equal(l.Cells(), []Cell{b2, c, a}) {
		t.Fatalf("re-added cell not at the end: %+v", l.Cells())
	}
	var seen []Cell
	for cell := range l.All() {
		seen = append(seen, cell)
		if len(seen) == 2 {
			break
		}
	}
	if !slices.Equal(seen, []Cell{b2, c}) {
		t.Errorf("All stopped early gave %+v", seen)
	}

	// Cells returns a copy.
	cp := l.Cells()
	cp[0].SourceID = 99
	if got, _ := l.Get(b2.Coords); got.SourceID == 99 {
		t.Error("Cells exposed the layer's storage")
	}

	// Encoding the layer equals encoding its cells.
	if !bytes.Equal(l.Encode(), Encode([]Cell{b2, c, a})) {
		t.Error("Layer.Encode differs from Encode(Cells)")
	}
}

func TestNewLayerDuplicates(t *testing.T) {
	first := Cell{Coords: Coords{1, 1}, SourceID: 1}
	other := Cell{Coords: Coords{2, 2}, SourceID: 2}
	again := Cell{Coords: Coords{1, 1}, SourceID: 3}
	l := NewLayer([]Cell{first, other, again})
	if !slices.Equal(l.Cells(), []Cell{again, other}) {
		t.Errorf("duplicate coordinates: %+v; want the later tile at the first position", l.Cells())
	}
	dl, err := DecodeLayer(Encode([]Cell{first, other, again}))
	if err != nil || dl.Len() != 2 {
		t.Errorf("DecodeLayer = %v, %v", dl, err)
	}
	if _, err := DecodeLayer([]byte{1}); err == nil {
		t.Error("DecodeLayer accepted corrupt data")
	}
}

func TestDecodeLegacyGodot3(t *testing.T) {
	const (
		h = 1 << 29
		v = 1 << 30
		// 1<<31 does not fit an int32 literal; this is its bit pattern.
		tr = -1 << 31
	)
	pos := func(x, y int16) int32 { return int32(uint32(uint16(x)) | uint32(uint16(y))<<16) }
	auto := pos

	tests := []struct {
		name   string
		format int
		in     []int32
		old    []Godot3Cell
		cells  []Cell
	}{
		{"format 0, two ints per cell", LegacyFormatTileID,
			[]int32{pos(0, 0), 5, pos(-1, 2), 7 | h | tr},
			[]Godot3Cell{
				{Coords: Coords{0, 0}, TileID: 5},
				{Coords: Coords{-1, 2}, TileID: 7, FlipH: true, Transpose: true},
			},
			[]Cell{
				{Coords: Coords{0, 0}, SourceID: 5},
				{Coords: Coords{-1, 2}, SourceID: 7, Alternative: 1 | 4},
			}},
		{"format 1, Godot 3 with autotile coordinates", LegacyFormatAutotile,
			[]int32{pos(3, -4), 2 | v, auto(1, 2), pos(1, 0), 1, 0},
			[]Godot3Cell{
				{Coords: Coords{3, -4}, TileID: 2, FlipV: true, Autotile: Coords{1, 2}},
				{Coords: Coords{1, 0}, TileID: 1},
			},
			[]Cell{
				{Coords: Coords{3, -4}, SourceID: 2, AtlasCoords: AtlasCoords{1, 2}, Alternative: 2},
				{Coords: Coords{1, 0}, SourceID: 1},
			}},
	}
	for _, tt := range tests {
		old, err := DecodeGodot3(tt.in, tt.format)
		if err != nil || !slices.Equal(old, tt.old) {
			t.Errorf("%s: DecodeGodot3 = %+v, %v; want %+v", tt.name, old, err, tt.old)
		}
		cells, err := DecodeLegacy(tt.in, tt.format)
		if err != nil || !slices.Equal(cells, tt.cells) {
			t.Errorf("%s: DecodeLegacy = %+v, %v; want %+v", tt.name, cells, err, tt.cells)
		}
	}
}

func TestLegacyRoundTrip(t *testing.T) {
	cells := []Cell{
		{Coords{11, 3}, 1, AtlasCoords{2, 3}, 0},
		{Coords{8, 3}, 0, AtlasCoords{0, 0}, uint16(FlipH|Transpose) | 1},
		{Coords{-16, -20}, 65535, AtlasCoords{65535, 65535}, 0xffff},
	}
	ints := EncodeLegacy(cells)
	if len(ints) != 9 {
		t.Fatalf("EncodeLegacy gave %d ints, want 9", len(ints))
	}
	// The int32s are the same bytes as tile_map_data without the header.
	var b []byte
	for _, v := range ints {
		b = binary.LittleEndian.AppendUint32(b, uint32(v))
	}
	if !bytes.Equal(b, Encode(cells)[2:]) {
		t.Errorf("legacy ints hold % x, tile_map_data records are % x", b, Encode(cells)[2:])
	}
	back, err := DecodeLegacy(ints, LegacyFormatAtlas)
	if err != nil || !slices.Equal(back, cells) {
		t.Errorf("DecodeLegacy(EncodeLegacy) = %+v, %v", back, err)
	}
	if got := EncodeLegacy(nil); got == nil || len(got) != 0 {
		t.Errorf("EncodeLegacy(nil) = %#v, want empty non-nil", got)
	}
}

func TestLegacyErrors(t *testing.T) {
	tests := []struct {
		name   string
		format int
		in     []int32
		msg    string
		offset int // -1 when the error is not a DecodeError
	}{
		{"format 2 partial cell", 2, []int32{0, 0, 0, 1}, "4 int32(s) is not a whole number of cells", 12},
		{"format 1 partial cell", 1, []int32{0, 0}, "3 int32s per cell", 0},
		{"format 0 partial cell", 0, []int32{0, 0, 0}, "2 int32s per cell", 8},
		{"unknown format", 3, []int32{0, 0, 0}, "unknown TileMap format 3", -1},
		{"negative format", -1, nil, "unknown TileMap format -1", -1},
		{"tile id too large", 0, []int32{0, 70000}, "does not fit a 16-bit TileSet source id", -1},
	}
	for _, tt := range tests {
		_, err := DecodeLegacy(tt.in, tt.format)
		if err == nil || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("%s: error %v, want one containing %q", tt.name, err, tt.msg)
			continue
		}
		var de *DecodeError
		if isDE := errors.As(err, &de); isDE != (tt.offset >= 0) || (isDE && de.Offset != tt.offset) {
			t.Errorf("%s: error %v: want DecodeError at offset %d", tt.name, err, tt.offset)
		}
	}
	if _, err := DecodeGodot3([]int32{0, 0, 0}, 2); err == nil || !strings.Contains(err.Error(), "use DecodeLegacy") {
		t.Errorf("DecodeGodot3 with format 2: %v", err)
	}
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{0})
	f.Add([]byte{0, 0})
	f.Add([]byte{1, 0})
	f.Add(data(record(11, 3, 1, 2, 3, 0x7001), record(-16, -20, 0, 0, 0, 0)))
	f.Add(append(data(record(0, 0, 0, 0, 0, 0)), 1))
	f.Fuzz(func(t *testing.T, in []byte) {
		cells, err := Decode(in)
		if err != nil {
			var de *DecodeError
			if !errors.As(err, &de) || de.Offset < 0 || de.Offset > len(in) {
				t.Fatalf("Decode error %v has no valid byte offset", err)
			}
			return
		}
		out := Encode(cells)
		// A lone header decodes to no cells, which encode to the empty
		// array Godot writes for an empty layer.
		if len(in) == 2 {
			if len(out) != 0 {
				t.Fatalf("lone header re-encoded to % x", out)
			}
			return
		}
		if !bytes.Equal(out, in) {
			t.Fatalf("re-encoding changed the data:\n in % x\nout % x", in, out)
		}
		if l := NewLayer(cells); l.Len() > len(cells) {
			t.Fatalf("layer grew from %d cells to %d", len(cells), l.Len())
		}
	})
}

func FuzzDecodeLegacy(f *testing.F) {
	f.Add([]byte{}, 2)
	f.Add([]byte{0, 0, 0, 0, 1, 0, 6, 0, 2, 0, 1, 0}, 2)
	f.Add([]byte{0, 0, 0, 0, 5, 0, 0, 0x20}, 0)
	f.Add([]byte{0, 0, 0, 0, 5, 0, 0, 0xe0, 1, 0, 2, 0}, 1)
	f.Fuzz(func(t *testing.T, raw []byte, format int) {
		ints := make([]int32, len(raw)/4)
		for i := range ints {
			ints[i] = int32(binary.LittleEndian.Uint32(raw[4*i:]))
		}
		cells, err := DecodeLegacy(ints, format)
		if err != nil {
			return
		}
		if format == LegacyFormatAtlas && !slices.Equal(EncodeLegacy(cells), ints) {
			t.Fatalf("format 2 round trip changed %v", ints)
		}
		if format != LegacyFormatAtlas {
			old, err := DecodeGodot3(ints, format)
			if err != nil || len(old) != len(cells) {
				t.Fatalf("DecodeGodot3 disagrees with DecodeLegacy: %d vs %d cells, %v", len(old), len(cells), err)
			}
		}
	})
}

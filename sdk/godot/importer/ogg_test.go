package importer

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// oggPage builds one Ogg page with its checksum.
func oggPage(flags byte, granule int64, serial, seq uint32, lacing []byte, body []byte) []byte {
	p := []byte("OggS")
	p = append(p, 0, flags)
	p = binary.LittleEndian.AppendUint64(p, uint64(granule))
	p = binary.LittleEndian.AppendUint32(p, serial)
	p = binary.LittleEndian.AppendUint32(p, seq)
	p = append(p, 0, 0, 0, 0, byte(len(lacing)))
	p = append(p, lacing...)
	p = append(p, body...)
	binary.LittleEndian.PutUint32(p[22:], oggChecksum(p))
	return p
}

// lace returns the lacing values and body of whole packets.
func lace(packets ...[]byte) (lacing, body []byte) {
	for _, pk := range packets {
		n := len(pk)
		for ; n >= 255; n -= 255 {
			lacing = append(lacing, 255)
		}
		lacing = append(lacing, byte(n))
		body = append(body, pk...)
	}
	return lacing, body
}

func wholePage(flags byte, granule int64, serial, seq uint32, packets ...[]byte) []byte {
	l, b := lace(packets...)
	return oggPage(flags, granule, serial, seq, l, b)
}

func vorbisID(rate, channels int) []byte {
	h := append([]byte{1}, "vorbis"...)
	h = append(h, 0, 0, 0, 0, byte(channels))
	h = binary.LittleEndian.AppendUint32(h, uint32(rate))
	h = append(h, make([]byte, 12)...)
	return append(h, 0xb8, 1)
}

var (
	vorbisComment = append([]byte{3}, "vorbis\x00\x00\x00\x00\x00\x00\x00\x00\x01"...)
	vorbisSetup   = append([]byte{5}, "vorbis setup"...)
)

func fill(n int, v byte) []byte { return bytes.Repeat([]byte{v}, n) }

// oggHeaders are the first two pages of a stream: the identification
// header alone, then the comment and setup headers.
func oggHeaders(serial uint32) []byte {
	return append(wholePage(2, 0, serial, 0, vorbisID(22050, 2)), wholePage(0, 0, serial, 1, vorbisComment, vorbisSetup)...)
}

func pagesOf(ov *OggVorbis) string {
	var b strings.Builder
	for _, p := range ov.Pages {
		fmt.Fprintf(&b, "%d:", p.Granule)
		for _, pk := range p.Packets {
			fmt.Fprintf(&b, " %d×%d", len(pk), pk[len(pk)-1])
		}
		b.WriteString("; ")
	}
	return b.String()
}

// DecodeOgg keeps the pages on which packets end, joins packets that span
// pages, skips what is not a page of the stream, and drops a packet that
// spans a missing page, as libogg and the engine's loader do.
func TestDecodeOgg(t *testing.T) {
	head := oggHeaders(9)
	heads := "0: 30×1; 0: 16×1 13×112; "
	big := fill(300, 7)
	// A 300-byte packet over two pages: 255 on the first, 45 continued.
	spanA := oggPage(0, -1, 9, 2, []byte{255}, big[:255])
	spanB := func(seq uint32) []byte {
		l, b := lace(fill(20, 8))
		return oggPage(1, 4096, 9, seq, append([]byte{45}, l...), append(big[255:], b...))
	}
	corrupt := wholePage(0, 1024, 9, 2, fill(10, 5))
	corrupt[len(corrupt)-1] ^= 1
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"whole packets", append(head, wholePage(4, 2048, 9, 2, fill(10, 4), fill(600, 5))...),
			heads + "2048: 10×4 600×5; "},
		{"a packet over two pages", append(append(head, spanA...), spanB(3)...),
			heads + "4096: 300×7 20×8; "},
		{"a missing page", append(append(head, spanA...), spanB(4)...),
			heads + "4096: 20×8; "},
		{"junk and a bad checksum between pages", append(append(append(head, "junkOggSjunk"...), corrupt...), wholePage(0, 2048, 9, 2, fill(3, 6))...),
			heads + "2048: 3×6; "},
		{"another stream first", append(append(wholePage(2, 0, 7, 0, []byte("fishead\x00")), head...), wholePage(0, 0, 7, 1, fill(5, 1))...),
			heads},
		{"a page cut off at the end", append(head, wholePage(0, 2048, 9, 2, fill(100, 3))[:60]...),
			heads},
		{"an empty packet", append(head, wholePage(0, 2048, 9, 2, nil, fill(4, 2))...),
			heads + "2048: 4×2; "},
	}
	for _, c := range cases {
		ov, err := DecodeOgg(c.data)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if got := pagesOf(ov); got != c.want || ov.SampleRate != 22050 || ov.Channels != 2 {
			t.Errorf("%s: %s %d Hz %d channels, want %s 22050 Hz 2 channels", c.name, got, ov.SampleRate, ov.Channels, c.want)
		}
	}
	for text, data := range map[string][]byte{
		"not an Ogg file":           []byte("RIFF\x00\x00\x00\x00WAVE"),
		"no Ogg Vorbis stream":      wholePage(2, 0, 1, 0, []byte("OpusHead")),
		"comment and setup headers": wholePage(2, 0, 1, 0, vorbisID(44100, 1)),
		"0 channels":                append(wholePage(2, 0, 1, 0, vorbisID(44100, 0)), wholePage(0, 0, 1, 1, vorbisComment, vorbisSetup)...),
		"fewer than 30":             wholePage(2, 0, 1, 0, vorbisID(44100, 1)[:20]),
	} {
		if _, err := DecodeOgg(data); err == nil || !strings.Contains(err.Error(), text) {
			t.Errorf("%q: %v, want %q", data[:min(len(data), 12)], err, text)
		}
	}
}

// A file full of page starts whose checksums fail ends quickly with an
// error (each would be checked over 65 KB).
func TestDecodeOggDamaged(t *testing.T) {
	p := []byte("OggS\x00\x02")
	p = append(p, make([]byte, 20)...)
	p = append(p, 255)
	p = append(p, fill(255, 255)...)
	data := append(oggHeaders(1), bytes.Repeat(p, 4<<20/len(p))...)
	start := time.Now()
	_, err := DecodeOgg(data)
	if err == nil || !strings.Contains(err.Error(), "damaged") {
		t.Errorf("%v, want the file damaged", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("took %v", d)
	}
}

// The text resource holds the packets in base64 by page, the granule
// positions and the rate, and the import options that differ from the
// defaults, as the engine's ResourceSaver writes them.
func TestOggResource(t *testing.T) {
	data := append(oggHeaders(3), wholePage(4, 100, 3, 2, []byte{0xff, 0, 1})...)
	res, err := OggResource(data, map[string]string{"loop": "true", "loop_offset": "1.5", "bpm": "0", "bar_beats": "04", "beat_count": "016"})
	if err != nil {
		t.Fatal(err)
	}
	want := `[gd_resource type="AudioStreamOggVorbis" format=4]

[sub_resource type="OggPacketSequence" id="OggPacketSequence_1"]
packet_data = Array[Array]([[PackedByteArray("AXZvcmJpcwAAAAACIlYAAAAAAAAAAAAAAAAAALgB")], [PackedByteArray("A3ZvcmJpcwAAAAAAAAAAAQ=="), PackedByteArray("BXZvcmJpcyBzZXR1cA==")], [PackedByteArray("/wAB")]])
granule_positions = PackedInt64Array(0, 0, 100)
sampling_rate = 22050.0

[resource]
packet_sequence = SubResource("OggPacketSequence_1")
beat_count = 16
loop = true
loop_offset = 1.5
`
	if string(res) != want {
		t.Errorf("got\n%s\nwant\n%s", res, want)
	}
	res, err = OggResource(data, nil)
	if err != nil || !strings.HasSuffix(string(res), "packet_sequence = SubResource(\"OggPacketSequence_1\")\n") {
		t.Errorf("defaults: %v\n%s", err, res)
	}
	// A 70000-byte packet over two pages, the first full (255 segments).
	pk := make([]byte, 70000)
	for i := range pk {
		pk[i] = byte(i * 7)
	}
	full := oggPage(0, -1, 3, 2, fill(255, 255), pk[:65025])
	l, _ := lace(pk[65025:])
	data2 := append(append(oggHeaders(3), full...), oggPage(5, 1000, 3, 3, l, pk[65025:])...)
	res, err = OggResource(data2, nil)
	if err != nil || !strings.Contains(string(res), "PackedByteArray(\""+base64.StdEncoding.EncodeToString(pk)+"\")]])\ngranule_positions = PackedInt64Array(0, 0, 1000)\n") {
		t.Errorf("a packet over two pages: %v", err)
	}
	for k, v := range map[string]string{"loop": "yes", "bpm": "-1", "bar_beats": "1", "beat_count": "x", "loop_offset": "nan"} {
		if _, err := OggResource(data, map[string]string{k: v}); err == nil || !strings.Contains(err.Error(), k+"="+v) {
			t.Errorf("%s=%s: %v", k, v, err)
		}
	}
}

func demoMusic(tb testing.TB) []byte {
	src := filepath.Join("..", "..", "..", "..", "shared", "fixtures", "projects", "2d-platformer", "music.ogg")
	data, err := os.ReadFile(src)
	if err != nil {
		tb.Skip("the demo projects fixture is not here: " + err.Error())
	}
	return data
}

// A real file splits as the engine's AudioStreamOggVorbis.load_from_buffer
// splits it (numbers printed by Godot 4.6 for the same file).
func TestDecodeOggDemoMusic(t *testing.T) {
	ov, err := DecodeOgg(demoMusic(t))
	if err != nil {
		t.Fatal(err)
	}
	var granules []int64
	for _, p := range ov.Pages[:8] {
		granules = append(granules, p.Granule)
	}
	sizes := func(i int) (out []int) {
		for _, pk := range ov.Pages[i].Packets {
			out = append(out, len(pk))
		}
		return out
	}
	if len(ov.Pages) != 400 || ov.SampleRate != 44100 || ov.Pages[399].Granule != 6512579 ||
		!reflect.DeepEqual(granules, []int64{0, 0, 15936, 32320, 47552, 63552, 79040, 96832}) ||
		!reflect.DeepEqual(sizes(0), []int{30}) || !reflect.DeepEqual(sizes(1), []int{141, 3796}) ||
		!reflect.DeepEqual(sizes(2), []int{62, 52, 233, 221, 247, 278, 49, 47, 48, 49, 46, 62, 56, 55, 233, 240, 237, 245, 237, 233, 241, 243, 268, 50, 48, 46, 49, 48, 60, 53, 236}) {
		t.Errorf("%d pages at %d Hz, last granule %d, granules %v, packet sizes %v %v %v",
			len(ov.Pages), ov.SampleRate, ov.Pages[len(ov.Pages)-1].Granule, granules, sizes(0), sizes(1), sizes(2))
	}
}

// No input makes DecodeOgg or OggResource panic or loop.
func FuzzOgg(f *testing.F) {
	head := oggHeaders(9)
	f.Add(append(head, wholePage(4, 2048, 9, 2, fill(10, 4), fill(600, 5))...))
	f.Add(append(append(head, oggPage(0, -1, 9, 2, []byte{255}, fill(255, 1))...), oggPage(1, 9, 9, 3, []byte{3}, fill(3, 1))...))
	f.Add(wholePage(2, 0, 1, 0, []byte("OpusHead")))
	f.Add([]byte("OggS"))
	f.Fuzz(func(t *testing.T, data []byte) {
		ov, err := DecodeOgg(data)
		if err == nil && (len(ov.Pages) == 0 || ov.SampleRate <= 0) {
			t.Fatalf("no error and %d pages at %d Hz", len(ov.Pages), ov.SampleRate)
		}
		_, _ = OggResource(data, nil)
	})
}

// BenchmarkImportOgg makes the text resource of the 2d-platformer demo's
// music (1.7 MB, 148 s of 44.1 kHz stereo, 400 pages).
func BenchmarkImportOgg(b *testing.B) {
	data := demoMusic(b)
	var out []byte
	var err error
	b.ReportAllocs()
	b.ResetTimer()
	start, cpu := time.Now(), processCPUTime()
	for i := 0; i < b.N; i++ {
		if out, err = OggResource(data, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(time.Since(start).Microseconds())/1000/float64(b.N), "ms/file")
	if c := processCPUTime() - cpu; c > 0 {
		b.ReportMetric(float64(c.Microseconds())/1000/float64(b.N), "cpu-ms/file")
	}
	b.ReportMetric(float64(len(data)), "source-bytes")
	b.ReportMetric(float64(len(out)), "tres-bytes")
}

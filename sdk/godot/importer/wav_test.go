package importer

import (
	"bytes"
	"encoding/binary"
	"math"
	"strings"
	"testing"
)

func riff(format, channels, rate, bits int, extra []byte, samples []byte) []byte {
	var fmtc bytes.Buffer
	for _, v := range []any{uint16(format), uint16(channels), uint32(rate), uint32(rate * channels * bits / 8), uint16(channels * bits / 8), uint16(bits)} {
		_ = binary.Write(&fmtc, binary.LittleEndian, v)
	}
	fmtc.Write(extra)
	var b bytes.Buffer
	b.WriteString("RIFF\x00\x00\x00\x00WAVE")
	chunk := func(id string, body []byte) {
		b.WriteString(id)
		_ = binary.Write(&b, binary.LittleEndian, uint32(len(body)))
		b.Write(body)
		if len(body)%2 == 1 {
			b.WriteByte(0)
		}
	}
	chunk("fmt ", fmtc.Bytes())
	chunk("LIST", []byte("odd")) // an odd-sized chunk before the data, padded
	chunk("data", samples)
	return b.Bytes()
}

// Every sample layout comes out as 16-bit little-endian samples.
func TestDecodeWAV(t *testing.T) {
	f32 := func(v float32) []byte { return binary.LittleEndian.AppendUint32(nil, math.Float32bits(v)) }
	ext := make([]byte, 8) // cbSize, valid bits, channel mask, then the sub-format GUID, its code first
	ext = append(ext, 1, 0)
	cases := []struct {
		name string
		data []byte
		want []int16
	}{
		{"8-bit", riff(1, 1, 8000, 8, nil, []byte{0, 128, 255}), []int16{-32768, 0, 127 << 8}},
		{"16-bit stereo", riff(1, 2, 44100, 16, nil, []byte{1, 2, 3, 4}), []int16{0x0201, 0x0403}},
		{"24-bit", riff(1, 1, 48000, 24, nil, []byte{9, 0x34, 0x12}), []int16{0x1234}},
		{"float", riff(3, 1, 48000, 32, nil, append(f32(0.5), f32(-2)...)), []int16{16384, -32767}},
		{"extensible PCM", riff(0xFFFE, 1, 8000, 16, ext, []byte{5, 0}), []int16{5}},
	}
	for _, c := range cases {
		w, err := DecodeWAV(c.data)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		var got []int16
		for i := 0; i+1 < len(w.Samples); i += 2 {
			got = append(got, int16(binary.LittleEndian.Uint16(w.Samples[i:])))
		}
		if len(got) != len(c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%s: %v, want %v", c.name, got, c.want)
				break
			}
		}
	}
	for data, text := range map[string]string{
		string(riff(1, 6, 8000, 16, nil, nil)): "6 channels",
		string(riff(2, 1, 8000, 4, nil, nil)):  "not PCM",
		"RIFF\x00\x00\x00\x00WAVE":             "no fmt",
		"OggS":                                 "not a RIFF",
	} {
		if _, err := DecodeWAV([]byte(data)); err == nil || !strings.Contains(err.Error(), text) {
			t.Errorf("%q: %v, want %q", data[:min(len(data), 12)], err, text)
		}
	}
	res, err := WAVResource(riff(1, 2, 22050, 16, nil, []byte{1, 0, 255, 255}))
	if err != nil || string(res) != "[gd_resource type=\"AudioStreamWAV\" format=3]\n\n[resource]\ndata = PackedByteArray(1, 0, 255, 255)\nformat = 1\nmix_rate = 22050\nstereo = true\n" {
		t.Errorf("%v\n%s", err, res)
	}
}

// FuzzDecodeWAV: no input panics the WAV reader; what it accepts has
// whole 16-bit samples, whole frames.
func FuzzDecodeWAV(f *testing.F) {
	f.Add(riff(1, 2, 44100, 16, nil, []byte{1, 2, 3, 4}))
	f.Add(riff(3, 1, 8000, 64, nil, make([]byte, 16)))
	f.Add(riff(0xFFFE, 1, 8000, 24, make([]byte, 12), make([]byte, 9)))
	f.Fuzz(func(t *testing.T, data []byte) {
		w, err := DecodeWAV(data)
		if err != nil {
			return
		}
		frame := 2
		if w.Stereo {
			frame = 4
		}
		if len(w.Samples)%frame != 0 || w.MixRate <= 0 {
			t.Fatalf("%d sample bytes, stereo %v, rate %d", len(w.Samples), w.Stereo, w.MixRate)
		}
	})
}

// A font becomes a FontFile resource with its bytes and the importer's
// options, those of params first; anything but a font file is refused.
func TestFontResource(t *testing.T) {
	res, err := FontResource([]byte("OTTO\x01"), map[string]string{"hinting": "2"})
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"[gd_resource type=\"FontFile\" format=3]\n\n[resource]\ndata = PackedByteArray(79, 84, 84, 79, 1)\n",
		"\nhinting = 2\n", "\nsubpixel_positioning = 4\n", "\nmsdf_pixel_range = 8\n", "\noversampling = 0.0\n"} {
		if !strings.Contains(string(res), line) {
			t.Errorf("lacks %q:\n%s", line, res)
		}
	}
	if _, err := FontResource([]byte("<html>"), nil); err == nil {
		t.Error("an HTML file made a font")
	}
	if _, err := FontResource([]byte("wOFF"), map[string]string{"hinting": "[1]"}); err == nil {
		t.Error("a non-numeric option was written")
	}
}

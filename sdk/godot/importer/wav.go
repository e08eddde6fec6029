package importer

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// WAV is a decoded WAV file as AudioStreamWAV holds 16-bit sound: its
// samples interleaved when stereo.
type WAV struct {
	MixRate int
	Stereo  bool
	// Samples are 16-bit, little-endian, interleaved.
	Samples []byte
}

// maxWAV bounds the WAV files read (64 MB, as the engine's own loader
// reads them whole).
const maxWAV = 64 << 20

// DecodeWAV reads a RIFF WAVE file of PCM (8, 16, 24 or 32 bits) or IEEE
// float (32 or 64 bits) samples, mono or stereo, into 16-bit samples, as
// the editor's WAV importer converts them before it compresses.
func DecodeWAV(data []byte) (*WAV, error) {
	if len(data) > maxWAV {
		return nil, fmt.Errorf("the WAV file is larger than %d MB", maxWAV>>20)
	}
	if len(data) < 12 || string(data[:4]) != "RIFF" || string(data[8:12]) != "WAVE" {
		return nil, fmt.Errorf("not a RIFF WAVE file")
	}
	var format, channels, bits int
	var rate int
	var pcm []byte
	haveFmt := false
	for p := 12; p+8 <= len(data); {
		id := string(data[p : p+4])
		n := int(binary.LittleEndian.Uint32(data[p+4:]))
		body := data[p+8:]
		if n < 0 || n > len(body) {
			n = len(body) // a truncated last chunk: take what is there, as Godot does
		}
		body = body[:n]
		switch id {
		case "fmt ":
			if n < 16 {
				return nil, fmt.Errorf("the fmt chunk is %d bytes, fewer than 16", n)
			}
			format = int(binary.LittleEndian.Uint16(body))
			channels = int(binary.LittleEndian.Uint16(body[2:]))
			rate = int(binary.LittleEndian.Uint32(body[4:]))
			bits = int(binary.LittleEndian.Uint16(body[14:]))
			if format == 0xFFFE && n >= 26 { // WAVE_FORMAT_EXTENSIBLE: the sub-format's code
				format = int(binary.LittleEndian.Uint16(body[24:]))
			}
			haveFmt = true
		case "data":
			pcm = body
		}
		p += 8 + n + n&1
	}
	if !haveFmt || pcm == nil {
		return nil, fmt.Errorf("the WAV file has no fmt or data chunk")
	}
	if channels != 1 && channels != 2 {
		return nil, fmt.Errorf("the WAV file has %d channels; mono and stereo are imported here", channels)
	}
	if rate <= 0 || rate > 384000 {
		return nil, fmt.Errorf("the WAV file's sample rate %d is not one Godot plays", rate)
	}
	size := bits / 8
	switch {
	case format == 1 && (bits == 8 || bits == 16 || bits == 24 || bits == 32):
	case format == 3 && (bits == 32 || bits == 64):
	default:
		return nil, fmt.Errorf("WAV format %d with %d bits is not PCM or IEEE float", format, bits)
	}
	frames := len(pcm) / (size * channels)
	out := make([]byte, 0, frames*channels*2)
	for i := 0; i < frames*channels; i++ {
		s := pcm[i*size : (i+1)*size]
		var v int16
		switch {
		case format == 3 && bits == 32:
			v = floatSample(float64(math.Float32frombits(binary.LittleEndian.Uint32(s))))
		case format == 3:
			v = floatSample(math.Float64frombits(binary.LittleEndian.Uint64(s)))
		case bits == 8:
			v = int16((int(s[0]) - 128) << 8)
		default:
			// The two most significant bytes of a little-endian sample.
			v = int16(binary.LittleEndian.Uint16(s[size-2:]))
		}
		out = binary.LittleEndian.AppendUint16(out, uint16(v))
	}
	return &WAV{MixRate: rate, Stereo: channels == 2, Samples: out}, nil
}

func floatSample(f float64) int16 {
	if math.IsNaN(f) {
		return 0
	}
	return int16(math.Round(max(-1, min(1, f)) * 32767))
}

// WAVResource is the AudioStreamWAV of a WAV file as a text resource:
// 16-bit samples (format 1), the file's rate and channels, no loop. The
// editor's default import compresses them with Quite OK Audio into a
// binary .sample; this plays the same sound, uncompressed.
func WAVResource(data []byte) ([]byte, error) {
	w, err := DecodeWAV(data)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	b.Grow(len(w.Samples)*4 + 200)
	b.WriteString("[gd_resource type=\"AudioStreamWAV\" format=3]\n\n[resource]\ndata = PackedByteArray(")
	for i, v := range w.Samples {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(int(v)))
	}
	fmt.Fprintf(&b, ")\nformat = 1\nmix_rate = %d\nstereo = %v\n", w.MixRate, w.Stereo)
	return []byte(b.String()), nil
}

package importer

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk/godot/importfile"
)

// OggPage is one page of an Ogg Vorbis stream as AudioStreamOggVorbis
// holds it: the packets that end on the page, in order, and the page's
// granule position.
type OggPage struct {
	Granule int64
	Packets [][]byte
}

// OggVorbis is an Ogg Vorbis file split as the engine's
// AudioStreamOggVorbis.load_from_buffer splits it (the editor's importer
// calls it): a page for every page of the Vorbis stream on which a packet
// ends.
type OggVorbis struct {
	SampleRate int
	Channels   int
	Pages      []OggPage
}

// maxOgg bounds the Ogg files read.
const maxOgg = 128 << 20

// oggCRC is the Ogg checksum's table: CRC-32, polynomial 0x04c11db7, not
// reflected, initial value 0.
var oggCRC = func() (t [256]uint32) {
	for i := range t {
		r := uint32(i) << 24
		for range 8 {
			if r&0x80000000 != 0 {
				r = r<<1 ^ 0x04c11db7
			} else {
				r <<= 1
			}
		}
		t[i] = r
	}
	return t
}()

func oggChecksum(page []byte) uint32 {
	var crc uint32
	for i, b := range page {
		if i >= 22 && i < 26 { // the checksum field counts as zero
			b = 0
		}
		crc = crc<<8 ^ oggCRC[byte(crc>>24)^b]
	}
	return crc
}

// oggStream is the state of the logical stream being read: libogg's
// ogg_stream_state as far as it decides which packets come out.
type oggStream struct {
	serial   uint32
	nextSeq  uint32
	partial  []byte // the packet continued on the next page
	pending  bool   // partial holds a packet that has not ended
	bos      bool   // partial started on the stream's first page
	received int    // packets of more than zero bytes so far
}

// DecodeOgg splits an Ogg Vorbis file into its pages and packets as the
// engine does: it reads the pages in order (a page whose checksum fails
// is skipped, as is anything between pages; a page cut off at the end of
// the file ends the stream), follows the first logical stream whose first
// packet is a Vorbis identification header, drops a packet that spans a
// missing page, and keeps the pages on which a packet ends. The three
// Vorbis headers must be there.
func DecodeOgg(data []byte) (*OggVorbis, error) {
	if len(data) > maxOgg {
		return nil, fmt.Errorf("the Ogg file is larger than %d MB", maxOgg>>20)
	}
	if !bytes.HasPrefix(data, []byte("OggS")) {
		return nil, fmt.Errorf("not an Ogg file (it does not start with OggS)")
	}
	var st *oggStream
	var pages []OggPage
	// A damaged file can make every "OggS" in it the start of a page
	// whose checksum fails: bound the bytes checked (a sound file's pages
	// are checked once each).
	budget := 4*len(data) + 1<<20
	for pos := 0; ; {
		i := bytes.Index(data[pos:], []byte("OggS"))
		if i < 0 {
			break
		}
		pos += i
		if len(data)-pos < 27 {
			break
		}
		nseg := int(data[pos+26])
		if len(data)-pos < 27+nseg {
			break
		}
		lacing := data[pos+27 : pos+27+nseg]
		size := 27 + nseg
		for _, l := range lacing {
			size += int(l)
		}
		if len(data)-pos < size {
			break // the engine waits for the rest of the page, which never comes
		}
		page := data[pos : pos+size]
		if budget -= size; budget < 0 {
			return nil, fmt.Errorf("the Ogg file is damaged: too many of its pages fail their checksum")
		}
		if binary.LittleEndian.Uint32(page[22:]) != oggChecksum(page) {
			pos++
			continue
		}
		pos += size
		if st == nil {
			st = &oggStream{serial: binary.LittleEndian.Uint32(page[14:])}
		}
		packets, isVorbis := st.pageIn(page, lacing)
		if !isVorbis {
			st = nil // not a Vorbis stream: try the next page's
			continue
		}
		if len(packets) > 0 {
			pages = append(pages, OggPage{Granule: int64(binary.LittleEndian.Uint64(page[6:])), Packets: packets})
		}
	}
	if len(pages) == 0 {
		return nil, fmt.Errorf("no Ogg Vorbis stream in the file")
	}
	var headers [][]byte
	for _, p := range pages {
		for _, pk := range p.Packets {
			if len(headers) < 3 {
				headers = append(headers, pk)
			}
		}
	}
	id := headers[0]
	if len(id) < 30 {
		return nil, fmt.Errorf("the Vorbis identification header is %d bytes, fewer than 30", len(id))
	}
	channels := int(id[11])
	rate := int(binary.LittleEndian.Uint32(id[12:]))
	if channels == 0 || rate <= 0 || rate > 384000 {
		return nil, fmt.Errorf("the Vorbis identification header has %d channels at %d Hz", channels, rate)
	}
	for i, typ := range []byte{3, 5} {
		if len(headers) < i+2 || !bytes.HasPrefix(headers[i+1], append([]byte{typ}, "vorbis"...)) {
			return nil, fmt.Errorf("the Vorbis comment and setup headers do not follow the identification header")
		}
	}
	return &OggVorbis{SampleRate: rate, Channels: channels, Pages: pages}, nil
}

// pageIn takes a page of the stream (one of another stream or version is
// ignored) and returns the packets that end on it. isVorbis is false when
// the stream's first packet is not a Vorbis identification header.
func (st *oggStream) pageIn(page, lacing []byte) (packets [][]byte, isVorbis bool) {
	if page[4] != 0 || binary.LittleEndian.Uint32(page[14:]) != st.serial {
		return nil, true
	}
	flags := page[5]
	seq := binary.LittleEndian.Uint32(page[18:])
	if seq != st.nextSeq {
		st.partial, st.pending = nil, false // a page is missing: the packet it continued is lost
	}
	st.nextSeq = seq + 1
	body := page[27+len(lacing):]
	bos := flags&2 != 0
	start := 0
	if flags&1 != 0 && !st.pending {
		// Continued data of a packet whose start is lost: skip it.
		bos = false
		for start < len(lacing) {
			n := int(lacing[start])
			body = body[n:]
			start++
			if n < 255 {
				break
			}
		}
	}
	// A packet that starts on this page is a slice of the file's bytes; one
	// continued from an earlier page is copied together.
	from, at := 0, 0 // where the packet being read starts in body, and the next segment
	for k, l := range lacing[start:] {
		n := int(l)
		if !st.pending {
			st.bos, from = bos && k == 0, at
		}
		at += n
		st.pending = n == 255
		if st.pending {
			continue
		}
		pk := body[from:at:at]
		if st.partial != nil {
			pk = append(st.partial, pk...)
			st.partial = nil
		}
		if st.received == 0 && !(st.bos && isIDHeader(pk)) {
			return nil, false
		}
		if len(pk) > 0 {
			packets = append(packets, pk)
			st.received++
		}
	}
	if st.pending {
		st.partial = append(st.partial, body[from:at]...)
		if st.partial == nil {
			st.partial = []byte{}
		}
	}
	return packets, true
}

// isIDHeader reports whether a packet starts as a Vorbis identification
// header: type 1, then "vorbis".
func isIDHeader(pk []byte) bool {
	return len(pk) >= 7 && pk[0] == 1 && string(pk[1:7]) == "vorbis"
}

// OggResource is the AudioStreamOggVorbis of an Ogg Vorbis file as a text
// resource, as the editor's importer makes it: the packets split by page
// in an OggPacketSequence, and the .import file's loop, loop_offset, bpm,
// beat_count and bar_beats (params; missing ones take the editor's
// defaults). The editor saves the same resource binary in an
// .oggvorbisstr. The comment tags (artist, title, ...) are not written:
// the engine reads them from the comment header when it loads the
// packets.
func OggResource(data []byte, params map[string]string) ([]byte, error) {
	ov, err := DecodeOgg(data)
	if err != nil {
		return nil, err
	}
	def, _ := importfile.For("x.ogg")
	var props []string
	for _, k := range []string{"bpm", "beat_count", "bar_beats", "loop", "loop_offset"} {
		v, set := params[k]
		if !set {
			v, _ = def.Param(k)
		}
		v = strings.TrimSpace(v)
		dv, _ := def.Param(k)
		switch k {
		case "loop":
			if v != "true" && v != "false" {
				return nil, fmt.Errorf("loop=%s is not true or false", v)
			}
		case "beat_count", "bar_beats":
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 || k == "bar_beats" && n < 2 {
				return nil, fmt.Errorf("%s=%s is not a whole number the engine accepts", k, v)
			}
			v = strconv.Itoa(n)
		default:
			f, err := strconv.ParseFloat(v, 64)
			if err != nil || math.IsInf(f, 0) || math.IsNaN(f) || f < 0 {
				return nil, fmt.Errorf("%s=%s is not a number of 0 or more", k, v)
			}
			if f == 0 {
				v = dv
			} else if v = strconv.FormatFloat(f, 'g', -1, 64); !strings.ContainsAny(v, ".e") {
				v += ".0"
			}
		}
		if v != dv {
			props = append(props, k+" = "+v+"\n")
		}
	}
	size := 0
	for _, p := range ov.Pages {
		for _, pk := range p.Packets {
			size += base64.StdEncoding.EncodedLen(len(pk)) + 20
		}
	}
	var b strings.Builder
	b.Grow(size + len(ov.Pages)*12 + 400)
	enc := make([]byte, 0, 4<<10)
	b.WriteString("[gd_resource type=\"AudioStreamOggVorbis\" format=4]\n\n[sub_resource type=\"OggPacketSequence\" id=\"OggPacketSequence_1\"]\npacket_data = Array[Array]([")
	for i, p := range ov.Pages {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("[")
		for j, pk := range p.Packets {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString("PackedByteArray(\"")
			if n := base64.StdEncoding.EncodedLen(len(pk)); n > cap(enc) {
				enc = make([]byte, n)
			} else {
				enc = enc[:n]
			}
			base64.StdEncoding.Encode(enc, pk)
			b.Write(enc)
			b.WriteString("\")")
		}
		b.WriteString("]")
	}
	b.WriteString("])\ngranule_positions = PackedInt64Array(")
	for i, p := range ov.Pages {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.FormatInt(p.Granule, 10))
	}
	fmt.Fprintf(&b, ")\nsampling_rate = %d.0\n\n[resource]\npacket_sequence = SubResource(\"OggPacketSequence_1\")\n", ov.SampleRate)
	for _, p := range props {
		b.WriteString(p)
	}
	return []byte(b.String()), nil
}

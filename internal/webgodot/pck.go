package webgodot

import (
	"bytes"
	"crypto/md5"
	"encoding/binary"
	"fmt"
	"slices"
	"strings"
)

// The pack layout Godot 4.4 and later read (pack format version 3). All
// integers are little-endian. See Godot's core/io/file_access_pack.cpp.
const (
	pckMagic         = "GDPC"
	pckFormatVersion = 3
	// pckFlagRelFileBase says file offsets count from the file base, not
	// from the start of the pack. The exporter always sets it.
	pckFlagRelFileBase = 2
	pckFlagEncrypted   = 1
	// pckAlign is the alignment the exporter uses for the header end and
	// for every file's data.
	pckAlign = 16
	// pckHeaderSize is magic, format version, engine major/minor/patch,
	// flags, file base, directory offset and 16 reserved words.
	pckHeaderSize = 4 + 4*5 + 8 + 8 + 16*4
	// maxPackPath bounds a path's length, so a corrupt pack cannot make
	// ReadPCK allocate gigabytes.
	maxPackPath = 4096
)

// PackFile is one file of a pack.
type PackFile struct {
	// Path is the resource path, with or without "res://"
	// ("project.godot", "res://scenes/main.tscn").
	Path string
	Data []byte
}

// EngineVersion is the engine version written into a pack's header. The
// engine refuses packs from a newer version than itself, so the runner
// writes the version of the runtime it serves.
type EngineVersion struct{ Major, Minor, Patch uint32 }

// BuildPCK returns a pack holding files: the data in the order given, the
// directory sorted by path, as Godot's exporter writes it. Paths are
// stored without "res://"; a path that is empty, absolute, contains ".."
// or appears twice is refused.
func BuildPCK(v EngineVersion, files []PackFile) ([]byte, error) {
	type entry struct {
		path      string
		off, size uint64
		sum       [16]byte
	}
	entries := make([]entry, 0, len(files))
	seen := make(map[string]bool, len(files))
	var data bytes.Buffer
	for _, f := range files {
		p, err := packPath(f.Path)
		if err != nil {
			return nil, err
		}
		if seen[p] {
			return nil, fmt.Errorf("webgodot: pack: %q is listed twice", p)
		}
		seen[p] = true
		entries = append(entries, entry{path: p, off: uint64(data.Len()), size: uint64(len(f.Data)), sum: md5.Sum(f.Data)})
		data.Write(f.Data)
		pad(&data, data.Len())
	}
	slices.SortFunc(entries, func(a, b entry) int { return strings.Compare(a.path, b.path) })

	fileBase := uint64(alignUp(pckHeaderSize))
	dirOffset := fileBase + uint64(data.Len())

	var out bytes.Buffer
	out.Grow(int(dirOffset) + 64*len(entries))
	le := binary.LittleEndian
	out.WriteString(pckMagic)
	out.Write(le.AppendUint32(nil, pckFormatVersion))
	out.Write(le.AppendUint32(nil, v.Major))
	out.Write(le.AppendUint32(nil, v.Minor))
	out.Write(le.AppendUint32(nil, v.Patch))
	out.Write(le.AppendUint32(nil, pckFlagRelFileBase))
	out.Write(le.AppendUint64(nil, fileBase))
	out.Write(le.AppendUint64(nil, dirOffset))
	out.Write(make([]byte, 16*4))
	pad(&out, out.Len())
	out.Write(data.Bytes())

	out.Write(le.AppendUint32(nil, uint32(len(entries))))
	for _, e := range entries {
		n := len(e.path)
		padded := n + (4-n%4)%4
		out.Write(le.AppendUint32(nil, uint32(padded)))
		out.WriteString(e.path)
		out.Write(make([]byte, padded-n))
		out.Write(le.AppendUint64(nil, e.off))
		out.Write(le.AppendUint64(nil, e.size))
		out.Write(e.sum[:])
		out.Write(le.AppendUint32(nil, 0)) // flags: plain, not removed
	}
	return out.Bytes(), nil
}

// ReadPCK parses a pack written by BuildPCK or Godot's exporter and
// returns its files in directory order with the engine version of its
// header. Encrypted packs are refused. It checks every offset against the
// pack's length, so it is safe on untrusted input.
func ReadPCK(b []byte) (EngineVersion, []PackFile, error) {
	var v EngineVersion
	if len(b) < pckHeaderSize || string(b[:4]) != pckMagic {
		return v, nil, fmt.Errorf("webgodot: not a Godot pack (no %q header)", pckMagic)
	}
	le := binary.LittleEndian
	if fv := le.Uint32(b[4:]); fv != pckFormatVersion {
		return v, nil, fmt.Errorf("webgodot: pack format version %d; only version %d (Godot 4.4+) is read", fv, pckFormatVersion)
	}
	v = EngineVersion{le.Uint32(b[8:]), le.Uint32(b[12:]), le.Uint32(b[16:])}
	flags := le.Uint32(b[20:])
	if flags&pckFlagEncrypted != 0 {
		return v, nil, fmt.Errorf("webgodot: the pack's directory is encrypted")
	}
	fileBase := le.Uint64(b[24:])
	if flags&pckFlagRelFileBase == 0 {
		fileBase = 0
	}
	dir := le.Uint64(b[32:])
	if dir > uint64(len(b)) || fileBase > uint64(len(b)) {
		return v, nil, fmt.Errorf("webgodot: pack offsets point past its end (%d bytes)", len(b))
	}
	r := b[dir:]
	next := func(n int) ([]byte, bool) {
		if n < 0 || len(r) < n {
			return nil, false
		}
		s := r[:n]
		r = r[n:]
		return s, true
	}
	cnt, ok := next(4)
	if !ok {
		return v, nil, fmt.Errorf("webgodot: pack directory is truncated")
	}
	count := le.Uint32(cnt)
	if uint64(count) > uint64(len(r))/40 { // 40: the smallest directory entry
		return v, nil, fmt.Errorf("webgodot: pack directory claims %d files, more than fit", count)
	}
	files := make([]PackFile, 0, count)
	for i := range count {
		ln, ok := next(4)
		if !ok || le.Uint32(ln) > maxPackPath {
			return v, nil, fmt.Errorf("webgodot: pack directory entry %d is truncated or has a bad path length", i)
		}
		pb, ok1 := next(int(le.Uint32(ln)))
		fixed, ok2 := next(8 + 8 + 16 + 4)
		if !ok1 || !ok2 {
			return v, nil, fmt.Errorf("webgodot: pack directory entry %d is truncated", i)
		}
		off, size := le.Uint64(fixed), le.Uint64(fixed[8:])
		start := fileBase + off
		if start < fileBase || start > uint64(len(b)) || size > uint64(len(b))-start {
			return v, nil, fmt.Errorf("webgodot: pack file %q lies outside the pack", strings.TrimRight(string(pb), "\x00"))
		}
		if le.Uint32(fixed[32:])&pckFlagEncrypted != 0 {
			return v, nil, fmt.Errorf("webgodot: pack file %q is encrypted", strings.TrimRight(string(pb), "\x00"))
		}
		files = append(files, PackFile{Path: strings.TrimRight(string(pb), "\x00"), Data: b[start : start+size]})
	}
	return v, files, nil
}

// packPath validates a resource path and strips "res://".
func packPath(p string) (string, error) {
	s := strings.TrimPrefix(p, "res://")
	if s == "" || strings.HasPrefix(s, "/") || strings.Contains(s, "\x00") || strings.Contains(s, "\\") {
		return "", fmt.Errorf("webgodot: pack path %q must be a relative resource path such as \"scenes/main.tscn\"", p)
	}
	for _, part := range strings.Split(s, "/") {
		if part == "" || part == "." || part == ".." {
			return "", fmt.Errorf("webgodot: pack path %q has an empty, \".\" or \"..\" element", p)
		}
	}
	return s, nil
}

func alignUp(n int) int { return (n + pckAlign - 1) / pckAlign * pckAlign }

// pad appends zeros to buf until n (its logical length) is aligned.
func pad(buf *bytes.Buffer, n int) { buf.Write(make([]byte, alignUp(n)-n)) }

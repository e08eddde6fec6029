package webgodot

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot/importer"
)

// Where GamePack puts the probe and what it names its autoload. The
// folder is under .godot/, which belongs to the engine rather than the
// user, so it cannot clash with a project's files.
const (
	ProbePath     = ".godot/godot-mcp/probe.gd"
	ProbeAutoload = "GodotMcpProbe"
)

// maxGamePack bounds the files a game pack may hold: the whole pack is
// held in memory and copied into the browser.
const maxGamePack = 512 << 20

// GamePack reads the project in dir (the folder holding project.godot)
// into a pack for StartGame: every file the engine may load, as an export
// would pack them, plus the probe and an override.cfg that adds it as an
// autoload. Nothing is written to dir. It skips hidden folders (except the
// imported files, uid cache and class cache in .godot/), node_modules and
// folders with a .gdignore, as Godot does. A project without a class cache
// (never opened in the editor) gets one built from its class_name lines,
// and textures without their imported form get it (see importedFiles).
//
// mainScene, when not "", is the res:// scene to run instead of the
// project's main scene: the web build refuses a scene on the command
// line, so the override.cfg names it.
func GamePack(dir, mainScene string) ([]byte, error) {
	files, err := ReadGameFiles(dir, mainScene)
	if err != nil {
		return nil, err
	}
	pck, err := BuildPCK(RuntimeVersion, files)
	if err != nil {
		return nil, &sdk.Error{Code: sdk.CodeInvalidArgument, Message: err.Error(), Hint: "rename the file so that its path is a plain relative resource path"}
	}
	return pck, nil
}

// ReadGameFiles returns the files of GamePack, before packing.
func ReadGameFiles(dir, mainScene string) ([]PackFile, error) {
	var files []PackFile
	var total int64
	var override []byte
	hasClassCache := false
	var classes []GlobalClass
	var assets []string
	have := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if p == dir {
				return nil
			}
			name := d.Name()
			switch {
			case rel == ".godot" || rel == ".godot/imported":
				return nil
			case strings.HasPrefix(name, ".") || name == "node_modules" || strings.HasPrefix(rel, ".godot/"):
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(p, ".gdignore")); err == nil {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		if strings.HasPrefix(rel, ".godot/") && path1(rel) != "imported" &&
			rel != ".godot/global_script_class_cache.cfg" && rel != ".godot/uid_cache.bin" {
			return nil
		}
		if strings.HasPrefix(d.Name(), ".") && !strings.HasPrefix(rel, ".godot/") {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		total += info.Size()
		if total > maxGamePack {
			return &sdk.Error{Code: sdk.CodeInvalidArgument,
				Message: fmt.Sprintf("the project's files add up to more than the %d MB a game session may pack", maxGamePack>>20),
				Hint:    "add a .gdignore to folders the game does not load (build output, source art)"}
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		switch {
		case rel == "override.cfg":
			override = b
			return nil
		case rel == ".godot/global_script_class_cache.cfg":
			hasClassCache = true
		case strings.HasSuffix(rel, ".gd"):
			if c, ok := ScriptClass("res://"+rel, b); ok {
				classes = append(classes, c)
			}
		case (importer.Supported(rel) || packImported[strings.ToLower(path.Ext(rel))]) && !strings.HasPrefix(rel, ".godot/"):
			assets = append(assets, rel)
		}
		have[rel] = b
		files = append(files, PackFile{Path: rel, Data: b})
		return nil
	})
	if err != nil {
		var se *sdk.Error
		if errors.As(err, &se) {
			return nil, se
		}
		return nil, &sdk.Error{Code: sdk.CodeToolError, Message: "cannot read the project for the game: " + err.Error(), Hint: "check the project folder's permissions"}
	}
	if !hasClassCache {
		files = append(files, PackFile{Path: ".godot/global_script_class_cache.cfg", Data: ClassCache(classes)})
	}
	// An imported file replaces the pack's file of the same path (the
	// .import file of a WAV names the pack's own form).
	at := map[string]int{}
	for i, f := range files {
		at[f.Path] = i
	}
	for _, f := range importedFiles(assets, have) {
		if i, ok := at[f.Path]; ok {
			files[i] = f
		} else {
			files = append(files, f)
		}
	}
	// The user's own override.cfg keeps its settings; the probe's
	// autoload is added after them.
	var ov bytes.Buffer
	if len(override) > 0 {
		ov.Write(override)
		ov.WriteString("\n")
	}
	if mainScene != "" {
		fmt.Fprintf(&ov, "[application]\n\nrun/main_scene=%q\n\n", mainScene)
	}
	fmt.Fprintf(&ov, "[autoload]\n\n%s=\"*res://%s\"\n", ProbeAutoload, ProbePath)
	files = append(files,
		PackFile{Path: ProbePath, Data: ProbeScript},
		PackFile{Path: "override.cfg", Data: ov.Bytes()})
	return files, nil
}

// packImported are the extensions, besides textures, whose imported form a
// game pack makes (see importedResource).
var packImported = map[string]bool{".wav": true, ".ogg": true, ".ttf": true, ".otf": true, ".woff": true, ".woff2": true}

// path1 returns the second element of a slash path: "imported" for
// ".godot/imported/x.ctex".
func path1(rel string) string {
	parts := strings.SplitN(rel, "/", 3)
	if len(parts) < 3 {
		return ""
	}
	return parts[1]
}

// Command audio is the first-party "audio" toolset: the project's audio
// bus layout and the players that use it.
//
// It reads and edits the bus layout (default_bus_layout.tres, or the file
// the project's audio/buses/default_bus_layout setting names): buses with
// their volume, mute, solo, bypass and send, and their effect stacks, each
// effect an AudioEffect class of the engine with its properties checked
// against the class database. It writes the layout exactly as the engine's
// ResourceSaver does (the Master bus only where it differs from the
// default), keeps bus order and sends consistent when a bus goes, and
// adds AudioStreamPlayer, AudioStreamPlayer2D and AudioStreamPlayer3D
// nodes with their stream, bus, volume and autoplay to a scene.
//
// With a Godot editor attached the tools forward to the godot-mcp addon,
// which edits the live AudioServer in the editor's undo history; headless,
// they edit the files through the host's workspace: atomic, journaled
// (godot_undo reverts it) and honouring dry_run.
package main

import (
	"github.com/godot-mcp/godot-mcp/sdk"
	"github.com/godot-mcp/godot-mcp/sdk/godot/classdb"
)

func main() {
	sdk.Serve(Toolset())
}

// Toolset returns the audio toolset.
func Toolset() *sdk.Toolset {
	return &sdk.Toolset{
		Name:    "audio",
		Version: "0.1.0",
		Description: "Audio buses and players: read and edit the project's bus layout (buses, volumes, sends, effect stacks) " +
			"and add AudioStreamPlayer/2D/3D nodes with a stream and a bus.",
		Godot: ">= 4.0",
		Warm:  classdb.Warm,
		Tools: []sdk.Tool{
			sdk.NewTool("get_bus_layout",
				"List the audio buses in order: index, name, volume_db, muted, solo, bypass, send and the effect stack "+
					"(index, type, enabled, properties). Use it to find bus names before godot_audio_add_player or "+
					"godot_audio_add_bus_effect, and effect indices before godot_audio_remove_bus_effect.",
				sdk.ReadOnly, getBusLayout, sdk.EditorFunc(getBusLayoutEditor), sdk.WithTitle("Get audio bus layout")),
			sdk.NewTool("add_bus",
				"Add an audio bus named name (unique) at volume_db, after the last bus; it sends to Master. "+
					"Then add effects with godot_audio_add_bus_effect or route a player to it (its bus property).",
				sdk.Mutating, addBus, sdk.EditorCommand("cmd_add_audio_bus", addBusCommand),
				sdk.DryRunAnswer(func(in addBusArgs) map[string]any { return map[string]any{"name": in.Name} }), sdk.WithTitle("Add audio bus")),
			sdk.NewTool("add_bus_effect",
				"Append an AudioEffect (effect_type, e.g. AudioEffectReverb, AudioEffectDelay, AudioEffectEQ10, "+
					"AudioEffectCompressor) to the bus named bus, with properties checked against the effect's class "+
					"(e.g. {\"room_size\": 0.8}). Returns the effect's index in the bus's stack.",
				sdk.Mutating, addBusEffect, sdk.EditorCommand("cmd_add_audio_bus_effect", addBusEffectCommand),
				sdk.DryRunAnswer(func(in addEffectArgs) map[string]any {
					return map[string]any{"bus": in.Bus, "effect_type": in.EffectType}
				}), sdk.WithTitle("Add audio bus effect")),
			sdk.NewTool("remove_bus",
				"Remove the audio bus named bus with its effects; later buses move up one, and buses that sent to it "+
					"send where it sent. The Master bus cannot be removed. Needs confirm.",
				sdk.Destructive, removeBus, sdk.EditorCommand("cmd_remove_audio_bus", removeBusCommand), sdk.WithTitle("Remove audio bus")),
			sdk.NewTool("remove_bus_effect",
				"Remove the effect at effect_index from the bus named bus (godot_audio_get_bus_layout lists the indices); "+
					"later effects move up one. Needs confirm.",
				sdk.Destructive, removeBusEffect, sdk.EditorCommand("cmd_remove_audio_bus_effect", removeBusEffectCommand),
				sdk.WithTitle("Remove audio bus effect")),
			sdk.NewTool("add_player",
				"Add an AudioStreamPlayer (or player_type AudioStreamPlayer2D / AudioStreamPlayer3D) under parent_path, "+
					"with stream_path (a res:// AudioStream: .wav, .ogg, .mp3 or .tres) and properties such as "+
					"volume_db, bus (checked against the bus layout), autoplay and pitch_scale.",
				sdk.Mutating, addPlayer, sdk.EditorFunc(addPlayerEditor), sdk.DryRunAnswer(addPlayerDryRun, "created"), sdk.WithTitle("Add audio player")),
		},
	}
}

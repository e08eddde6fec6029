// Package bridge is the host's link to a Godot editor running the godot-mcp
// addon (addons/godot_mcp). The host listens; the addon dials out from the
// editor and redials with backoff (0.5 s doubling to 5 s), so the host and
// the editor start in any order. The wire contract is the addon's own and is
// kept byte for byte, so its users point it at this host unchanged:
//
//   - one JSON object per WebSocket text frame, up to 32 MiB either way;
//   - command {"id":"7","command":"cmd_…","params":{…}} (ids are always
//     strings), reply {"id":"7","ok":true,"result":{…}} or
//     {"id":"7","ok":false,"error":CODE,"hint":…,"required":…};
//   - control messages from the addon, never answered: cmd_auth (the shared
//     GODOT_MCP_BRIDGE_TOKEN, or the per-install token of token.go, which
//     `godot-mcp bridge-token` prints; waited for at most 2 s and compared in
//     constant time; a wrong token gets one VALIDATION_ERROR notice with
//     required=bridge_token and the socket closes) and cmd_peer_hello
//     (project path, Godot version, addon version);
//   - handshake from the host, once per editor: cmd_get_addon_info (the
//     addon's command list, so version drift is reported instead of
//     guessed), cmd_server_hello, and cmd_toolsets_update, pushed again
//     after every toggle so the editor dock shows the enabled toolsets;
//   - notices to the addon ({"ok":false,…} without "command"): the addon
//     logs them to its dock and drops the link; PEER_REPLACED also stops it
//     from reconnecting.
//
// Only the addon may connect (guard.go): a request with an Origin header
// (every browser sends one; the addon never does) is refused with 403, and
// so, on a loopback listener, is a Host that is not a loopback name with
// the bridge's port (DNS rebinding); a request that is no WebSocket
// upgrade gets 426. Each answer's body says why and how to fix it, and a
// refused request never becomes a socket, so it cannot replace the editor.
//
// One editor is attached at a time. A newcomer replaces it: the previous
// editor's pending requests fail with BRIDGE_DISCONNECTED, it gets the
// PEER_REPLACED notice and its socket closes, and the replacement is an
// event and a log line naming both projects.
//
// Requests never hang: no editor is BRIDGE_DISCONNECTED at once, every
// request has a timeout (10 s unless the caller says otherwise), a reply
// that matches a request but is not a response envelope fails it with
// INTERNAL_ERROR at once, and an editor that goes away fails everything
// pending on it. Any number of requests may be in flight; the addon handles
// them one at a time in its frame loop and replies are matched by id.
//
//	b, err := bridge.New(bridge.Options{URL: os.Getenv(bridge.URLEnv), Token: os.Getenv(bridge.TokenEnv),
//		HostVersion: version, Bus: bus})
//	if err != nil { … }          // bad URL, or a non-loopback URL without a token
//	_ = b.Start(bridge.Hooks{OnPeer: func(p *bridge.Peer) { … }}) // logs and retries when the port is taken
//	defer b.Close()
//	res, err := b.Request(ctx, "cmd_get_scene_tree", map[string]any{"max_depth": 2}, 0)
//
// Errors are *sdk.Error values, so a toolset's Call.Editor returns them to
// the agent unchanged. The addon's own failures are mapped once, here, by
// sdk/addonerr (RESOURCE_NOT_FOUND → NOT_FOUND, VALIDATION_ERROR →
// INVALID_ARGUMENT, "Unknown command" → PRECONDITION_FAILED
// required=addon_command; its hint quoted in the message, a fix as the
// hint), so an agent gets the same code for the same mistake whether a tool
// ran headless or in the editor, in every toolset and in the host's own
// undo tools. internal/fakeaddon is a Go stand-in for the addon that speaks
// the same contract (its codes, not ours) over a real socket, for tests.
package bridge

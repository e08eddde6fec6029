// ts-agent.mjs plays an agent session against `godot-mcp serve` with the
// official TypeScript MCP client (@modelcontextprotocol/sdk), the client
// most editors and agents are built on. It is run by TestTypeScriptClient
// (host/e2e/tsclient_test.go):
//
//   node ts-agent.mjs <sdk package dir> <godot-mcp binary> <serve args...>
//
// It prints one JSON object per line for every step: the tool called, and
// either what the client returned (isError, the text, whether structured
// content came along) or the exception the client raised. The Go test
// decides what is right; this script only reports what the client saw.
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';

const [sdkDir, bin, ...serveArgs] = process.argv.slice(2);
const load = (p) => import(pathToFileURL(join(sdkDir, 'dist/esm', p)).href);
const { Client } = await load('client/index.js');
const { StdioClientTransport } = await load('client/stdio.js');

const transport = new StdioClientTransport({
  command: bin,
  args: ['serve', ...serveArgs],
  env: process.env,
  stderr: 'inherit',
});
const client = new Client({ name: 'ts-agent', version: '1.0.0' });
await client.connect(transport);

function report(step, tool, out) {
  process.stdout.write(JSON.stringify({ step, tool, ...out }) + '\n');
}

async function call(step, name, args) {
  try {
    const res = await client.callTool({ name, arguments: args });
    const text = (res.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');
    report(step, name, {
      isError: res.isError === true,
      text,
      structured: res.structuredContent ?? null,
    });
  } catch (err) {
    report(step, name, { exception: String(err?.message ?? err), code: err?.code ?? null });
  }
}

async function list(step) {
  try {
    const res = await client.listTools();
    report(step, 'tools/list', { tools: res.tools.map((t) => t.name) });
  } catch (err) {
    report(step, 'tools/list', { exception: String(err?.message ?? err), code: err?.code ?? null });
  }
}

// An agent's session: enable a toolset, list (the client caches every
// tool's output schema here), use it well and badly, disable it, call again.
await call('enable', 'godot_enable_toolset', { toolsets: ['project'] });
await list('list');
await call('search', 'godot_project_search_files', { pattern: '*.tscn' });
await call('bad_glob', 'godot_project_search_files', { pattern: '[' });
await call('path_outside', 'godot_project_get_filesystem_tree', { path: 'res://../..' });
await call('bad_arguments', 'godot_project_get_filesystem_tree', { depth: 'deep' });
await call('out_of_range', 'godot_project_get_filesystem_tree', { depth: 99 });
await call('unknown_argument', 'godot_project_search_files', { pattern: '*.gd', colour: 'red' });
await call('disable', 'godot_disable_toolset', { toolsets: ['project'] });
await call('gated_off', 'godot_project_search_files', { pattern: '*.tscn' });
await call('unknown_toolset', 'godot_enable_toolset', { toolsets: ['no_such_toolset'] });
await client.close();

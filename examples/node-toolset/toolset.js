#!/usr/bin/env node
// A godot-mcp toolset written in Node, from docs/plugin-protocol.md alone:
// the --describe manifest, the magic cookie, the stdout handshake line, the
// lifeline, the Toolset service (Describe, Configure, Call with streaming
// progress), the health and controller services, and the host services
// (HostLog, HostEditor) reached over the go-plugin broker.
//
// It loads sdk/proto/toolset.proto at run time with @grpc/proto-loader, so
// there is no generated code. Run by the host as godot-mcp-toolset-node_example
// (see README.md for the launcher script).
'use strict';

const crypto = require('node:crypto');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');

// The toolset's own manifest: what --describe prints and Describe returns.
const MANIFEST = {
  name: 'node_example',
  version: '0.1.0',
  description:
    'An example toolset written in Node: counts the lines of project files and writes text notes into the project.',
  godot: '>= 4.2, < 5.0',
  sdk: 'godot-mcp-node-example/0.1.0 (@grpc/grpc-js)',
  tools: [
    {
      name: 'count_lines',
      title: 'Count lines',
      description:
        'Count the lines of the project files with one extension under a res:// directory, ' +
        'reporting progress file by file. Skips hidden directories such as .godot.',
      input_schema: {
        type: 'object',
        properties: {
          extension: { type: 'string', pattern: '^[A-Za-z0-9]+$', description: 'file extension without the dot, such as gd' },
          dir: { type: 'string', description: 'res:// directory to search, such as res://scripts; default res://' },
        },
        required: ['extension'],
        additionalProperties: false,
      },
      output_schema: {
        type: 'object',
        properties: {
          files: {
            type: 'array',
            items: {
              type: 'object',
              properties: { path: { type: 'string' }, lines: { type: 'integer' } },
              required: ['path', 'lines'],
            },
          },
          total_lines: { type: 'integer' },
        },
        required: ['files', 'total_lines'],
      },
      safety_class: 'read_only',
      scope: 'agent',
    },
    {
      name: 'editor_info',
      title: 'Editor project info',
      description:
        'Ask the attached Godot editor (through the host) for its project info: Godot version and project name. ' +
        'Fails with BRIDGE_DISCONNECTED when no editor is attached.',
      input_schema: { type: 'object', properties: {}, additionalProperties: false },
      safety_class: 'read_only',
      scope: 'agent',
    },
    {
      name: 'write_note',
      title: 'Write a note',
      description:
        'Write a text note (.txt or .md) into an existing directory of the project, replacing any file of that name. Supports dry_run.',
      input_schema: {
        type: 'object',
        properties: {
          path: { type: 'string', description: 'res:// path of the note, ending in .txt or .md, such as res://notes/todo.md' },
          text: { type: 'string', description: 'the note' },
        },
        required: ['path', 'text'],
        additionalProperties: false,
      },
      safety_class: 'mutating',
      scope: 'agent',
    },
  ],
};

// Constants of the protocol (docs/plugin-protocol.md §3).
const COOKIE_KEY = 'GODOT_MCP_TOOLSET_PLUGIN';
const COOKIE_VALUE = '6c1f3f0a-godot-mcp-toolset-d2b7e94c5a1e';
const APP_PROTOCOL_VERSION = '1';
const LIFELINE_ENV = 'GODOT_MCP_LIFELINE_FD';
const MAX_MESSAGE_BYTES = 64 << 20;
const BROKER_TIMEOUT_MS = 5000;

// log writes one hclog JSON line to stderr, which the host captures with
// its level (§7). Stdout belongs to the handshake.
function log(level, message, fields = {}) {
  process.stderr.write(JSON.stringify({ '@level': level, '@message': message, '@timestamp': new Date().toISOString(), ...fields }) + '\n');
}

function main(argv) {
  if (argv[0] === '--describe') {
    // No exit call: on some systems stdout to a pipe is asynchronous, and
    // the process ends by itself once the write is flushed.
    process.stdout.write(JSON.stringify(MANIFEST, null, 2) + '\n');
    return;
  }
  if (process.env[COOKIE_KEY] !== COOKIE_VALUE || argv.length > 0) {
    process.stderr.write(
      'godot-mcp-toolset-node_example is a godot-mcp toolset plugin: the godot-mcp host starts it.\n' +
        'Install it in the host\'s plugins directory and enable the toolset "node_example";\n' +
        'run it with --describe to print its manifest.\n',
    );
    process.exitCode = 1;
    return;
  }
  const offered = (process.env.PLUGIN_PROTOCOL_VERSIONS || '').split(',');
  if (!offered.includes(APP_PROTOCOL_VERSION)) {
    log('error', 'the host offers no protocol version this plugin speaks', { offered: offered.join(','), supported: APP_PROTOCOL_VERSION });
    process.exitCode = 1;
    return;
  }
  if (process.env.PLUGIN_CLIENT_CERT) {
    // AutoMTLS (§3) needs a server certificate in the handshake line; this
    // example does not implement it and says so rather than failing later.
    log('error', 'the host asked for mTLS (PLUGIN_CLIENT_CERT), which this example does not implement');
    process.exitCode = 1;
    return;
  }
  watchLifeline();
  serve();
}

// watchLifeline exits as soon as the host's end of the lifeline pipe closes
// (§6), so the plugin never outlives its host.
function watchLifeline() {
  const fd = Number.parseInt(process.env[LIFELINE_ENV] || '', 10);
  if (!Number.isInteger(fd) || fd < 0) {
    return;
  }
  const lifeline = new net.Socket({ fd, readable: true, writable: false });
  const die = () => {
    log('info', 'lifeline closed: the host is gone, exiting');
    process.exit(0);
  };
  lifeline.on('end', die);
  lifeline.on('close', die);
  lifeline.on('error', die);
  lifeline.resume();
}

function loadProtos(grpc, protoLoader) {
  const toolsetProto = process.env.GODOT_MCP_TOOLSET_PROTO || path.join(__dirname, '..', '..', 'sdk', 'proto', 'toolset.proto');
  const def = protoLoader.loadSync(
    [toolsetProto, path.join(__dirname, 'proto', 'go_plugin.proto'), path.join(__dirname, 'proto', 'health.proto')],
    { keepCase: true, longs: Number, enums: String, defaults: true, oneofs: true },
  );
  return grpc.loadPackageDefinition(def);
}

function serve() {
  const grpc = require('@grpc/grpc-js');
  const protoLoader = require('@grpc/proto-loader');
  const pkg = loadProtos(grpc, protoLoader);
  const toolsetPkg = pkg.godotmcp.toolset.v1;
  const limits = { 'grpc.max_receive_message_length': MAX_MESSAGE_BYTES, 'grpc.max_send_message_length': MAX_MESSAGE_BYTES };

  const state = { env: null, hostLog: null, hostEditor: null };
  const broker = newBroker();
  const server = new grpc.Server(limits);

  server.addService(toolsetPkg.Toolset.service, {
    Describe: (_call, cb) => cb(null, manifestProto()),
    Configure: (call, cb) => {
      const req = call.request;
      state.env = { hostVersion: req.host_version, projectDir: req.project_dir, godotVersion: req.godot_version };
      // Dial the host services now: the host's broker forgets a ConnInfo
      // nobody claims within five seconds (§5).
      broker
        .waitFor(req.host_services_broker_id, BROKER_TIMEOUT_MS)
        .then((info) => {
          const target = info.network === 'unix' ? 'unix://' + info.address : info.address;
          state.hostLog = new toolsetPkg.HostLog(target, grpc.credentials.createInsecure(), limits);
          state.hostEditor = new toolsetPkg.HostEditor(target, grpc.credentials.createInsecure(), {
            ...limits,
            channelOverride: state.hostLog.getChannel(),
          });
          state.hostLog.waitForReady(Date.now() + BROKER_TIMEOUT_MS, (err) => {
            if (err) {
              cb({ code: grpc.status.UNAVAILABLE, details: `host services on ${target}: ${err.message}` });
              return;
            }
            hostLog(state, 'info', 'configured', ['project_dir', req.project_dir, 'godot_version', req.godot_version]);
            cb(null, {});
          });
        })
        .catch((err) => cb({ code: grpc.status.FAILED_PRECONDITION, details: err.message }));
    },
    Call: (call) => runCall(grpc, state, call),
  });
  server.addService(pkg.plugin.GRPCBroker.service, { StartStream: (stream) => broker.attach(stream) });
  server.addService(pkg.plugin.GRPCController.service, {
    Shutdown: (_call, cb) => {
      cb(null, {});
      log('info', 'shutdown requested by the host');
      server.tryShutdown(() => process.exit(0));
      setTimeout(() => process.exit(0), 1000).unref();
    },
  });
  server.addService(pkg.grpc.health.v1.Health.service, {
    Check: (call, cb) => {
      const svc = call.request.service;
      if (svc === '' || svc === 'plugin') {
        cb(null, { status: 'SERVING' });
      } else {
        cb({ code: grpc.status.NOT_FOUND, details: `unknown service ${svc}` });
      }
    },
  });

  const dir = process.env.PLUGIN_UNIX_SOCKET_DIR || os.tmpdir();
  const socket = path.join(dir, `plugin-${process.pid}-${crypto.randomBytes(4).toString('hex')}`);
  const cleanup = () => fs.rmSync(socket, { force: true });
  process.on('exit', cleanup);
  process.on('SIGTERM', () => process.exit(0));
  process.on('SIGINT', () => process.exit(0));
  server.bindAsync('unix://' + socket, grpc.ServerCredentials.createInsecure(), (err) => {
    if (err) {
      log('error', 'cannot listen', { socket, error: err.message });
      process.exit(1);
    }
    // The handshake (§3): core version|app version|network|address|protocol|cert
    process.stdout.write(`1|${APP_PROTOCOL_VERSION}|unix|${socket}|grpc|\n`);
    log('debug', 'serving', { socket });
  });
}

// newBroker keeps the ConnInfo messages the host sends on the broker
// stream, by service id, and hands them to whoever waits for one.
function newBroker() {
  const known = new Map();
  const waiters = new Map();
  return {
    attach(stream) {
      stream.on('data', (info) => {
        const w = waiters.get(info.service_id);
        if (w) {
          waiters.delete(info.service_id);
          w(info);
        } else {
          known.set(info.service_id, info);
        }
      });
      stream.on('error', () => {});
      // The stream stays open as long as the host keeps it; when the host
      // ends it, end ours.
      stream.on('end', () => stream.end());
    },
    waitFor(id, timeoutMs) {
      const info = known.get(id);
      if (info) {
        known.delete(id);
        return Promise.resolve(info);
      }
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(id);
          reject(new Error(`no broker ConnInfo for service ${id} within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.set(id, (i) => {
          clearTimeout(timer);
          resolve(i);
        });
      });
    },
  };
}

function manifestProto() {
  return {
    name: MANIFEST.name,
    version: MANIFEST.version,
    description: MANIFEST.description,
    godot_constraint: MANIFEST.godot,
    sdk: MANIFEST.sdk,
    tools: MANIFEST.tools.map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      input_schema_json: Buffer.from(JSON.stringify(t.input_schema)),
      output_schema_json: t.output_schema ? Buffer.from(JSON.stringify(t.output_schema)) : Buffer.alloc(0),
      safety_class: 'SAFETY_CLASS_' + t.safety_class.toUpperCase(),
      scope: t.scope === 'cli' ? 'SCOPE_CLI' : 'SCOPE_AGENT',
    })),
  };
}

// hostLog sends a line to the host's log through HostLog (§5); fields are
// alternating keys and values. Failures are reported on stderr.
function hostLog(state, level, message, fields = []) {
  if (!state.hostLog) {
    log(level, message);
    return;
  }
  state.hostLog.Log({ level, message, fields: fields.map(String) }, (err) => {
    if (err) {
      log('warn', 'HostLog failed', { error: err.message });
    }
  });
}

// ToolError carries a code and a hint to the caller (§4, Call).
class ToolError extends Error {
  constructor(code, hint, message, required = '') {
    super(message);
    this.code = code;
    this.hint = hint;
    this.required = required;
  }
}

const TOOLS = { count_lines: countLines, editor_info: editorInfo, write_note: writeNote };

// runCall streams zero or more Progress events, then exactly one result,
// then ends the stream. A tool's failure is a result, not an RPC error.
function runCall(grpc, state, call) {
  const req = call.request;
  const tool = TOOLS[req.tool];
  if (!tool) {
    call.emit('error', { code: grpc.status.NOT_FOUND, details: `unknown tool ${req.tool}` });
    return;
  }
  let cancelled = false;
  call.on('cancelled', () => {
    cancelled = true;
  });
  const ctx = {
    env: state.env || { projectDir: '' },
    dryRun: req.dry_run,
    isCancelled: () => cancelled,
    progress: (done, total, message) => {
      if (!cancelled) {
        call.write({ progress: { progress: done, total, message } });
      }
    },
    editor: (command, params) =>
      new Promise((resolve, reject) => {
        if (!state.hostEditor) {
          reject(new ToolError('BRIDGE_DISCONNECTED', 'the host has not configured this plugin yet', 'no host services'));
          return;
        }
        state.hostEditor.Command({ command, params_json: Buffer.from(JSON.stringify(params)), call_id: req.call_id }, (err, res) => {
          if (err) {
            reject(err);
          } else if (!res.ok) {
            const e = res.error || {};
            reject(new ToolError(e.code || 'TOOL_ERROR', e.hint || '', e.message || `editor command ${command} failed`, e.required || ''));
          } else {
            resolve(JSON.parse(Buffer.from(res.result_json).toString('utf8') || '{}'));
          }
        });
      }),
    log: (level, message, fields) => hostLog(state, level, message, ['tool', req.tool, 'call_id', req.call_id, ...(fields || [])]),
  };
  let args;
  try {
    args = JSON.parse(Buffer.from(req.arguments_json).toString('utf8') || '{}');
  } catch (err) {
    finish(call, errorResult(new ToolError('INVALID_ARGUMENT', 'pass the arguments as a JSON object', `arguments are not JSON: ${err.message}`)));
    return;
  }
  Promise.resolve()
    .then(() => tool(ctx, args))
    .then(
      (structured) => finish(call, { content: [{ text: { text: JSON.stringify(structured, null, 2) } }], structured_content_json: Buffer.from(JSON.stringify(structured)) }),
      (err) => finish(call, errorResult(err)),
    );
}

function finish(call, result) {
  if (call.cancelled) {
    return; // the host gave up; whatever we send is discarded
  }
  call.write({ result });
  call.end();
}

function errorResult(err) {
  const e = err instanceof ToolError ? err : new ToolError('TOOL_ERROR', 'report this to the toolset author', String(err && err.message ? err.message : err));
  return {
    is_error: true,
    content: [{ text: { text: `${e.code}: ${e.message}\nHint: ${e.hint}` } }],
    error: { code: e.code, message: e.message, hint: e.hint, required: e.required },
  };
}

// resolve turns a res:// argument into an existing absolute path inside the
// project, refusing escapes the way the Go sdk's Project.Resolve does.
function resolve(ctx, arg) {
  const root = ctx.env.projectDir;
  if (!root) {
    throw new ToolError('PRECONDITION_FAILED', 'start godot-mcp with --project pointing at a Godot project', 'the host has no project', 'project_dir');
  }
  const rel = arg.startsWith('res://') ? arg.slice('res://'.length) : arg;
  if (/^[a-z]+:\/\//.test(rel) || path.isAbsolute(rel) || rel.split('/').includes('..')) {
    throw new ToolError('INVALID_ARGUMENT', 'use a res:// path inside the project, such as res://scripts', `path ${JSON.stringify(arg)} leaves the project`);
  }
  const realRoot = fs.realpathSync(root);
  let abs;
  try {
    abs = fs.realpathSync(path.join(realRoot, rel));
  } catch {
    throw new ToolError('NOT_FOUND', 'check the path with a res:// listing of the project', `${arg} does not exist`);
  }
  if (abs !== realRoot && !abs.startsWith(realRoot + path.sep)) {
    throw new ToolError('INVALID_ARGUMENT', 'use a res:// path inside the project', `${arg} leads out of the project through a symbolic link`);
  }
  return { abs, root: realRoot };
}

function resPath(root, abs) {
  return 'res://' + path.relative(root, abs).split(path.sep).join('/');
}

async function countLines(ctx, args) {
  const { abs, root } = resolve(ctx, args.dir || 'res://');
  if (!fs.statSync(abs).isDirectory()) {
    throw new ToolError('INVALID_ARGUMENT', 'pass a directory, such as res://scripts', `${args.dir} is not a directory`);
  }
  const found = [];
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (e.name.startsWith('.')) {
        continue;
      }
      const p = path.join(dir, e.name);
      if (e.isDirectory()) {
        walk(p); // symbolic links are neither directories nor files here: never followed
      } else if (e.isFile() && path.extname(e.name) === '.' + args.extension) {
        found.push(p);
      }
    }
  };
  walk(abs);
  const files = [];
  let total = 0;
  for (const [i, p] of found.entries()) {
    if (ctx.isCancelled()) {
      throw new ToolError('CANCELLED', 'call again if you still need the count', 'the call was cancelled');
    }
    const text = fs.readFileSync(p, 'utf8');
    const lines = text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    files.push({ path: resPath(root, p), lines });
    total += lines;
    ctx.progress(i + 1, found.length, resPath(root, p));
    await new Promise((r) => setImmediate(r)); // let the progress event go out
  }
  ctx.log('info', 'counted lines', ['files', files.length, 'total_lines', total]);
  return { files, total_lines: total };
}

// editorInfo forwards one command to the Godot peer through the host's
// HostEditor service (§5). A failure from the peer (BRIDGE_DISCONNECTED when
// there is none) goes back to the caller unchanged: its hint says what to do.
async function editorInfo(ctx) {
  const reply = await ctx.editor('cmd_get_project_info', {});
  return { godot_version: reply.godot_version || '', project_name: reply.project_name || reply.name || '' };
}

async function writeNote(ctx, args) {
  if (!/\.(txt|md)$/.test(args.path)) {
    throw new ToolError('INVALID_ARGUMENT', 'name the note with a .txt or .md extension', `${args.path} is not a .txt or .md file`);
  }
  const rel = args.path.startsWith('res://') ? args.path.slice('res://'.length) : args.path;
  const slash = rel.lastIndexOf('/');
  const name = rel.slice(slash + 1);
  const { abs: parent, root } = resolve(ctx, 'res://' + (slash >= 0 ? rel.slice(0, slash) : ''));
  const target = path.join(parent, name);
  const out = { path: resPath(root, target), bytes: Buffer.byteLength(args.text), dry_run: ctx.dryRun, written: false };
  if (ctx.dryRun) {
    return out; // dry_run: say what would change, change nothing
  }
  const tmp = path.join(parent, `.tmp-${process.pid}-${crypto.randomBytes(4).toString('hex')}`);
  fs.writeFileSync(tmp, args.text);
  fs.renameSync(tmp, target);
  out.written = true;
  ctx.log('info', 'wrote note', ['path', out.path, 'bytes', out.bytes]);
  return out;
}

main(process.argv.slice(2));

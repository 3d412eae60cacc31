// The review-lsp VS Code extension: starts the review-lsp language server (setting
// review.serverPath, else `review-lsp` on PATH) for Python, C/C++, CUDA/HIP, CSV, YAML and JSON
// files of each workspace folder that lies inside a git repository; passes the `review.*`
// settings (initializationOptions, then live through workspace/didChangeConfiguration and
// workspace/configuration); contributes "Review: Open Rule…", "Review: Show Derived Rules",
// "Review: Rescan" and "Review: Show Server Log"; and opens the locations of the server's
// review.openRule / review.openLocation commands itself when the server did not show them.
'use strict';
const vscode = require('vscode');
const fs = require('fs');
const path = require('path');
const { LanguageClient, ExecuteCommandRequest } = require('vscode-languageclient/node');
const { readRules } = require('./rules');

const EXTS = 'py,c,cc,cpp,cxx,h,hh,hpp,hxx,cu,cuh,hip,csv,yaml,yml,json';
const SERVER_COMMANDS_WITH_LOCATIONS = new Set(['review.openRule', 'review.openLocation']);

/** git root (directory holding .git) -> LanguageClient */
const clients = new Map();
let output;
let extensionContext;

function gitRoot(dir) {
  let d = dir;
  for (;;) {
    if (fs.existsSync(path.join(d, '.git'))) return d;
    const p = path.dirname(d);
    if (p === d) return undefined;
    d = p;
  }
}

function serverCommand() {
  const configured = vscode.workspace.getConfiguration('review').get('serverPath');
  return configured && configured.trim() ? configured.trim() : 'review-lsp';
}

/** Is `cmd` runnable (an absolute/relative path that is executable, or found on PATH)? */
function findExecutable(cmd) {
  const candidates = cmd.includes('/') ? [cmd] : (process.env.PATH || '').split(path.delimiter).map((d) => path.join(d, cmd));
  for (const c of candidates) {
    try {
      fs.accessSync(c, fs.constants.X_OK);
      if (fs.statSync(c).isFile()) return c;
    } catch (e) { /* next */ }
  }
  return undefined;
}

/** The `review` settings as the server reads them (without the client-only serverPath). */
function reviewSettings(scope) {
  const cfg = vscode.workspace.getConfiguration('review', scope);
  const out = {};
  for (const key of ['base', 'title', 'rulesPath', 'severity', 'disabledRules', 'derivedHints', 'debounceMs', 'maxFileBytes', 'logLevel']) {
    out[key] = cfg.get(key);
  }
  return out;
}

/** Settings for initializationOptions: the server reads them before it knows the workspace, so
 * a relative rulesPath is made absolute against the repository here (later updates are
 * resolved by the server itself). */
function initSettings(root, folder) {
  const s = reviewSettings(folder && folder.uri);
  if (s.rulesPath && !path.isAbsolute(s.rulesPath)) s.rulesPath = path.join(root, s.rulesPath);
  return s;
}

/** Open a {uri, range} location (0-based) in an editor, selecting the range's start line. */
async function openLocation(loc) {
  const uri = vscode.Uri.parse(loc.uri);
  const doc = await vscode.workspace.openTextDocument(uri);
  const start = loc.range ? new vscode.Position(loc.range.start.line, loc.range.start.character) : new vscode.Position(Math.max(0, (loc.line || 1) - 1), 0);
  const editor = await vscode.window.showTextDocument(doc, { preview: false });
  editor.selection = new vscode.Selection(start, start);
  editor.revealRange(new vscode.Range(start, start), vscode.TextEditorRevealType.AtTop);
}

async function startClient(root, folder) {
  const cmd = serverCommand();
  const exe = findExecutable(cmd);
  if (!exe) {
    output.appendLine(`review-lsp: ${cmd} not found; set review.serverPath or put review-lsp on PATH`);
    vscode.window.showErrorMessage(`Review: the server ${cmd} was not found. Build it with \`make\` and set "review.serverPath", or put review-lsp on PATH.`);
    return undefined;
  }
  const run = { command: exe, args: [], options: { cwd: root } };
  const client = new LanguageClient('review-lsp', 'Review LSP', { run, debug: run }, {
    documentSelector: [{ scheme: 'file', pattern: `${root}/**/*.{${EXTS}}` }],
    workspaceFolder: folder,
    outputChannel: output,
    initializationOptions: { review: initSettings(root, folder) },
    synchronize: { configurationSection: 'review' },
    middleware: {
      executeCommand: async (command, args, next) => {
        const result = await next(command, args);
        if (SERVER_COMMANDS_WITH_LOCATIONS.has(command) && result && result.uri && result.shown === false) {
          await openLocation(result);
        }
        return result;
      },
    },
  });
  clients.set(root, client);
  await client.start();
  output.appendLine(`review-lsp: ${exe} started for ${root}`);
  return client;
}

async function startAll() {
  const roots = new Map();
  for (const f of vscode.workspace.workspaceFolders || []) {
    if (f.uri.scheme !== 'file') continue;
    const r = gitRoot(f.uri.fsPath);
    if (r && !roots.has(r)) roots.set(r, f);
  }
  for (const [root, folder] of roots) {
    if (!clients.has(root)) {
      try {
        await startClient(root, folder);
      } catch (e) {
        clients.delete(root);
        output.appendLine(`review-lsp: could not start for ${root}: ${e && e.message ? e.message : e}`);
      }
    }
  }
}

async function stopAll() {
  const all = [...clients.values()];
  clients.clear();
  await Promise.all(all.map((c) => c.stop().catch(() => undefined)));
}

/** The client for the active editor's repository, else the first one. */
function currentClient() {
  const ed = vscode.window.activeTextEditor;
  if (ed && ed.document.uri.scheme === 'file') {
    const r = gitRoot(path.dirname(ed.document.uri.fsPath));
    if (r && clients.has(r)) return clients.get(r);
  }
  return clients.values().next().value;
}

async function executeOnServer(command, args) {
  const client = currentClient();
  if (!client) {
    vscode.window.showWarningMessage('Review: no review-lsp server is running (is the workspace inside a git repository?)');
    return undefined;
  }
  return client.sendRequest(ExecuteCommandRequest.type, { command, arguments: args || [] });
}

/** The rules file the server uses, as far as the client can tell (see README, "VS Code"). */
function rulesFile() {
  // 1. a review diagnostic links to it (codeDescription.href = the rules file at the rule's line)
  for (const [, diags] of vscode.languages.getDiagnostics()) {
    for (const d of diags) {
      if (d.source === 'review' && d.code && typeof d.code === 'object' && d.code.target && d.code.target.scheme === 'file') {
        return d.code.target.fsPath;
      }
    }
  }
  // 2. the repository's own rules file, 3. the rulesPath setting, 4. the copy bundled in the extension
  const client = currentClient();
  const root = client ? [...clients.entries()].find(([, c]) => c === client)[0] : undefined;
  if (root) {
    const own = path.join(root, '.claude', 'skills', 'review-pr', 'rules.md');
    if (fs.existsSync(own)) return own;
    const rp = vscode.workspace.getConfiguration('review').get('rulesPath');
    if (rp) return path.isAbsolute(rp) ? rp : path.join(root, rp);
  }
  return extensionContext.asAbsolutePath('rules.md');
}

/** Rules for the quick pick: from the server when it offers `review.listRules` (a list of
 * {id, title, line, uri}), else parsed from the rules file the server uses. */
async function listRules() {
  const client = currentClient();
  const caps = client && client.initializeResult && client.initializeResult.capabilities;
  const cmds = (caps && caps.executeCommandProvider && caps.executeCommandProvider.commands) || [];
  if (cmds.includes('review.listRules')) {
    try {
      const list = await executeOnServer('review.listRules', []);
      if (Array.isArray(list) && list.length) {
        const file = list[0].uri ? vscode.Uri.parse(list[0].uri).fsPath : rulesFile();
        return { file, rules: list.map((r) => ({ id: r.id, title: r.title, line: r.line })) };
      }
    } catch (e) {
      output.appendLine(`review.listRules: ${e && e.message ? e.message : e}`);
    }
  }
  const file = rulesFile();
  return { file, rules: readRules(file) };
}

async function cmdOpenRule(id) {
  let ruleId = typeof id === 'string' ? id : undefined;
  const { file, rules } = await listRules();
  if (!ruleId) {
    const items = rules.map((r) => ({ label: r.id, description: r.title, detail: undefined, rule: r }));
    const pick = await vscode.window.showQuickPick(items, { placeHolder: 'Open a review rule', matchOnDescription: true });
    if (!pick) return;
    ruleId = pick.rule.id;
  }
  if (currentClient()) {
    try {
      const result = await executeOnServer('review.openRule', [ruleId]);
      if (result && result.uri && result.shown === false) await openLocation(result);
      return;
    } catch (e) {
      output.appendLine(`review.openRule ${ruleId}: ${e && e.message ? e.message : e}`);
    }
  }
  const r = rules.find((x) => x.id === ruleId);
  if (r) await openLocation({ uri: vscode.Uri.file(file).toString(), line: r.line });
  else vscode.window.showWarningMessage(`Review: unknown rule ${ruleId}`);
}

async function cmdShowDerived() {
  const text = await executeOnServer('review.showDerivedRules', []);
  if (typeof text !== 'string') return;
  const doc = await vscode.workspace.openTextDocument({ content: text, language: 'plaintext' });
  await vscode.window.showTextDocument(doc, { preview: false });
}

async function cmdRescan() {
  const r = await executeOnServer('review.rescan', []);
  if (r) vscode.window.showInformationMessage(`Review: ${r.files} changed files, ${r.findings} findings`);
}

function activate(context) {
  extensionContext = context;
  output = vscode.window.createOutputChannel('Review LSP');
  context.subscriptions.push(output);
  context.subscriptions.push(
    vscode.commands.registerCommand('reviewLsp.openRule', cmdOpenRule),
    vscode.commands.registerCommand('reviewLsp.showDerivedRules', cmdShowDerived),
    vscode.commands.registerCommand('reviewLsp.rescan', cmdRescan),
    vscode.commands.registerCommand('reviewLsp.showServerLog', () => output.show(true)),
    vscode.workspace.onDidChangeWorkspaceFolders(() => startAll()),
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      if (e.affectsConfiguration('review.serverPath')) {
        await stopAll();
        await startAll();
      }
    }),
  );
  return startAll();
}

function deactivate() {
  return stopAll();
}

module.exports = { activate, deactivate };

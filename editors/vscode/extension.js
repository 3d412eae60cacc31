// The review-lsp VS Code extension. Starts one review-lsp language server for the window (the
// server reviews each workspace folder's git repository on its own): the `review.serverPath`
// setting when set, else the server carried inside this platform .vsix (server/review-lsp),
// else `review-lsp` on PATH. Passes the `review.*` settings (initializationOptions, then live
// through workspace/didChangeConfiguration and workspace/configuration); contributes
// "Review: Open Rule…" (rules from the server's review.listRules), "Review: Show Checklist" (the
// server's review checklist in a read-only `review-checklist:` document that follows the
// change), "Review: Show Derived Rules", "Review: Rescan" and "Review: Show Server Log"; shows
// a line's evidence in full (the hover's "Show evidence" link: the server's review.showEvidence)
// in a read-only document of the same scheme; trusts hover Markdown for those two links only;
// and opens the locations of the server's
// review.openRule / review.openLocation commands itself when the server did not show them
// (offering a choice when a finding's evidence has several places). Bundled with esbuild into
// dist/extension.js.
'use strict';
const vscode = require('vscode');
const fs = require('fs');
const path = require('path');
const { LanguageClient, ExecuteCommandRequest } = require('vscode-languageclient/node');

const EXTS = 'py,c,cc,cpp,cxx,h,hh,hpp,hxx,cu,cuh,hip,csv,yaml,yml,json';
const CHECKLIST_SCHEME = 'review-checklist';

let client;
let output;
let extensionContext;
let checklist; // the checklist provider

function gitRoot(dir) {
  let d = dir;
  for (;;) {
    if (fs.existsSync(path.join(d, '.git'))) return d;
    const p = path.dirname(d);
    if (p === d) return undefined;
    d = p;
  }
}

/** Is `cmd` runnable (a path that is an executable file, or a name found on PATH)? */
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

/** The server to run: the setting, else the one inside the .vsix, else review-lsp on PATH. */
function serverExecutable() {
  const configured = (vscode.workspace.getConfiguration('review').get('serverPath') || '').trim();
  if (configured) return { exe: findExecutable(configured), wanted: configured };
  const bundled = extensionContext.asAbsolutePath(path.join('server', 'review-lsp'));
  if (fs.existsSync(bundled)) {
    try {
      fs.accessSync(bundled, fs.constants.X_OK);
    } catch (e) {
      fs.chmodSync(bundled, 0o755); // a .vsix may not keep the executable bit
    }
    return { exe: bundled, wanted: bundled };
  }
  return { exe: findExecutable('review-lsp'), wanted: 'review-lsp' };
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

/** Open a {uri, range} location (0-based) in an editor, selecting the range's start. */
async function openLocation(loc) {
  const uri = vscode.Uri.parse(loc.uri);
  const doc = await vscode.workspace.openTextDocument(uri);
  const start = loc.range ? new vscode.Position(loc.range.start.line, loc.range.start.character) : new vscode.Position(Math.max(0, (loc.line || 1) - 1), 0);
  const editor = await vscode.window.showTextDocument(doc, { preview: false });
  editor.selection = new vscode.Selection(start, start);
  editor.revealRange(new vscode.Range(start, start), vscode.TextEditorRevealType.AtTop);
}

/** Pick one of a finding's evidence places (several), or undefined. */
async function pickEvidence(locations) {
  const items = locations.map((l) => ({
    label: `${vscode.workspace.asRelativePath(vscode.Uri.parse(l.uri))}:${l.range.start.line + 1}`,
    detail: l.message,
    loc: l,
  }));
  const pick = await vscode.window.showQuickPick(items, { placeHolder: 'Go to evidence', matchOnDetail: true });
  return pick && pick.loc;
}

/** The checklist documents: review-checklist:/<name>.md?<uri of a file in the repository>, and
 * the evidence documents: review-checklist:/Evidence <file>:<line>.md?<the review.showEvidence
 * argument as JSON>. Their text comes from the server and is fetched again whenever diagnostics
 * change (each review publishes), so an open document follows the change. */
class ChecklistProvider {
  constructor() {
    this.emitter = new vscode.EventEmitter();
    this.onDidChange = this.emitter.event;
    this.open = new Set();
  }
  async provideTextDocumentContent(uri) {
    this.open.add(uri.toString());
    if (uri.path.startsWith('/Evidence')) {
      try {
        const result = await executeOnServer('review.showEvidence', [JSON.parse(decodeURIComponent(uri.query))]);
        return result && typeof result.markdown === 'string' ? result.markdown : '# Evidence\n\nNo review yet.\n';
      } catch (e) {
        return `# Evidence\n\nThe server could not show it: ${e && e.message ? e.message : e}\n`;
      }
    }
    const arg = uri.query ? [{ uri: decodeURIComponent(uri.query) }] : [];
    try {
      const result = await executeOnServer('review.showChecklist', arg);
      return result && typeof result.markdown === 'string' ? result.markdown : '# Review checklist\n\nNo review yet.\n';
    } catch (e) {
      return `# Review checklist\n\nThe server could not build it: ${e && e.message ? e.message : e}\n`;
    }
  }
  refresh() {
    for (const u of this.open) this.emitter.fire(vscode.Uri.parse(u));
  }
}

/** Show the checklist of the repository holding `fileUri` (a string; undefined: every one). */
async function showChecklist(fileUri) {
  const uri = vscode.Uri.from({ scheme: CHECKLIST_SCHEME, path: '/Review checklist.md', query: fileUri ? encodeURIComponent(fileUri) : '' });
  checklist.open.add(uri.toString());
  checklist.emitter.fire(uri);
  const doc = await vscode.workspace.openTextDocument(uri);
  await vscode.languages.setTextDocumentLanguage(doc, 'markdown');
  await vscode.window.showTextDocument(doc, { preview: false });
}

/** Show the evidence of the findings on a line ({uri, line}, 0-based), from the hover's link. */
async function showEvidence(arg) {
  if (!arg || typeof arg.uri !== 'string') return;
  const name = `${vscode.workspace.asRelativePath(vscode.Uri.parse(arg.uri))}:${(arg.line || 0) + 1}`;
  const uri = vscode.Uri.from({ scheme: CHECKLIST_SCHEME, path: `/Evidence ${name}.md`, query: encodeURIComponent(JSON.stringify(arg)) });
  checklist.open.add(uri.toString());
  checklist.emitter.fire(uri);
  const doc = await vscode.workspace.openTextDocument(uri);
  await vscode.languages.setTextDocumentLanguage(doc, 'markdown');
  await vscode.window.showTextDocument(doc, { preview: false });
}

async function startClient() {
  const { exe, wanted } = serverExecutable();
  if (!exe) {
    output.appendLine(`review-lsp: ${wanted} not found; set review.serverPath or put review-lsp on PATH`);
    vscode.window.showErrorMessage(`Review: the server ${wanted} was not found. Set "review.serverPath" or put review-lsp on PATH.`);
    return undefined;
  }
  const run = { command: exe, args: [] };
  const c = new LanguageClient('review-lsp', 'Review LSP', { run, debug: run }, {
    documentSelector: [{ scheme: 'file', pattern: `**/*.{${EXTS}}` }],
    outputChannel: output,
    initializationOptions: { review: reviewSettings() },
    synchronize: { configurationSection: 'review' },
    // The hover's links run the checklist and evidence commands; nothing else in a hover may run.
    markdown: { isTrusted: { enabledCommands: ['review.showChecklist', 'review.showEvidence'] } },
    middleware: {
      executeCommand: async (command, args, next) => {
        if (command === 'review.showChecklist') {
          const a = args && args[0];
          await showChecklist(a && a.uri);
          return undefined;
        }
        if (command === 'review.showEvidence') {
          await showEvidence(args && args[0]);
          return undefined;
        }
        if (command === 'review.openLocation' && args && args[0] && Array.isArray(args[0].locations) && args[0].locations.length > 1) {
          const loc = await pickEvidence(args[0].locations);
          if (loc) await openLocation(loc);
          return undefined;
        }
        const result = await next(command, args);
        if ((command === 'review.openRule' || command === 'review.openLocation') && result && result.uri && result.shown === false) {
          await openLocation(result);
        }
        return result;
      },
    },
  });
  client = c;
  await c.start();
  output.appendLine(`review-lsp: ${exe} started`);
  return c;
}

async function start() {
  const inGit = (vscode.workspace.workspaceFolders || []).some((f) => f.uri.scheme === 'file' && gitRoot(f.uri.fsPath));
  if (!inGit || client) return;
  try {
    await startClient();
  } catch (e) {
    client = undefined;
    output.appendLine(`review-lsp: could not start: ${e && e.message ? e.message : e}`);
  }
}

async function stop() {
  const c = client;
  client = undefined;
  if (c) await c.stop().catch(() => undefined);
}

async function executeOnServer(command, args) {
  if (!client) {
    vscode.window.showWarningMessage('Review: no review-lsp server is running (is the workspace inside a git repository?)');
    return undefined;
  }
  return client.sendRequest(ExecuteCommandRequest.type, { command, arguments: args || [] });
}

/** A file URI of the active editor (names the repository for per-repository commands). */
function activeFileUri() {
  const ed = vscode.window.activeTextEditor;
  return ed && ed.document.uri.scheme === 'file' ? ed.document.uri.toString() : undefined;
}

async function cmdOpenRule(id) {
  let ruleId = typeof id === 'string' ? id : undefined;
  const file = activeFileUri();
  if (!ruleId) {
    const rules = await executeOnServer('review.listRules', file ? [{ uri: file }] : []);
    if (!Array.isArray(rules)) return;
    const items = rules.map((r) => ({ label: r.id, description: r.title, detail: r.category, rule: r }));
    const pick = await vscode.window.showQuickPick(items, { placeHolder: 'Open a review rule', matchOnDescription: true });
    if (!pick) return;
    ruleId = pick.rule.id;
  }
  const result = await executeOnServer('review.openRule', [file ? { rule: ruleId, file } : ruleId]);
  if (result && result.uri && result.shown === false) await openLocation(result);
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
  checklist = new ChecklistProvider();
  context.subscriptions.push(
    output,
    vscode.workspace.registerTextDocumentContentProvider(CHECKLIST_SCHEME, checklist),
    vscode.languages.onDidChangeDiagnostics(() => checklist.refresh()),
    vscode.workspace.onDidCloseTextDocument((d) => { if (d.uri.scheme === CHECKLIST_SCHEME) checklist.open.delete(d.uri.toString()); }),
    vscode.commands.registerCommand('reviewLsp.openRule', cmdOpenRule),
    vscode.commands.registerCommand('reviewLsp.showChecklist', () => showChecklist(activeFileUri())),
    vscode.commands.registerCommand('reviewLsp.showDerivedRules', cmdShowDerived),
    vscode.commands.registerCommand('reviewLsp.rescan', cmdRescan),
    vscode.commands.registerCommand('reviewLsp.showServerLog', () => output.show(true)),
    vscode.workspace.onDidChangeWorkspaceFolders(() => start()),
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      if (e.affectsConfiguration('review.serverPath')) {
        await stop();
        await start();
      }
    }),
  );
  return start();
}

function deactivate() {
  return stop();
}

module.exports = { activate, deactivate };

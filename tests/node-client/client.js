#!/usr/bin/env node
// One end-to-end scenario against the real review-lsp binary, driven by vscode-jsonrpc and
// vscode-languageserver-protocol (the libraries under VS Code's own language client), with the
// capabilities VS Code announces: pull diagnostics, code descriptions, related information,
// window/showDocument, work-done progress, workspace/configuration, dynamic registration of
// watched files, UTF-16 positions — on a multi-root workspace of two repositories, each
// reviewed on its own, pulled document by document and as a workspace. Prints one
// "PASS lsp_node_client.<step>" or "FAIL ..." line per step for tests/run-all.sh.
//
// usage: node client.js BIN WORKSPACE SECOND_WORKSPACE
'use strict';
const { spawn } = require('child_process');
const path = require('path');
const rpc = require('vscode-jsonrpc/node');
const P = require('vscode-languageserver-protocol');

const [bin, ws, ws2] = process.argv.slice(2);
if (!bin || !ws || !ws2) {
  console.error('usage: client.js BIN WORKSPACE SECOND_WORKSPACE');
  process.exit(2);
}
const suite = 'lsp_node_client';
const TIMEOUT = 20000;
let failed = 0;
function pass(name) { console.log(`PASS ${suite}.${name}`); }
function fail(name, why) { failed++; console.log(`FAIL ${suite}.${name}`); console.error(`  ${name}: ${why}`); }
function check(name, cond, why) { if (cond) pass(name); else fail(name, why); }

const fileUri = (p) => 'file://' + p.split('/').map(encodeURIComponent).join('/');
const wsUri = fileUri(ws);
const kernel = path.join(ws, 'csrc/kernels/attn.cu');
const kernelUri = fileUri(kernel);
const ws2Uri = fileUri(ws2);
const wrapperUri = fileUri(path.join(ws2, 'aiter/ops/triton/scale.py'));
const fs = require('fs');

// Wait until pred() over the recorded events is true.
function waitFor(what, pred) {
  return new Promise((resolve, reject) => {
    const t0 = Date.now();
    const tick = () => {
      const v = pred();
      if (v) return resolve(v);
      if (Date.now() - t0 > TIMEOUT) return reject(new Error(`timed out waiting for ${what}`));
      setTimeout(tick, 10);
    };
    tick();
  });
}

(async () => {
  const child = spawn(bin, ['--stdio'], { cwd: ws, stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, XDG_CACHE_HOME: path.join(ws, '..', 'node-cache') } });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  const exited = new Promise((resolve) => child.on('exit', (code) => resolve(code)));
  const conn = rpc.createMessageConnection(new rpc.StreamMessageReader(child.stdout),
    new rpc.StreamMessageWriter(child.stdin));

  const published = [];
  const progress = [];
  const shown = [];
  let refreshes = 0, registrations = 0, configAsked = 0;
  conn.onNotification(P.PublishDiagnosticsNotification.type, (p) => published.push(p));
  conn.onNotification('$/progress', (p) => progress.push(p));
  conn.onNotification(P.LogMessageNotification.type, () => {});
  conn.onNotification(P.ShowMessageNotification.type, (p) => console.error('showMessage:', p.message));
  conn.onRequest(P.WorkDoneProgressCreateRequest.type, () => null);
  conn.onRequest(P.ConfigurationRequest.type, (p) => { configAsked++; return p.items.map(() => ({ debounceMs: 0 })); });
  conn.onRequest(P.RegistrationRequest.type, () => { registrations++; return null; });
  conn.onRequest(P.ShowDocumentRequest.type, (p) => { shown.push(p); return { success: true }; });
  conn.onRequest(P.DiagnosticRefreshRequest.type, () => { refreshes++; return null; });
  conn.listen();

  try {
    const init = await conn.sendRequest(P.InitializeRequest.type, {
      processId: process.pid,
      clientInfo: { name: 'node-client-test' },
      rootUri: wsUri,
      workspaceFolders: [{ uri: wsUri, name: 'ws' }, { uri: ws2Uri, name: 'second' }],
      capabilities: {
        general: { positionEncodings: ['utf-16'] },
        window: { workDoneProgress: true, showDocument: { support: true } },
        workspace: { configuration: true, didChangeWatchedFiles: { dynamicRegistration: true },
          diagnostics: { refreshSupport: true } },
        textDocument: {
          synchronization: { didSave: true },
          publishDiagnostics: { relatedInformation: true, codeDescriptionSupport: true, dataSupport: true, versionSupport: true },
          diagnostic: { dynamicRegistration: false, relatedDocumentSupport: false },
          hover: { contentFormat: ['markdown', 'plaintext'] },
          codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix'] } }, dataSupport: true },
        },
      },
    });
    check('initialize', init.capabilities.positionEncoding === 'utf-16' && init.serverInfo.name === 'review-lsp' &&
      init.capabilities.diagnosticProvider && init.capabilities.diagnosticProvider.workspaceDiagnostics === true &&
      init.capabilities.executeCommandProvider.commands.includes('review.showChecklist') &&
      init.capabilities.executeCommandProvider.commands.includes('review.listRules') &&
      init.capabilities.textDocumentSync.change === P.TextDocumentSyncKind.Incremental,
      JSON.stringify(init));
    conn.sendNotification(P.InitializedNotification.type, {});

    await waitFor('the first scan', () => progress.find((p) => p.value.kind === 'end'));
    const first = await waitFor('a publish for the kernel', () => published.find((p) => p.uri === kernelUri));
    check('first-scan-progress-and-push', configAsked === 1 && registrations === 1 &&
      progress[0].value.kind === 'begin' && first.diagnostics.length === 1 && first.diagnostics[0].code === 'derived' &&
      first.diagnostics[0].data.families.join() === 'modified-kernel',
      JSON.stringify({ configAsked, registrations, progress, first }));
    // The second repository is reviewed too, with its own change.
    const second = await waitFor('a publish for the second repository', () => published.find((p) => p.uri === wrapperUri));
    check('second-repository-reviewed', second.diagnostics.some((d) => d.code === 'D4' && d.range.start.line === 4),
      JSON.stringify(second));

    const text = fs.readFileSync(kernel, 'utf8');
    conn.sendNotification(P.DidOpenTextDocumentNotification.type,
      { textDocument: { uri: kernelUri, languageId: 'cuda', version: 1, text } });
    // The pushed copy is cleared once the document is open (the client pulls it now).
    await waitFor('the pushed copy to clear', () => published.find((p) => p.uri === kernelUri && p.diagnostics.length === 0));
    const pulled = await conn.sendRequest(P.DocumentDiagnosticRequest.type, { textDocument: { uri: kernelUri } });
    const hint = pulled.items[0];
    check('pull-diagnostics', pulled.kind === 'full' && pulled.items.length === 1 && hint.code === 'derived' &&
      hint.range.start.line === 3 && hint.range.end.character === 41 && hint.severity === P.DiagnosticSeverity.Hint,
      JSON.stringify(pulled));

    // A workspace pull (as VS Code's client does every few seconds): the files of both
    // repositories, the open one with its version; the second pull with the result ids is all
    // "unchanged".
    const wsPull = await conn.sendRequest(P.WorkspaceDiagnosticRequest.type, { previousResultIds: [] });
    const byUri = new Map(wsPull.items.map((i) => [i.uri, i]));
    check('workspace-pull', byUri.get(kernelUri) && byUri.get(kernelUri).version === 1 &&
      byUri.get(wrapperUri) && byUri.get(wrapperUri).kind === 'full' &&
      byUri.get(wrapperUri).items.some((d) => d.code === 'D4'), JSON.stringify(wsPull));
    const again = await conn.sendRequest(P.WorkspaceDiagnosticRequest.type,
      { previousResultIds: wsPull.items.map((i) => ({ uri: i.uri, value: i.resultId })) });
    check('workspace-pull-unchanged', again.items.length === wsPull.items.length && again.items.every((i) => i.kind === 'unchanged'),
      JSON.stringify(again));
    const pushedAfter = published.length;

    const hover = await conn.sendRequest(P.HoverRequest.type, { textDocument: { uri: kernelUri }, position: { line: 3, character: 38 } });
    check('hover', hover && hover.contents.kind === 'markdown' && /^\*\*Derived for this file:\*\* modified-kernel — \[open the review checklist\]\(command:review\.showChecklist\?/.test(hover.contents.value) &&
      !/\*\*A1 — /.test(hover.contents.value), JSON.stringify(hover));
    const hover2 = await conn.sendRequest(P.HoverRequest.type, { textDocument: { uri: wrapperUri }, position: { line: 4, character: 4 } });
    check('hover-second-repository', hover2 && /^\*\*D4 — /.test(hover2.contents.value) && /Derived for this file:\*\* [^\n]*ops-wrapper/.test(hover2.contents.value),
      JSON.stringify(hover2));

    const actions = await conn.sendRequest(P.CodeActionRequest.type, {
      textDocument: { uri: kernelUri }, range: hint.range, context: { diagnostics: [hint] } });
    check('code-actions', actions.length === 1 && actions[0].title === 'Open review checklist' &&
      actions[0].command.command === 'review.showChecklist', JSON.stringify(actions));
    const checklist = await conn.sendRequest(P.ExecuteCommandRequest.type, actions[0].command);
    check('checklist', checklist && /^# Review checklist\n/.test(checklist.markdown) &&
      /\n## modified-kernel\n\nTriggered at csrc\/kernels\/attn\.cu:4\n\n- \[ \] \*\*A1 — /.test(checklist.markdown) &&
      !/scale\.py/.test(checklist.markdown), JSON.stringify(checklist).slice(0, 2000));
    const rules = await conn.sendRequest(P.ExecuteCommandRequest.type, { command: 'review.listRules', arguments: [] });
    const a1 = Array.isArray(rules) && rules.find((r) => r.id === 'A1');
    check('list-rules', a1 && a1.title && a1.line > 0 && /rules\.md$/.test(a1.uri) && rules.length > 60 &&
      rules.some((r) => r.id === 'HK19'), JSON.stringify(rules).slice(0, 500));
    const res = await conn.sendRequest(P.ExecuteCommandRequest.type, { command: 'review.openRule', arguments: [{ rule: 'A1' }] });
    await waitFor('window/showDocument', () => shown.length > 0);
    check('open-rule-shows-document', res.shown === true && shown[0].uri === res.uri && res.line === a1.line &&
      shown[0].selection.start.line === res.line - 1 && fs.existsSync(new URL(res.uri).pathname) &&
      fs.readFileSync(new URL(res.uri).pathname, 'utf8').split('\n')[res.line - 1].startsWith('**A1 '),
      JSON.stringify({ res, shown }));

    // Revert the changed line in the buffer (UTF-16 range covering the emoji and accent).
    const before = refreshes;
    conn.sendNotification(P.DidChangeTextDocumentNotification.type, {
      textDocument: { uri: kernelUri, version: 2 },
      contentChanges: [{ range: { start: { line: 3, character: 24 }, end: { line: 3, character: 41 } }, text: '1.0f;' }],
    });
    await waitFor('a refresh after the edit', () => refreshes > before);
    const after = await conn.sendRequest(P.DocumentDiagnosticRequest.type, { textDocument: { uri: kernelUri } });
    check('edit-reverts-to-base', after.items.length === 0, JSON.stringify(after));

    const derived = await conn.sendRequest(P.ExecuteCommandRequest.type, { command: 'review.showDerivedRules', arguments: [] });
    check('show-derived-rules', typeof derived === 'string' && /files=0|underivable/.test(derived), JSON.stringify(derived));

    conn.sendNotification(P.DidCloseTextDocumentNotification.type, { textDocument: { uri: kernelUri } });
    // Closed: the disk still differs from the base; the client pulls the workspace, so nothing
    // is pushed and the next workspace pull reports the file again.
    let report;
    for (let i = 0; i < 50 && !report; i++) {
      const r = await conn.sendRequest(P.WorkspaceDiagnosticRequest.type, { previousResultIds: [] });
      report = r.items.find((it) => it.uri === kernelUri && it.kind === 'full' && it.items.length === 1);
      if (!report) await new Promise((ok) => setTimeout(ok, 100));
    }
    check('close-reported-by-workspace-pull', report && published.length === pushedAfter,
      JSON.stringify({ report, pushes: published.slice(pushedAfter) }));

    await conn.sendRequest(P.ShutdownRequest.type);
    conn.sendNotification(P.ExitNotification.type);
    const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('timeout'), TIMEOUT))]);
    check('exit-code', code === 0, `exit ${code}`);
  } catch (e) {
    fail('scenario', e.stack || String(e));
    child.kill('SIGKILL');
  }
  if (/AddressSanitizer|LeakSanitizer|runtime error:/.test(stderr)) fail('sanitizers', stderr.slice(0, 3000));
  conn.dispose();
  process.exit(failed ? 1 : 0);
})();

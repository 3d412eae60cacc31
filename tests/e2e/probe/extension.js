// Test-only probe extension for tests/e2e (never shipped): appends one JSON line per event to
// $DIAG_PROBE_OUT — {"event":"diagnostics","uri","diags":[...]} on every diagnostics change
// (all URIs) and {"event":"editor","uri","line","character","text"} when the active editor or
// its selection changes (the selection's start; text: that line, or the head of a document that
// is not a file: untitled, or the review checklist), {"event":"config","review":{...}} when a review.* setting changes — so tests/e2e/driver.js can
// assert on what VS Code itself holds rather than on the DOM.
'use strict';
const vscode = require('vscode');
const fs = require('fs');

function write(obj) {
  const out = process.env.DIAG_PROBE_OUT;
  if (!out) return;
  obj.t = Date.now();
  fs.appendFileSync(out, JSON.stringify(obj) + '\n');
}

function dumpDiagnostics(uris) {
  for (const uri of uris) {
    const diags = vscode.languages.getDiagnostics(uri).map((d) => ({
      source: d.source,
      code: d.code && typeof d.code === 'object' ? String(d.code.value) : d.code === undefined ? null : String(d.code),
      href: d.code && typeof d.code === 'object' && d.code.target ? d.code.target.toString() : null,
      message: d.message,
      severity: d.severity,
      line: d.range.start.line,
      character: d.range.start.character,
      related: (d.relatedInformation || []).length,
    }));
    write({ event: 'diagnostics', uri: uri.toString(), diags });
  }
}

function dumpEditor(ed) {
  if (!ed) return;
  const doc = ed.document;
  write({
    event: 'editor',
    uri: doc.uri.toString(),
    line: ed.selection.start.line,
    character: ed.selection.start.character,
    text: doc.uri.scheme !== 'file' ? doc.getText().slice(0, 200000) : doc.lineAt(ed.selection.start.line).text,
  });
}

function activate(context) {
  write({ event: 'probe-started' });
  context.subscriptions.push(
    vscode.languages.onDidChangeDiagnostics((e) => dumpDiagnostics(e.uris)),
    // a virtual document's text may arrive after it is shown: record it again when it changes
    vscode.workspace.onDidChangeTextDocument((e) => {
      const ed = vscode.window.activeTextEditor;
      if (ed && ed.document === e.document && e.document.uri.scheme !== 'file') dumpEditor(ed);
    }),
    vscode.window.onDidChangeActiveTextEditor((ed) => dumpEditor(ed)),
    vscode.window.onDidChangeTextEditorSelection((e) => dumpEditor(e.textEditor)),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('review')) write({ event: 'config', review: vscode.workspace.getConfiguration('review') });
    }),
  );
  dumpDiagnostics(vscode.languages.getDiagnostics().map(([u]) => u));
  dumpEditor(vscode.window.activeTextEditor);
}

module.exports = { activate, deactivate() {} };

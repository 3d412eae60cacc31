// Reads rule ids and titles out of a review rules file (review-lsp's bundled rules/rules.md or
// aiter's .claude/skills/review-pr/rules.md): `**ID — Title** <marker>` block headings and
// `| ID — Title | ... |` rows of the housekeeping table. Used by "Review: Open Rule…" for its
// quick pick; the rule is then opened through the server (review.openRule).
'use strict';
const fs = require('fs');

const BLOCK = /^\*\*([A-Za-z][A-Za-z0-9.\-]*) — (.+?)\*\*\s*(.*)$/;
const ROW = /^\|\s*([A-Za-z][A-Za-z0-9.\-]*) — (.+?)\s*\|/;

/** Parse the text of a rules file: [{id, title, line (1-based), marker}] in file order. */
function parseRules(text) {
  const out = [];
  const seen = new Set();
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const m = BLOCK.exec(lines[i]) || ROW.exec(lines[i]);
    if (!m || seen.has(m[1])) continue;
    seen.add(m[1]);
    const marker = (m[3] || '').match(/🔴|⚠️|📝/);
    out.push({ id: m[1], title: m[2].trim(), line: i + 1, marker: marker ? marker[0] : '' });
  }
  return out;
}

/** Parse a rules file by path; [] when it cannot be read. */
function readRules(path) {
  try {
    return parseRules(fs.readFileSync(path, 'utf8'));
  } catch (e) {
    return [];
  }
}

module.exports = { parseRules, readRules };

// Reads a SARIF log back with Microsoft's SARIF Multitool: `validate` with the SARIF rules and
// the GitHub code scanning ones (Gh, Ghas). Prints "valid" and exits 0 when the Multitool
// reports no error or warning (its notes are advice, listed on stderr); else prints each
// error and warning as "RULE level: message" and exits 1.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');

const multitool = require('@microsoft/sarif-multitool');
const input = process.argv[2];
if (!input) {
  console.error('usage: node validate.js LOG.sarif');
  process.exit(2);
}
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sarif-multitool-'));
const out = path.join(dir, 'validation.sarif');
const run = spawnSync(multitool, ['validate', input, '--output', out, '--log', 'ForceOverwrite',
  '--rule-kind', 'Sarif;Gh;Ghas', '--level', 'Error;Warning;Note'],
  { encoding: 'utf8', env: { ...process.env, DOTNET_CLI_TELEMETRY_OPTOUT: '1' } });
if (run.status !== 0 || !fs.existsSync(out)) {
  console.log(`the Multitool failed (exit ${run.status}): ${run.stdout}${run.stderr}`);
  process.exit(1);
}
const log = JSON.parse(fs.readFileSync(out, 'utf8'));
fs.rmSync(dir, { recursive: true, force: true });
let bad = 0;
for (const r of log.runs) {
  const rules = new Map((r.tool.driver.rules || []).map((x) => [x.id, x]));
  for (const res of r.results || []) {
    const rule = rules.get(res.ruleId) || {};
    const template = ((rule.messageStrings || {})[res.message.id] || {}).text || res.message.text || '';
    const text = template.replace(/\{(\d+)\}/g, (_, i) => (res.message.arguments || [])[i]);
    const line = `${res.ruleId} ${res.level || 'warning'}: ${text}`;
    if (res.level === 'note') {
      console.error(line);
    } else {
      console.log(line);
      bad++;
    }
  }
}
if (bad) process.exit(1);
console.log('valid');

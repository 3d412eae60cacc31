// Prints the workflow commands GitHub's own toolkit (@actions/core) writes for the results of
// a SARIF log from review-lsp (a file path): one `core.warning` (SARIF level warning) or
// `core.notice` (note) per result, titled "[ID] rule title", its message followed by one
// "path:line: message" line per related location (not the places only its evidence shows,
// marked "exhibit" in their properties: the annotation carries no exhibits), at the result's
// region (the path decoded from the SARIF artifact URI). The batch suite
// compares `check --format github` with this, so its escaping and properties are the toolkit's.
'use strict';
const fs = require('fs');
const core = require('@actions/core');

const log = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
// SARIF artifact URIs are percent-encoded relative references; annotations name the file.
const file = (loc) => decodeURIComponent(loc.physicalLocation.artifactLocation.uri);
const run = log.runs[0];
const rules = run.tool.driver.rules;
for (const res of run.results) {
  const rule = rules[res.ruleIndex];
  const region = res.locations[0].physicalLocation.region;
  let message = res.message.text;
  for (const rel of res.relatedLocations || []) {
    if (rel.properties && rel.properties.exhibit) continue;
    message += `\n${file(rel)}:${rel.physicalLocation.region.startLine}: ${rel.message.text}`;
  }
  const props = {
    title: `[${res.ruleId}] ${rule.shortDescription.text}`,
    file: file(res.locations[0]),
    startLine: region.startLine,
    startColumn: region.startColumn,
  };
  if (region.endLine > region.startLine) props.endLine = region.endLine;
  if (region.endLine === region.startLine && region.endColumn > region.startColumn) {
    props.endColumn = region.endColumn;
  }
  if (res.level === 'warning') core.warning(message, props);
  else core.notice(message, props);
}

// Validates a SARIF log (a file path, or standard input) against the SARIF 2.1.0 schema.
// Prints "valid" and exits 0, or prints each schema error and exits 1.
'use strict';
const fs = require('fs');
const path = require('path');
const Ajv = require('ajv');

const schemaPath = path.join(path.dirname(require.resolve('@microsoft/jest-sarif/package.json')),
  'lib', 'schemas', 'sarif-2.1.0-rtm.5.json');
const schema = JSON.parse(fs.readFileSync(schemaPath, 'utf8'));
const input = fs.readFileSync(process.argv[2] || 0, 'utf8');
const ajv = new Ajv({ allErrors: true, schemaId: 'auto' });
ajv.addMetaSchema(require('ajv/lib/refs/json-schema-draft-04.json'));
const validate = ajv.compile(schema);
if (validate(JSON.parse(input))) {
  console.log('valid');
} else {
  for (const e of validate.errors) console.log(`${e.dataPath} ${e.message}`);
  process.exit(1);
}

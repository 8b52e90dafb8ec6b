// Validates and lints an OpenAPI document read from standard input (issue 13): @apidevtools/swagger-parser
// and Spectral's spectral:oas ruleset. A separate node process, because swagger-parser's CommonJS code
// requires an ES module, which jest's module runtime cannot load. Prints { valid, error?, findings }.
import SwaggerParser from '@apidevtools/swagger-parser';
import spectralCore from '@stoplight/spectral-core';
import spectralParsers from '@stoplight/spectral-parsers';
import spectralRulesets from '@stoplight/spectral-rulesets';
import { load } from 'js-yaml';

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const text = Buffer.concat(chunks).toString('utf8');
const yaml = process.argv[2] === 'yaml';

let valid = true;
let error;
try {
  await SwaggerParser.validate(yaml ? load(text) : JSON.parse(text));
} catch (e) {
  valid = false;
  error = String(e?.message ?? e);
}

const spectral = new spectralCore.Spectral();
spectral.setRuleset({ extends: [[spectralRulesets.oas, 'recommended']] });
const results = await spectral.run(new spectralCore.Document(text, yaml ? spectralParsers.Yaml : spectralParsers.Json));
// Severity 0 is an error, 1 a warning: both are findings (hints and information are not).
const findings = results.filter((r) => r.severity <= 1).map((r) => ({ code: r.code, severity: r.severity, path: r.path.join('.'), message: r.message }));
process.stdout.write(JSON.stringify({ valid, error, findings }));

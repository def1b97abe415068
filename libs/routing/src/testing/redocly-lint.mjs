// Lints the OpenAPI document read from stdin with Redocly's `recommended` rules (the engine of
// `redocly lint`) and prints the problems as JSON. A separate process: @redocly/openapi-core is ESM only.
import { createConfig, lintFromString } from '@redocly/openapi-core';

let source = '';
for await (const chunk of process.stdin) source += chunk;
const config = await createConfig({ extends: ['recommended'] });
const problems = await lintFromString({ source, absoluteRef: 'openapi.json', config });
const brief = problems.map((p) => ({ severity: p.severity, rule: p.ruleId, message: p.message, at: p.location?.[0]?.pointer }));
process.stdout.write(JSON.stringify(brief));

// Writes every JSON Schema file of touchstone's own formats from its TypeBox source (each
// format is written once, beside the code that reads it; see core/schema-document.ts).
// `npm run schemas` runs this; harness/cli/schema-files.test.ts fails when a committed file
// differs from what its source generates, and when a *.schema.json is written by hand.
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { SchemaFile } from '../core/schema-document.js';
import { cassetteSchemaFile } from '../cassette/cassette-format.js';
import { resultsSchemaFile } from '../core/results.js';
import { requirementsSchemaFile, suiteSchemaFile } from '../core/suite-format.js';
import { switchSchemaFiles } from '../mutate/switch-registry.js';
import { compilerSuiteSchemaFile } from '../plugin/compiler-suite-format.js';
import { pluginSessionSchemaFile } from '../plugin/plugin-session-format.js';
import { pluginSuiteSchemaFile } from '../plugin/plugin-suite-format.js';
import { proxyConfigSchemaFile } from '../proxy/proxy-config-format.js';
import { baselineSchemaFile } from '../report/baseline.js';
import { endpointsSchemaFile } from '../suite/endpoint-aliases.js';
import { tokensSchemaFile } from '../http/tokens-file.js';
import { configSchemaFile } from './config-format.js';
import { projectPath } from '../../lib/project-files.js';

export const SCHEMAS_COMMAND = 'npm run schemas';

export const SCHEMA_FILES: readonly SchemaFile[] = [
  requirementsSchemaFile,
  suiteSchemaFile,
  endpointsSchemaFile,
  ...switchSchemaFiles,
  baselineSchemaFile,
  proxyConfigSchemaFile,
  resultsSchemaFile,
  pluginSuiteSchemaFile,
  compilerSuiteSchemaFile,
  pluginSessionSchemaFile,
  cassetteSchemaFile,
  tokensSchemaFile,
  configSchemaFile,
];

/** The file's text as the generator writes it. */
export function schemaFileText(file: SchemaFile): string {
  return `${JSON.stringify(file.document, null, 2)}\n`;
}

function currentText(file: SchemaFile): string | undefined {
  try {
    return readFileSync(projectPath(file.path), 'utf8');
  } catch {
    return undefined; // not written yet
  }
}

/** The generated files whose committed text differs from what their source generates. */
export function staleSchemaFiles(): SchemaFile[] {
  return SCHEMA_FILES.filter((file) => currentText(file) !== schemaFileText(file));
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const file of SCHEMA_FILES) {
    const wanted = schemaFileText(file);
    const current = currentText(file);
    if (wanted !== current) writeFileSync(projectPath(file.path), wanted);
    process.stdout.write(`${file.path}: ${wanted === current ? 'up to date' : 'written'}\n`);
  }
}

// The proxy's --config file: match and redaction rules as data, so ignoring a cache
// buster or redacting one more field never needs code.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RedactionConfig } from '../cassette/redaction.js';
import { compileSchemaFile, createAjv, readValidatedFile } from '../core/validated-file.js';
import type { MatchConfig } from './proxy-options.js';

export interface ProxyConfigFile {
  match?: Partial<MatchConfig>;
  redaction?: Omit<RedactionConfig, 'secrets'>;
}

const SCHEMA = path.join(path.dirname(fileURLToPath(import.meta.url)), 'proxy-config.schema.json');

export function readProxyConfig(file: string): ProxyConfigFile {
  return readValidatedFile<ProxyConfigFile>(file, compileSchemaFile(createAjv(), SCHEMA));
}

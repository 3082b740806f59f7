// The proxy's --config file: match and redaction rules as data, so ignoring a cache
// buster or redacting one more field never needs code.
import type { RedactionConfig } from '../cassette/redaction.js';
import { compileSchemaFile, createAjv, readValidatedFile } from '../core/validated-file.js';
import type { MatchConfig } from './proxy-options.js';
import { projectPath } from '../../lib/project-files.js';

export interface ProxyConfigFile {
  match?: Partial<MatchConfig>;
  redaction?: Omit<RedactionConfig, 'secrets'>;
}

const SCHEMA = projectPath('harness/proxy/proxy-config.schema.json');

export function readProxyConfig(file: string): ProxyConfigFile {
  return readValidatedFile<ProxyConfigFile>(file, compileSchemaFile(createAjv(), SCHEMA));
}

// The proxy's --config file: match and redaction rules as data, so ignoring a cache
// buster or redacting one more field never needs code.
import { compileSchemaFile, createAjv, readValidatedFile } from '../core/validated-file.js';
import { proxyConfigSchemaFile, type ProxyConfigFile } from './proxy-config-format.js';
import { projectPath } from '../../lib/project-files.js';

export type { ProxyConfigFile };

const SCHEMA = projectPath(proxyConfigSchemaFile.path);

export function readProxyConfig(file: string): ProxyConfigFile {
  return readValidatedFile<ProxyConfigFile>(file, compileSchemaFile(createAjv(), SCHEMA));
}

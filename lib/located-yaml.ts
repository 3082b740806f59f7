// YAML data with positions, shared by the harness (harness/core/validated-file.ts) and the
// reference service (its world loader), which may not import each other: parse a YAML text
// keeping where each value stands, and describe JSON Schema (Ajv) errors with the line and
// column of the value they are about. Imports nothing of either.
import type { ErrorObject } from 'ajv';
import { isMap, isNode, LineCounter, parseDocument, type Document } from 'yaml';

/** Where in the source an Ajv error points, as `line:column` (1-based), or undefined. */
export type Locate = (error: ErrorObject) => string | undefined;

export class YamlSyntaxError extends Error {
  constructor(
    message: string,
    /** `line:column` of the problem, when the parser knows it. */
    readonly at: string | undefined,
  ) {
    super(message);
  }
}

/** The 1-based line where the value at `path` (keys and indexes) starts, or undefined. */
export type LineOf = (path: readonly (string | number)[]) => number | undefined;

/** The YAML's data (duplicate keys refused), a locator for schema errors about it, and the line of any value in it. */
export function parseLocatedYaml(text: string): { data: unknown; locate: Locate; lineOf: LineOf } {
  const lines = new LineCounter();
  const document = parseDocument(text, { uniqueKeys: true, lineCounter: lines, prettyErrors: true });
  const [problem] = document.errors;
  if (problem) {
    const at = problem.linePos?.[0];
    throw new YamlSyntaxError(problem.message.split('\n')[0], at ? `${at.line}:${at.col}` : undefined);
  }
  const lineOf: LineOf = (at) => {
    const node = document.getIn(at, true);
    return isNode(node) && node.range ? lines.linePos(node.range[0]).line : undefined;
  };
  return { data: document.toJS(), locate: locator(document, lines), lineOf };
}

/** The node at the error's path; for an unknown property its key, so the position is where the user must look. */
function locator(document: Document, lines: LineCounter): Locate {
  return (error) => {
    const segments = error.instancePath
      .split('/')
      .slice(1)
      .map((part) => {
        const name = part.replace(/~1/g, '/').replace(/~0/g, '~');
        return /^\d+$/.test(name) ? Number(name) : name;
      });
    let node: unknown = document.getIn(segments, true) ?? document.contents;
    if (error.keyword === 'additionalProperties' && isMap(node)) {
      const key = node.items.find((pair) => isNode(pair.key) && pair.key.toJSON() === error.params.additionalProperty)?.key;
      if (key) node = key;
    }
    if (!isNode(node) || !node.range) return undefined;
    const { line, col } = lines.linePos(node.range[0]);
    return `${line}:${col}`;
  };
}

/** Up to `limit` schema errors, deepest first (Ajv reports every failing oneOf branch; the deepest paths say the most). */
export function describeSchemaErrors(errors: ErrorObject[] | null | undefined, locate?: Locate, limit = 5): string {
  const sorted = [...(errors ?? [])].sort((a, b) => b.instancePath.length - a.instancePath.length);
  const lines = sorted.slice(0, limit).map((e) => {
    const extra = e.keyword === 'additionalProperties' ? ` (${String(e.params.additionalProperty)})` : '';
    const at = locate?.(e);
    return `${at ? `line ${at}: ` : ''}${e.instancePath || '/'} ${e.message ?? e.keyword}${extra}`;
  });
  return [...new Set(lines)].join('; ');
}

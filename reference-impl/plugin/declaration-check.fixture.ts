// Test helper: type-checks generated .d.ts files with the TypeScript compiler, strictly and
// under NodeNext resolution with isolatedModules, so "valid TypeScript whose imports resolve"
// is checked rather than assumed.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

/** The compiler's diagnostics, one line each; empty when every .d.ts under `dir` checks. */
export function typeCheckDeclarations(dir: string): string[] {
  const roots = (readdirSync(dir, { recursive: true, encoding: 'utf8' }) as string[])
    .filter((name) => name.endsWith('.d.ts'))
    .sort()
    .map((name) => join(dir, name));
  const program = ts.createProgram(roots, {
    strict: true,
    noEmit: true,
    isolatedModules: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2022.d.ts'],
    types: [],
    skipLibCheck: false,
  });
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const where = diagnostic.file
      ? `${diagnostic.file.fileName}:${diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0).line + 1}: `
      : '';
    return `${where}${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
  });
}

// A failing plugin run's request, saved beside the report so that it can be fed to the plugin
// again exactly (`protoc-gen-x < plugin-requests/io/real-request/run-1.bin`), with its readable protoc
// text form beside it. Layout, under the report folder:
//
//   plugin-requests/<suite>/<case-id>/run-<n>.bin   the exact bytes written on the plugin's stdin (n from 1)
//   plugin-requests/<suite>/<case-id>/run-<n>.txt   the same request as `protoc --decode` prints it
//
// Decisions where the brief is silent:
// - Only runs that a failure names are saved: a passing run needs no reproduction.
// - The command names the file as the user would type it from where they ran touchstone
//   (relative when the report is below that folder, else absolute), and the plugin command
//   as given, so it can be pasted as it is.
// - Bytes that are no CodeGeneratorRequest (the garbage cases) get a .txt that says so.
import path from 'node:path';
import { shellWord } from '../core/shell-word.js';
import { writeFileAtomic } from '../core/write-file-atomic.js';
import { makeDirectory } from '../../lib/make-directory.js';
import { requestTextFormat } from '../protocol/text-format.js';
import { caseFolder } from './plugin-session-format.js';

export const SAVED_REQUESTS_DIR = 'plugin-requests';

/**
 * For one case: saves a run's request under `outDir` and returns the command that feeds it to
 * `command` again (PluginCaseContext.reproduce).
 */
export function requestSaver(outDir: string, cwd: string, command: string[], suite: string, caseId: string) {
  return (stdin: Uint8Array, index: number): string => {
    const folder = caseFolder(path.join(outDir, SAVED_REQUESTS_DIR), suite, caseId);
    makeDirectory(folder);
    const file = path.join(folder, `run-${index + 1}.bin`);
    writeFileAtomic(file, stdin);
    writeFileAtomic(file.replace(/\.bin$/, '.txt'), textForm(stdin));
    const relative = path.relative(cwd, file);
    const named = relative.startsWith('..') || path.isAbsolute(relative) ? file : relative;
    return `${command.map(shellWord).join(' ')} < ${shellWord(named)}`;
  };
}

function textForm(stdin: Uint8Array): string {
  try {
    return requestTextFormat(stdin);
  } catch (error) {
    return `# not a CodeGeneratorRequest (${(error as Error).message}): the .bin holds the exact bytes the case sent\n`;
  }
}

// `touchstone protoc ...`: the reference compiler side, a protoc-compatible driver that runs
// code-generator plugins (reference-impl/compiler). protoc's flags are open-ended
// (--NAME_out=..., --NAME_opt=..., -Ipath, @argfile), so they never go through yargs: main()
// hands everything after `protoc` to runProtocCommand untouched; its yargs entry in main.ts
// only lists the command in `touchstone --help`. Exit status is protoc's (0 or 1), not
// touchstone's usual 2 for usage errors: scripts written for protoc test for 1.
export async function runProtocCommand(args: string[]): Promise<number> {
  // Dynamic, like embedded-reference.ts: the CLI's module graph stays free of reference-impl
  // until this command runs.
  const { runProtoc } = await import('../../reference-impl/compiler/protoc-driver.js');
  return runProtoc(args);
}

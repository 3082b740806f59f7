// A test that needs a program from Debian's packages (chromium, protoc, wrk): without it a developer
// gets a visible skip with the reason; CI sets the named TOUCHSTONE_REQUIRE_* variable to 1,
// so a missing program fails the test instead of silently passing.
export type Skippable = { skip(condition: boolean, description: string): void };

export function skipUnlessInstalled(test: Skippable, present: boolean, missing: string, requireVar: string): void {
  const reason = `${missing} (CI sets ${requireVar}=1 to fail here instead)`;
  if (!present && process.env[requireVar] === '1') throw new Error(`${requireVar}=1 but ${reason}`);
  if (!present) console.warn(`skipping: ${reason}`);
  test.skip(!present, reason);
}

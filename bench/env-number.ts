// Numeric BENCH_* settings. A typo must stop the run rather than silently fall back to the
// default, or a "quick" run would quietly measure something else.

/** The positive number in env[name], or `fallback` when unset or empty; anything else throws. */
export function positiveEnvNumber(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name}=${raw} must be a positive number`);
  return value;
}

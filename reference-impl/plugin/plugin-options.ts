// The generator parameter: comma-separated `key=value` pairs, as protoc builds it from
// `--touchstone_out=PARAM:DIR` and every `--touchstone_opt=...` (joined with ","). A problem
// here is the user's, not the plugin's, so it comes back as a message naming the option,
// which generate() puts in CodeGeneratorResponse.error (exit 0).

export type OutputFormat = 'md' | 'ts' | 'both';

export interface PluginOptions {
  /** Which outputs each file gets: a Markdown reference, TypeScript declarations, or both. */
  format: OutputFormat;
  /** Largest File.content in UTF-8 bytes before the rest goes into nameless continuation Files; 0 = never split. */
  chunk: number;
  /** Whether outputs carry @@protoc_insertion_point annotations. */
  insertionPoints: boolean;
}

// 16 KiB: small enough that a reference for a schema of a few dozen messages is really split
// (so a compiler's continuation handling is exercised by ordinary use), large enough that
// typical files stay whole.
export const DEFAULT_CHUNK_BYTES = 16384;
// A chunk must hold any one code point (up to 4 UTF-8 bytes): chunks are cut between code
// points so each is valid UTF-8 on its own, as a proto string must be.
export const MIN_CHUNK_BYTES = 4;

export const DEFAULT_OPTIONS: PluginOptions = { format: 'both', chunk: DEFAULT_CHUNK_BYTES, insertionPoints: true };

type Setter = (options: PluginOptions, value: string) => string | undefined;

const SETTERS: Record<string, Setter> = {
  format(options, value) {
    if (value !== 'md' && value !== 'ts' && value !== 'both') return 'must be md, ts or both';
    options.format = value;
    return undefined;
  },
  chunk(options, value) {
    if (!/^\d+$/.test(value)) return 'must be a whole number of bytes (0 = never split)';
    const bytes = Number(value);
    if (!Number.isSafeInteger(bytes)) return 'is too large';
    if (bytes !== 0 && bytes < MIN_CHUNK_BYTES) return `must be 0 or at least ${MIN_CHUNK_BYTES} (a chunk holds at least one character)`;
    options.chunk = bytes;
    return undefined;
  },
  insertion_points(options, value) {
    if (value !== 'true' && value !== 'false') return 'must be true or false';
    options.insertionPoints = value === 'true';
    return undefined;
  },
};

export const OPTION_NAMES = Object.keys(SETTERS).sort();

export type ParsedOptions = { ok: true; options: PluginOptions } | { ok: false; error: string };

/**
 * Later pairs win over earlier ones, so `--touchstone_opt` can override what `--touchstone_out`
 * said (protoc appends the _opt values). Empty items (",,") are ignored; spaces around keys
 * and values are trimmed.
 */
export function parsePluginOptions(parameter: string | undefined): ParsedOptions {
  const options = { ...DEFAULT_OPTIONS };
  for (const item of (parameter ?? '').split(',')) {
    if (item.trim() === '') continue;
    const equals = item.indexOf('=');
    const key = (equals < 0 ? item : item.slice(0, equals)).trim();
    const setter = Object.hasOwn(SETTERS, key) ? SETTERS[key] : undefined;
    if (!setter) {
      return { ok: false, error: `unknown option "${key}" in parameter "${parameter}"; known options: ${OPTION_NAMES.join(', ')}` };
    }
    if (equals < 0) return { ok: false, error: `option "${key}" needs a value (${key}=...) in parameter "${parameter}"` };
    const value = item.slice(equals + 1).trim();
    const problem = setter(options, value);
    if (problem) return { ok: false, error: `option "${key}" ${problem}, got "${value}"` };
  }
  return { ok: true, options };
}

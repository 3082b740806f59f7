// Fills a request or expectation template from values known at run time: ${name} inside
// strings comes from captures of earlier steps (and ${n} in limits cases); a string that
// is exactly "$list" becomes the list value itself (an array), so bodies can carry
// generated lists; an object with one key naming a helper (`{ $base64: text }`) becomes
// the helper's result, computed after its argument is filled in.
//
// The helpers compute what a client must compute before it sends (the brief asks for
// Base64 and the sealed boxes secrets are sent in); each is a few lines over a
// well-kept library. The lint (`templateProblems`) checks names and arguments when a
// suite loads, so a typo is a load error, not an ERROR half-way through a run.
import sodium from 'libsodium-wrappers';
import { HarnessError } from '../core/errors.js';
import type { Json } from '../core/suite-format.js';

export interface Bindings {
  values: Record<string, string | number>;
  list?: Json[];
  /** Texts a helper learns are secret (a sealed message and its box), for the case's redaction. */
  secrets?: Set<string>;
}

type Helper = {
  /** What is wrong with the (uninterpolated) argument, if anything. */
  check(arg: unknown): string | undefined;
  compute(arg: unknown, secrets?: Set<string>): Promise<string>;
};

const isText = (value: unknown): value is string => typeof value === 'string';

const HELPERS: Record<string, Helper> = {
  /** Base64 (standard alphabet, padded) of the UTF-8 text. */
  $base64: {
    check: (arg) => (isText(arg) ? undefined : 'takes a string'),
    compute: async (arg) => Buffer.from(arg as string, 'utf8').toString('base64'),
  },
  /**
   * `{ public_key, message }`: the message sealed (libsodium crypto_box_seal) for the
   * Base64 public key, in Base64: what a client sends as a secret's encrypted value.
   */
  $sealed_box: {
    check: (arg) => {
      const fields = arg && typeof arg === 'object' && !Array.isArray(arg) ? Object.keys(arg) : [];
      const args = arg as Record<string, unknown>;
      return fields.length === 2 && isText(args.public_key) && isText(args.message)
        ? undefined
        : 'takes { public_key: <Base64>, message: <text> }';
    },
    async compute(arg, secrets) {
      const { public_key, message } = arg as { public_key: string; message: string };
      await sodium.ready;
      const key = Buffer.from(public_key, 'base64');
      if (key.length !== sodium.crypto_box_PUBLICKEYBYTES || key.toString('base64') !== public_key.replace(/\s/g, ''))
        throw new HarnessError('CONFIG', `$sealed_box: public_key is not a Base64 ${sodium.crypto_box_PUBLICKEYBYTES}-byte key`);
      const sealed = Buffer.from(sodium.crypto_box_seal(Buffer.from(message, 'utf8'), key)).toString('base64');
      secrets?.add(message).add(sealed);
      return sealed;
    },
  },
};

/** The helper an object calls, when it is `{ $name: arg }`. */
function helperCall(value: object): [name: string, arg: unknown] | undefined {
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0].startsWith('$') ? [keys[0], (value as Record<string, unknown>)[keys[0]]] : undefined;
}

const REFERENCE = /\$\{([A-Za-z0-9_-]+)\}/g;

export async function interpolate<T>(template: T, bindings: Bindings): Promise<T> {
  const walk = async (value: unknown): Promise<unknown> => {
    if (typeof value === 'string') {
      if (value === '$list') {
        if (!bindings.list) throw new HarnessError('CONFIG', '$list used outside a limits case');
        return bindings.list;
      }
      return value.replace(REFERENCE, (_, name: string) => {
        if (!(name in bindings.values)) throw new HarnessError('CONFIG', `\${${name}} is not captured by an earlier step`);
        return String(bindings.values[name]);
      });
    }
    if (Array.isArray(value)) return Promise.all(value.map(walk));
    if (value && typeof value === 'object') {
      const call = helperCall(value);
      if (call) {
        const helper = HELPERS[call[0]];
        if (!helper) throw new HarnessError('CONFIG', `unknown helper ${call[0]}`);
        return helper.compute(await walk(call[1]), bindings.secrets);
      }
      const entries = await Promise.all(Object.entries(value).map(async ([k, v]) => [k, await walk(v)] as const));
      return Object.fromEntries(entries);
    }
    return value;
  };
  return (await walk(template)) as T;
}

/**
 * What is wrong with a template given the names bound when it runs: a ${name} no earlier
 * step captures, $list outside a limits case, an unknown helper or a bad argument.
 */
export function templateProblems(template: unknown, bound: { names: ReadonlySet<string>; list: boolean }): string[] {
  const problems: string[] = [];
  const walk = (value: unknown) => {
    if (typeof value === 'string') {
      if (value === '$list' && !bound.list) problems.push('$list is only bound in a limits case');
      for (const [, name] of value.matchAll(REFERENCE))
        if (!bound.names.has(name)) problems.push(`\${${name}} is not captured by an earlier step`);
    } else if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') {
      const call = helperCall(value);
      if (call) {
        const helper = HELPERS[call[0]];
        const problem = helper ? helper.check(call[1]) : `unknown (known: ${Object.keys(HELPERS).join(', ')})`;
        if (problem) problems.push(`helper ${call[0]} ${problem}`);
      }
      Object.values(value).forEach(walk);
    }
  };
  walk(template);
  return [...new Set(problems)];
}

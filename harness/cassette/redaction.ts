// Redaction (DESIGN "Cassette format"): the secrets policy (secrets/secret-policy.ts) applied
// to every interaction before anything is written, and to each incoming request at replay, so
// a live request normalises to the same key as its redacted recording and still matches. What
// is secret, and what replaces it, is the policy's; this module only knows where a cassette
// keeps each part of a message.
//
// Decisions where the brief is silent:
// - When a body changes, a content-length header is restated for the new bytes (encoded
//   with the body's contentEncoding, as replay will send them).
// - A sidecar body was scrubbed by the body sink as it streamed (the policy's bodyRedaction),
//   and a digest-only body has no bytes left: neither is scrubbed again here.
import type { HeaderPairs } from '../core/results.js';
import { createSecretPolicy, type Pass, type RedactionConfig, type SecretPolicy, type Side } from '../secrets/secret-policy.js';
import { encodeContent, inlineBodyBytes } from './body-codec.js';
import {
  isDigestOnly,
  type Body,
  type BodyData,
  type Interaction,
  type RecordedRequest,
  type RecordedResponse,
} from './cassette-format.js';

export type { RedactionConfig, Side } from '../secrets/secret-policy.js';

/** A cassette's redaction: the policy's notes, learnt secrets, streaming scrubbers and restore, and its inline scrubbing of cassette messages. */
export interface Redactor
  extends Pick<
    SecretPolicy,
    'notes' | 'replacements' | 'restore' | 'bodyFieldRules' | 'formFieldRules' | 'isSecretHeader' | 'bodyRedaction'
  > {
  /** Returns a new object; also records notes. */
  redactInteraction(i: Interaction): Interaction;
  /** Same rules, request side only (the proxy's matching key at replay). */
  redactRequest(r: RecordedRequest): RecordedRequest;
}

export function createRedactor(config: RedactionConfig = {}): Redactor {
  const policy = createSecretPolicy(config);

  function redactBody(body: Body, headers: HeaderPairs, side: Side, pass: Pass): Body {
    if ('file' in body) return body; // the streaming body sink scrubbed it
    const contentType = headers.find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? '';
    let data: BodyData;
    if ('json' in body) {
      const json = policy.bodyJson(body.json, side, pass);
      if (json === body.json) return body;
      data = { json };
    } else if ('text' in body) {
      const text = policy.bodyText(body.text, contentType, side, pass);
      if (text === body.text) return body;
      data = { text };
    } else {
      const bytes = Buffer.from(body.base64, 'base64');
      const out = policy.bodyBytes(bytes, pass);
      if (out === bytes) return body;
      data = { base64: out.toString('base64') };
    }
    pass.notes.add(`${side}.body`);
    // `encoded` held the wire bytes of the unredacted body: dropped so replay re-encodes.
    return body.contentEncoding ? { ...data, contentEncoding: body.contentEncoding } : data;
  }

  function restateLength(headers: HeaderPairs, body: Body): HeaderPairs {
    const bytes = inlineBodyBytes(body);
    const length = body.contentEncoding ? encodeContent(body.contentEncoding, bytes).length : bytes.length;
    return headers.map(([k, v]) => [k, k.toLowerCase() === 'content-length' ? String(length) : v]);
  }

  function redactMessage<M extends RecordedRequest | RecordedResponse>(message: M, side: Side, pass: Pass): M {
    const out: M = { ...message, headers: policy.headers(message.headers, side, pass) };
    if ('url' in out) out.url = policy.url(out.url, pass);
    if (message.body && !isDigestOnly(message.body)) {
      const body = redactBody(message.body, message.headers, side, pass);
      if (body !== message.body) {
        out.body = body;
        out.headers = restateLength(out.headers, body);
      }
    }
    return out;
  }

  const { notes, replacements, restore, bodyFieldRules, formFieldRules, isSecretHeader, bodyRedaction } = policy;
  return {
    notes,
    replacements,
    restore,
    bodyFieldRules,
    formFieldRules,
    isSecretHeader,
    bodyRedaction,
    redactInteraction: (i) =>
      policy.twoPass((pass) => ({
        ...i,
        request: redactMessage(i.request, 'request', pass),
        response: redactMessage(i.response, 'response', pass),
      })),
    redactRequest: (r) => {
      // Nothing to discover in a request without headers, query or body: only the known
      // secrets are swept from its path (replay's common case, and its per-request cost).
      if (r.headers.length === 0 && r.body === undefined && !r.url.includes('?')) {
        const url = policy.sweepUrl(r.url);
        return url === r.url ? r : { ...r, url };
      }
      return policy.twoPass((pass) => redactMessage(r, 'request', pass));
    },
  };
}

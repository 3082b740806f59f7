// The one way a cassette becomes text. Reviewers read cassettes in diffs, and the same
// traffic must give the same bytes, so the layout is fixed here rather than left to
// JSON.stringify's key order: keys in the order of the types, 2-space indentation, LF,
// a final newline, and each header pair on one line so duplicates and order stay visible.
import {
  isDigestOnly,
  type Body,
  type BodyData,
  type Cassette,
  type DigestOnlyBody,
  type Interaction,
  type RecordedRequest,
  type RecordedResponse,
} from './cassette-format.js';

type Fields = Array<[key: string, rendered: string | undefined]>;

const INDENT = '  ';

export function serializeCassette(c: Cassette): string {
  const text = renderObject(
    [
      ['cassetteVersion', JSON.stringify(c.cassetteVersion)],
      ['name', JSON.stringify(c.name)],
      ['recordedAt', JSON.stringify(c.recordedAt)],
      ['incomplete', c.incomplete && 'true'],
      [
        'redactions',
        renderArray(
          c.redactions.map((r) => JSON.stringify(r)),
          1,
        ),
      ],
      [
        'interactions',
        renderArray(
          c.interactions.map((i) => renderInteraction(i, 2)),
          1,
        ),
      ],
    ],
    0,
  );
  return `${text}\n`;
}

function renderInteraction(i: Interaction, depth: number): string {
  return renderObject(
    [
      ['seq', JSON.stringify(i.seq)],
      ['request', renderRequest(i.request, depth + 1)],
      ['response', renderResponse(i.response, depth + 1)],
    ],
    depth,
  );
}

function renderRequest(r: RecordedRequest, depth: number): string {
  return renderObject(
    [
      ['method', JSON.stringify(r.method)],
      ['url', JSON.stringify(r.url)],
      ['headers', renderHeaders(r.headers, depth + 1)],
      ['body', r.body && renderBody(r.body, depth + 1)],
    ],
    depth,
  );
}

function renderResponse(r: RecordedResponse, depth: number): string {
  return renderObject(
    [
      ['status', JSON.stringify(r.status)],
      ['statusText', r.statusText === undefined ? undefined : JSON.stringify(r.statusText)],
      ['headers', renderHeaders(r.headers, depth + 1)],
      ['body', r.body && renderBody(r.body, depth + 1)],
    ],
    depth,
  );
}

function renderHeaders(headers: Array<[string, string]>, depth: number): string {
  return renderArray(
    headers.map(([name, value]) => `[${JSON.stringify(name)}, ${JSON.stringify(value)}]`),
    depth,
  );
}

function renderBody(b: Body | DigestOnlyBody, depth: number): string {
  const fields: Fields = [['contentEncoding', b.contentEncoding && JSON.stringify(b.contentEncoding)]];
  if (isDigestOnly(b)) {
    fields.push(['sha256', JSON.stringify(b.sha256)], ['size', JSON.stringify(b.size)]);
    return renderObject(fields, depth);
  }
  fields.push(...bodyDataFields(b, depth));
  if (b.encoded) fields.push(['encoded', renderObject(bodyDataFields(b.encoded, depth + 1), depth + 1)]);
  return renderObject(fields, depth);
}

function bodyDataFields(d: BodyData, depth: number): Fields {
  // A json value keeps its own key order: that order is what reproduces the recorded bytes.
  if ('json' in d) return [['json', indentContinuation(JSON.stringify(d.json, null, 2), depth + 1)]];
  if ('text' in d) return [['text', JSON.stringify(d.text)]];
  if ('base64' in d) return [['base64', JSON.stringify(d.base64)]];
  return [
    ['file', JSON.stringify(d.file)],
    ['sha256', JSON.stringify(d.sha256)],
    ['size', JSON.stringify(d.size)],
  ];
}

/** `depth` is the indentation level of the object's closing brace; members sit one deeper. */
function renderObject(fields: Fields, depth: number): string {
  const present = fields.filter((f): f is [string, string] => f[1] !== undefined);
  if (present.length === 0) return '{}';
  const inner = INDENT.repeat(depth + 1);
  const lines = present.map(([key, value]) => `${inner}${JSON.stringify(key)}: ${value}`);
  return `{\n${lines.join(',\n')}\n${INDENT.repeat(depth)}}`;
}

/** Items are rendered for the member level, one deeper than the array's brackets at `depth`. */
function renderArray(items: string[], depth: number): string {
  if (items.length === 0) return '[]';
  const inner = INDENT.repeat(depth + 1);
  return `[\n${items.map((item) => inner + item).join(',\n')}\n${INDENT.repeat(depth)}]`;
}

/** A pretty-printed value whose key sits at `level`: its later lines shift right by that much. */
function indentContinuation(pretty: string, level: number): string {
  return pretty.replaceAll('\n', `\n${INDENT.repeat(level)}`);
}

import { expect, test } from '@playwright/test';
import type { Cassette } from './cassette-format.js';
import { parseCassette } from './cassette-load.js';
import { serializeCassette } from './cassette-serialize.js';

const SHA = 'a'.repeat(64);

function sample(): Cassette {
  return {
    cassetteVersion: 1,
    name: 'widgets/create',
    recordedAt: '2026-01-02T03:04:05.000Z',
    redactions: ['request.headers.authorization'],
    interactions: [
      {
        seq: 1,
        request: {
          method: 'POST',
          url: '/widgets?x=1',
          headers: [
            ['content-type', 'application/json'],
            ['authorization', '<redacted:authorization>'],
          ],
          body: { json: { name: 'Ada', tags: ['a'], nested: { z: 1, a: 2 } } },
        },
        response: {
          status: 201,
          statusText: 'Made',
          headers: [
            ['set-cookie', 'a=1'],
            ['set-cookie', 'b=2'],
          ],
          body: { contentEncoding: 'gzip', text: 'hi', encoded: { base64: 'aGk=' } },
        },
      },
      {
        seq: 2,
        request: { method: 'GET', url: '/blob', headers: [] },
        response: { status: 200, headers: [], body: { file: 'w.blobs/sha256-x', sha256: SHA, size: 3 } },
      },
    ],
  };
}

test('a cassette is written in the fixed layout: type key order, one header pair per line, final newline', () => {
  expect(serializeCassette(sample())).toBe(`{
  "cassetteVersion": 1,
  "name": "widgets/create",
  "recordedAt": "2026-01-02T03:04:05.000Z",
  "redactions": [
    "request.headers.authorization"
  ],
  "interactions": [
    {
      "seq": 1,
      "request": {
        "method": "POST",
        "url": "/widgets?x=1",
        "headers": [
          ["content-type", "application/json"],
          ["authorization", "<redacted:authorization>"]
        ],
        "body": {
          "json": {
            "name": "Ada",
            "tags": [
              "a"
            ],
            "nested": {
              "z": 1,
              "a": 2
            }
          }
        }
      },
      "response": {
        "status": 201,
        "statusText": "Made",
        "headers": [
          ["set-cookie", "a=1"],
          ["set-cookie", "b=2"]
        ],
        "body": {
          "contentEncoding": "gzip",
          "text": "hi",
          "encoded": {
            "base64": "aGk="
          }
        }
      }
    },
    {
      "seq": 2,
      "request": {
        "method": "GET",
        "url": "/blob",
        "headers": []
      },
      "response": {
        "status": 200,
        "headers": [],
        "body": {
          "file": "w.blobs/sha256-x",
          "sha256": "${SHA}",
          "size": 3
        }
      }
    }
  ]
}
`);
});

test('the same cassette built with keys in another order gives the same bytes, and loads back equal', () => {
  const c = sample();
  // Reverse the key order of structural objects only; a json body keeps its own.
  const reverse = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(reverse);
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(
      Object.entries(value)
        .reverse()
        .map(([k, v]) => [k, k === 'json' ? v : reverse(v)]),
    );
  };
  const shuffled = reverse(c) as Cassette;
  expect(Object.keys(shuffled)[0]).toBe('interactions');
  const text = serializeCassette(c);
  expect(serializeCassette(shuffled)).toBe(text);
  expect(text).not.toContain('\r');
  expect(parseCassette(text, '/tmp/x.cassette.json')).toEqual(c);
  expect(serializeCassette(parseCassette(text, '/tmp/x.cassette.json'))).toBe(text);
});

test('an empty cassette is still a complete document', () => {
  const text = serializeCassette({ cassetteVersion: 1, name: 'e', recordedAt: '2026-01-01T00:00:00Z', redactions: [], interactions: [] });
  expect(text).toBe(
    '{\n  "cassetteVersion": 1,\n  "name": "e",\n  "recordedAt": "2026-01-01T00:00:00Z",\n  "redactions": [],\n  "interactions": []\n}\n',
  );
});

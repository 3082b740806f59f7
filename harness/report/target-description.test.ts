// How the console and the reports name what a run judged, recorded or replayed.
import { expect, test } from '@playwright/test';
import { describeTarget } from './target-description.js';

test('a run names its target; recording says where to, a replay names its recordings and what they stand for', () => {
  const service = (target: Parameters<typeof describeTarget>[0]['target']) => describeTarget({ kind: 'service', target });
  expect(service({ url: 'https://impl.example', embedded: false })).toBe('https://impl.example');
  expect(service({ url: 'http://127.0.0.1:4010', embedded: true })).toBe('embedded reference (http://127.0.0.1:4010)');
  expect(service({ url: 'http://127.0.0.1:4010', embedded: true, recordings: { mode: 'record', folder: 'cassettes/reference' } })).toBe(
    'embedded reference (http://127.0.0.1:4010), recording into cassettes/reference',
  );
  expect(service({ url: 'http://target.invalid', embedded: false, recordings: { mode: 'replay', folder: 'cassettes/reference' } })).toBe(
    'the recordings in cassettes/reference',
  );
  expect(service({ url: 'https://impl.example', embedded: false, recordings: { mode: 'replay', folder: 'rec' } })).toBe(
    'the recordings in rec of https://impl.example',
  );
  expect(describeTarget({ kind: 'plugin', target: { url: './protoc-gen-x', embedded: false } })).toBe('the plugin `./protoc-gen-x`');
  expect(
    describeTarget({ kind: 'plugin', target: { url: './protoc-gen-x', embedded: false, recordings: { mode: 'replay', folder: 's' } } }),
  ).toBe('the recordings in s of the plugin `./protoc-gen-x`');
});

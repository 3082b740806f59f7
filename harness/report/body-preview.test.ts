import { expect, test } from '@playwright/test';
import { BODY_PREVIEW_LIMIT_BYTES, formatBytes, previewBody } from './body-preview.js';

test('JSON objects and arrays are pretty-printed, other text is left alone', () => {
  expect(previewBody('{"a":[1,2]}')).toEqual({ text: '{\n  "a": [\n    1,\n    2\n  ]\n}', json: true, totalBytes: 29, truncated: false });
  expect(previewBody('1.0').text).toBe('1.0');
  expect(previewBody('{not json').json).toBe(false);
  expect(previewBody('<html></html>').text).toBe('<html></html>');
});

test('bodies beyond 64 KiB are cut on a character boundary', () => {
  const body = 'é'.repeat(BODY_PREVIEW_LIMIT_BYTES); // 2 bytes each
  const preview = previewBody(body);
  expect(preview.truncated).toBe(true);
  expect(preview.totalBytes).toBe(2 * BODY_PREVIEW_LIMIT_BYTES);
  expect(Buffer.byteLength(preview.text)).toBeLessThanOrEqual(BODY_PREVIEW_LIMIT_BYTES);
  expect(preview.text).toBe('é'.repeat(BODY_PREVIEW_LIMIT_BYTES / 2));
  expect(previewBody('x'.repeat(BODY_PREVIEW_LIMIT_BYTES)).truncated).toBe(false);
});

test('sizes read as a person expects', () => {
  expect(formatBytes(512)).toBe('512 B');
  expect(formatBytes(64 * 1024)).toBe('64.0 KiB');
  expect(formatBytes(3 * 1024 * 1024)).toBe('3.0 MiB');
});

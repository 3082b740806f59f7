// How a request or response body is shown to a person: JSON pretty-printed, and anything
// beyond ~64 KiB cut, because one multi-megabyte blob would make the whole report unusable
// and the point of the excerpt is to let someone see what went wrong, not archive the body
// (the cassette does that).

export const BODY_PREVIEW_LIMIT_BYTES = 64 * 1024;

export interface BodyPreview {
  text: string;
  /** True when the body parsed as JSON and text is its pretty-printed form. */
  json: boolean;
  /** UTF-8 size of the text before truncation. */
  totalBytes: number;
  truncated: boolean;
}

function prettyJson(body: string): string | undefined {
  const trimmed = body.trimStart();
  // Only objects and arrays: re-printing a bare number or string would show no structure and
  // could change how it reads (1.0 becomes 1).
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return undefined;
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return undefined;
  }
}

export function previewBody(body: string, limitBytes = BODY_PREVIEW_LIMIT_BYTES): BodyPreview {
  const pretty = prettyJson(body);
  const text = pretty ?? body;
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= limitBytes) return { text, json: pretty !== undefined, totalBytes: bytes.length, truncated: false };
  // Cutting bytes can split a character; the decoder then ends with U+FFFD, which is dropped.
  const cut = bytes
    .subarray(0, limitBytes)
    .toString('utf8')
    .replace(/\ufffd+$/, '');
  return { text: cut, json: pretty !== undefined, totalBytes: bytes.length, truncated: true };
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

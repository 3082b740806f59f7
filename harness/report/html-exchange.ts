// One HTTP exchange as a person reads it in a failure: the request line, headers and body,
// then the response's. Header values and bodies come straight from the target, so they only
// ever reach the page through the escaping html tag.
import { STATUS_CODES } from 'node:http';
import { formatBytes, previewBody } from './body-preview.js';
import { html, type Markup } from './markup.js';
import type { ExchangeRecord, HeaderPairs } from '../core/results.js';

function headerLines(headers: HeaderPairs): Markup[] {
  return headers.map(([name, value]) => html`\n<span class="header-name">${name}</span>: ${value}`);
}

function bodyBlock(body: string | undefined, testId: string): Markup {
  if (body === undefined || body === '') return html`<p class="note">No body.</p>`;
  const preview = previewBody(body);
  const notes = [
    preview.json ? 'JSON, pretty-printed' : undefined,
    preview.truncated
      ? `truncated: first ${formatBytes(Buffer.byteLength(preview.text))} of ${formatBytes(preview.totalBytes)} shown`
      : undefined,
  ].filter((note): note is string => note !== undefined);
  return html`<pre class="body" data-testid="${testId}">${preview.text}</pre>${
    notes.length > 0 && html`<p class="note" data-truncated="${preview.truncated}">${notes.join(' · ')}</p>`
  }`;
}

export function renderExchange(exchange: ExchangeRecord): Markup {
  const { request, response } = exchange;
  const requestPart = html`<div class="http-message" data-testid="request">
  <h4>Request</h4>
  <pre class="http-head"><span class="start-line">${request.method} ${request.url}</span>${headerLines(request.headers)}</pre>
  ${bodyBlock(request.body, 'request-body')}
</div>`;
  const responsePart = response
    ? html`<div class="http-message" data-testid="response">
  <h4>Response</h4>
  <pre class="http-head"><span class="start-line">${response.status} ${STATUS_CODES[response.status] ?? ''}</span>${headerLines(response.headers)}</pre>
  ${bodyBlock(response.body, 'response-body')}
</div>`
    : html`<div class="http-message" data-testid="response">
  <h4>Response</h4>
  <p class="note no-response">No response: the request never got an answer (connection refused, reset or timed out).</p>
</div>`;
  return html`<div class="exchange" data-testid="exchange">${requestPart}${responsePart}</div>`;
}

// The README's endpoint and auth table, generated from the endpoint definitions so it
// cannot drift from what the service does: `npm run docs:service` rewrites the part of
// reference-impl/service/README.md between the markers, and a test fails when it differs.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { AREAS } from './areas/index.js';
import type { EndpointAccess, RoleNeed } from './auth/endpoint-access.js';
import type { Endpoint } from './endpoint.js';
import { createStore } from './store.js';
import { loadWorld } from './world-loader.js';

export const README_PATH = fileURLToPath(new URL('./README.md', import.meta.url));
const START = '<!-- endpoint-table:start (generated from the endpoint definitions by `npm run docs:service`; do not edit) -->';
const END = '<!-- endpoint-table:end -->';

const ROLE_TEXT: Readonly<Record<RoleNeed, string>> = {
  visible: 'any caller who can see the repository',
  'push-or-ignore': 'push access; without it the request succeeds and changes nothing',
  admin: 'repository admin (403 otherwise)',
  'organization-owner': 'organization owner (403 otherwise)',
};

const code = (items: readonly string[]) => items.map((item) => `\`${item}\``).join(' or ');

function scopesText({ scopes }: EndpointAccess): string {
  const text = (list: readonly string[]) => (list.length === 0 ? 'none' : code(list));
  return scopes.public.join() === scopes.private.join() ? text(scopes.public) : `public: ${text(scopes.public)}; private: ${text(scopes.private)}`;
}

/** The definitions of every area, in registration order. */
export function allEndpoints(): Endpoint[] {
  return createStore(loadWorld(), AREAS).areas.flatMap((area) => area.endpoints);
}

export function renderEndpointTable(endpoints: readonly Endpoint[]): string {
  const rows = endpoints.map(({ spec, id, method, path, access }) =>
    [
      `${spec.document}.${spec.number}`,
      `\`${method} ${path.replace(/:(\w+)/g, '{$1}')}\``,
      `\`${id}\``,
      access.anonymous ? 'public repositories' : 'no (401)',
      scopesText(access),
      access.permissions.map((need) => `${need.name}:${need.level}`).join(', '),
      ROLE_TEXT[access.role],
    ].join(' | '),
  );
  return [
    '| spec | endpoint | id | anonymous | classic/oauth scopes (any of) | fine-grained (any of) | role |',
    '|---|---|---|---|---|---|---|',
    ...rows.map((row) => `| ${row} |`),
  ].join('\n');
}

/** The README with its generated part replaced by `table`. */
export function withEndpointTable(readme: string, table: string): string {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${README_PATH}: the markers ${START} … ${END} are missing`);
  return `${readme.slice(0, start + START.length)}\n${table}\n${readme.slice(end)}`;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const readme = readFileSync(README_PATH, 'utf8');
  const updated = withEndpointTable(readme, renderEndpointTable(allEndpoints()));
  if (updated !== readme) writeFileSync(README_PATH, updated);
  process.stdout.write(`${README_PATH}: ${updated === readme ? 'already up to date' : 'endpoint table rewritten'}\n`);
}

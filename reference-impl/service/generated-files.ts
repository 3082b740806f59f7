// Files generated from the reference's definitions, so they cannot drift from what the
// service does: the README's endpoint and auth table (from the endpoint definitions,
// between markers in reference-impl/service/README.md) and suites/world.schema.json (from
// world-schema.ts). `npm run docs:service` rewrites them; a test fails when one differs.
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { AREAS } from './areas/index.js';
import type { EndpointAccess, RoleNeed } from './auth/endpoint-access.js';
import { specPath, type Endpoint } from './endpoint.js';
import { createStore } from './store.js';
import { loadWorld } from './world-loader.js';
import { worldJsonSchema } from './world-schema.js';
import { projectPath } from '../../lib/project-files.js';

export const README_PATH = projectPath('reference-impl/service/README.md');
export const WORLD_SCHEMA_PATH = projectPath('suites/world.schema.json');
const START = '<!-- endpoint-table:start (generated from the endpoint definitions by `npm run docs:service`; do not edit) -->';
const END = '<!-- endpoint-table:end -->';

const ROLE_TEXT: Readonly<Record<RoleNeed, string>> = {
  visible: 'any caller who can see the repository (or the user)',
  'push-or-ignore': 'push access; without it the request succeeds and changes nothing',
  push: 'push access (403 otherwise)',
  admin: 'repository admin (403 otherwise)',
  'organization-owner': 'organization owner (403 otherwise; an app installation is no owner)',
  'organization-collaborator': 'organization owner, or a user with collaborator access to one of its repositories (403 otherwise)',
  'organization-billing-viewer': "organization owner, or owner or billing manager of the organization's enterprise (403 otherwise)",
  self: 'a token of a user, acting on that user (403 for an app installation or a workflow)',
};

const code = (items: readonly string[]) => items.map((item) => `\`${item}\``).join(' or ');

function scopesText({ scopes }: EndpointAccess): string {
  const text = (list: readonly string[]) => (list.length === 0 ? 'none' : code(list));
  return scopes.public.join() === scopes.private.join()
    ? text(scopes.public)
    : `public: ${text(scopes.public)}; private: ${text(scopes.private)}`;
}

const permissionsText = (needs: EndpointAccess['permissions']) =>
  needs.length === 0 ? 'none needed' : needs.map((need) => `${need.name}:${need.level}`).join(', ');

/** The definitions of every area, in registration order. */
export function allEndpoints(): Endpoint[] {
  return createStore(loadWorld(), AREAS).areas.flatMap((area) => area.endpoints);
}

export function renderEndpointTable(endpoints: readonly Endpoint[]): string {
  const rows = endpoints.map(({ spec, id, method, path, access }) =>
    [
      `${spec.document}.${spec.number}`,
      `\`${method} ${specPath(path)}\``,
      `\`${id}\``,
      access.anonymous ? (access.target === 'repository' ? 'public repositories' : 'yes') : 'no (401)',
      scopesText(access) +
        (access.further ? `; ${access.further.what}: also ${code(access.further.scopes)}` : '') +
        (access.tokenKinds ? `; ${access.tokenKinds.join(' or ')} tokens only` : ''),
      permissionsText(access.permissions) +
        (access.further ? `; ${access.further.what}: also ${permissionsText(access.further.permissions)}` : ''),
      ROLE_TEXT[access.role] +
        (access.variations ?? [])
          .map(
            (v) => `; with variation \`${v.variant}\`: ${v.role ? ROLE_TEXT[v.role] : 'as above'}${v.anonymous ? ', anonymous too' : ''}`,
          )
          .join(''),
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

export interface GeneratedFile {
  path: string;
  /** The file's content as it should be, given what it holds now. */
  render(current: string): string;
}

export function generatedFiles(): GeneratedFile[] {
  return [
    { path: README_PATH, render: (readme) => withEndpointTable(readme, renderEndpointTable(allEndpoints())) },
    { path: WORLD_SCHEMA_PATH, render: () => `${JSON.stringify(worldJsonSchema(), null, 2)}\n` },
  ];
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const file of generatedFiles()) {
    const current = readFileSync(file.path, 'utf8');
    const wanted = file.render(current);
    if (wanted !== current) writeFileSync(file.path, wanted);
    process.stdout.write(`${file.path}: ${wanted === current ? 'up to date' : 'rewritten'}\n`);
  }
}

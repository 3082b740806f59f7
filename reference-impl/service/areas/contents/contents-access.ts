// Who may read and write a repository's contents (spec 1, rule 9 of the contents endpoints),
// and the path a contents URL names, which the workflow directory's further need reads.
import { onRepository, read, REPOSITORY_READ_SCOPES, REPOSITORY_WRITE_SCOPES, write } from '../../auth/endpoint-access.js';

/** Where a repository's workflows live: writing there needs more (rule 9). */
const WORKFLOW_DIRECTORY = '.github/workflows/';

/** The path a contents URL names ('' for the root); undefined when the route's `contents*` matched `/contentsX`. */
export function contentsPath(rest: string | undefined): string | undefined {
  if (rest === undefined || (rest !== '' && !rest.startsWith('/'))) return undefined;
  return rest.replace(/^\/+|\/+$/g, '');
}

export const CONTENTS_READ = onRepository({
  anonymous: true,
  scopes: REPOSITORY_READ_SCOPES,
  permissions: [read('contents')],
  role: 'visible',
});
export const CONTENTS_WRITE = onRepository({
  anonymous: false,
  scopes: REPOSITORY_WRITE_SCOPES,
  permissions: [write('contents')],
  role: 'push',
});
export const FILE_WRITE = {
  ...CONTENTS_WRITE,
  further: {
    what: `files in ${WORKFLOW_DIRECTORY}`,
    applies: (params: Readonly<Record<string, string | undefined>>) => contentsPath(params['*'])?.startsWith(WORKFLOW_DIRECTORY) === true,
    scopes: ['workflow'],
    permissions: [write('workflows')],
  },
};

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

/** A refusal the caller can see the reason of is 403; the spec lists 404 too (and only 404 for 16 and 17). */
const DENIED_AS_404 = { variant: 'contents.denied-as-404', forbiddenAs: 404 } as const;

/**
 * Reads (15, 18-20, 22). "Contents (read), public data without authentication": the reference
 * refuses a token without Contents (read) even public data, as real hosts do; the variation
 * contents.public-read-any-token lets any token read what no token may.
 */
export const CONTENTS_READ = onRepository({
  anonymous: true,
  scopes: REPOSITORY_READ_SCOPES,
  permissions: [read('contents')],
  role: 'visible',
  variations: [{ variant: 'contents.public-read-any-token', publicPermissions: [] }, DENIED_AS_404],
});
/**
 * Writes (16, 17, 21). Rule 9 names the classic scope `repo`; `public_repo`, which the spec
 * never names, writes public repositories here as on real hosts. The variation
 * contents.public-repo-scope-refused takes the spec's one name literally: `repo` only.
 */
export const CONTENTS_WRITE = onRepository({
  anonymous: false,
  scopes: REPOSITORY_WRITE_SCOPES,
  permissions: [write('contents')],
  role: 'push',
  variations: [{ variant: 'contents.public-repo-scope-refused', scopes: { public: ['repo'], private: ['repo'] } }, DENIED_AS_404],
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

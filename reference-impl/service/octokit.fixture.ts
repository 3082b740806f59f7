// A real client of this API family judging the reference: @octokit/rest, configured as a
// user of this service would configure it (the base URL, the service's media type and
// version header), against the reference listening on a port. Each area's octokit.test.ts
// uses it, so a new area brings its own client checks with it.
import { Octokit } from '@octokit/rest';
import { test as base, expect } from './service.fixture.js';

export { expect };

/** A client acting as a world token role, or anonymously. */
export type OctokitFor = (role: string) => Octokit;

export const test = base.extend<{ octokit: OctokitFor }>({
  octokit: async ({ service, world }, use) => {
    const baseUrl = await service.listen({ port: 0 });
    await use((role) => {
      const token = role === 'anonymous' ? undefined : world.tokens.find((t) => t.role === role)?.value;
      if (role !== 'anonymous' && token === undefined) throw new Error(`no token role ${role} in the world`);
      const octokit = new Octokit({ baseUrl, auth: token, userAgent: 'touchstone-octokit-check' });
      // Octokit builds its vendor's media type from mediaType.format (raw → application/vnd.github.v3.raw)
      // after this hook; a client of this service asks for the service's (application/vnd.service.raw+json).
      octokit.hook.before('request', (options) => {
        const format = options.mediaType?.format;
        if (String(options.headers.accept ?? '').startsWith('application/vnd.github')) {
          options.headers.accept = `application/vnd.service${format ? `.${format}` : ''}+json`;
          if (options.mediaType) options.mediaType.format = '';
        }
        options.headers['x-service-api-version'] = '2022-11-28';
      });
      return octokit;
    });
  },
});

// Development-environment secrets of a repository, endpoints 19–23 of spec document 2:
// values arrive sealed (libsodium crypto_box_seal) to the repository's public key and are
// never shown again. The key pairs live in the core (secret-keys.ts), so the control API
// can rotate them.
//
// Decisions where the spec is silent (README "Development-environment secrets"), with the
// built-in variation that makes each otherwise (suites/variants/devenv-secrets.yaml):
// - Names follow the variables' rule (config-names.ts): upper-cased, matched in any case.
// - PUT needs both encrypted_value and key_id. 422 when key_id is not the current key's
//   (a stale key after a rotation; secrets.key-id-advisory takes any key_id when the box
//   opens with the current key), when encrypted_value is not Base64 or does not open as a
//   sealed box with the current key (the spec describes the input, not a check of it:
//   secrets.unsealed-stored keeps whatever string comes, unopened), or when the value is
//   over 48 KiB. The error names what is wrong, never the value.
// - A 201 (created) or 204 (updated) has no body. Unknown secrets are 404.
// - `visibility` is `all`: a repository's secret reaches every development environment
//   of that repository. The value has no field at all ("value never returned";
//   secrets.value-placeholder shows `value: null` instead).
// - Reads need write access to the repository (secret names are for collaborators who
//   push; the spec names a role only for 22 and 23, so secrets.reads-any-role lets in
//   whoever can see the repository); PUT and DELETE need admin. Classic and OAuth tokens
//   need repo; fine-grained tokens the Development environment secrets permission
//   (devenv_secrets, write) for all five.
// - Lists are by name, 30 a page by default, at most 100.
import { Type } from 'typebox';
import type { AreaModule } from '../../area.js';
import { onRepository, write } from '../../auth/endpoint-access.js';
import { CONFIG_NAME, CONFIG_NAME_RULE } from '../../config-names.js';
import { fullName } from '../../directory.js';
import { defineEndpoint } from '../../endpoint.js';
import { notFound, validationFailed } from '../../errors.js';
import { pageOf } from '../../pagination.js';
import { representerFor } from '../../representations.js';
import type { WorldRepository } from '../../world-model.js';

const REPO_SCOPE = { public: ['repo'], private: ['repo'] } as const;
const DEVENV_SECRETS = [write('devenv_secrets')];
const SECRETS_READ = onRepository({
  anonymous: false,
  scopes: REPO_SCOPE,
  permissions: DEVENV_SECRETS,
  role: 'push',
  variations: [{ variant: 'secrets.reads-any-role', role: 'visible' }],
});
const SECRETS_ADMIN = onRepository({ anonymous: false, scopes: REPO_SCOPE, permissions: DEVENV_SECRETS, role: 'admin' });

const MAX_VALUE_BYTES = 48 * 1024;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

const PUT_BODY = Type.Object(
  { encrypted_value: Type.String({ maxLength: 256 * 1024 }), key_id: Type.String() },
  { title: 'Secret', additionalProperties: false },
);

interface Secret {
  name: string;
  createdAt: number;
  updatedAt: number;
  /** Kept as it came, sealed: the reference never needs the value again. */
  sealed: string;
}

const PREFIX = '/repos/:owner/:repo/devenv/secrets';

const create: AreaModule['create'] = ({ directory, clock, faults, variants, secretKeys }) => {
  /** Secrets per repository (lower-case full name), by upper-case name. */
  let secrets = new Map<string, Map<string, Secret>>();
  const load = () => {
    secrets = new Map();
  };
  load();

  const secretsOf = (repository: WorldRepository) => {
    const key = fullName(repository).toLowerCase();
    if (!secrets.has(key)) secrets.set(key, new Map());
    return secrets.get(key)!;
  };
  const find = (repository: WorldRepository, name: string) => {
    const secret = secretsOf(repository).get(name.toUpperCase());
    if (secret === undefined) throw notFound();
    return secret;
  };
  const represent = (request: Parameters<typeof representerFor>[0], secret: Secret) => {
    const representer = representerFor(request, directory);
    return {
      name: secret.name,
      created_at: representer.timestamp(secret.createdAt),
      updated_at: representer.timestamp(secret.updatedAt),
      visibility: 'all',
      // secrets.value-placeholder says so in the representation: a value field, always null.
      ...(variants.on('secrets.value-placeholder') && { value: null }),
      ...(faults.on('secrets.value-returned') && { encrypted_value: secret.sealed }),
    };
  };
  const invalid = (field: string, message: string) => validationFailed([{ resource: 'Secret', field, code: 'custom', message }]);

  const endpoints = [
    defineEndpoint({
      spec: { document: 2, number: 19 },
      id: 'secrets.list',
      summary: 'List development environment secrets of a repository',
      method: 'GET',
      path: PREFIX,
      responses: { 200: 'secret-list' },
      access: SECRETS_READ,
      handler: (request, reply, { repository }) => {
        const all = [...secretsOf(repository).values()].sort((a, b) => a.name.localeCompare(b.name));
        const page = pageOf(request, reply, all).map((secret) => represent(request, secret));
        return faults.on('secrets.list-bare-array') ? page : { total_count: all.length, secrets: page };
      },
    }),
    defineEndpoint({
      spec: { document: 2, number: 20 },
      id: 'secrets.public-key',
      summary: 'Get the public key secrets of a repository are sealed to',
      method: 'GET',
      path: `${PREFIX}/public-key`,
      responses: { 200: 'secret-public-key' },
      access: SECRETS_READ,
      handler: (_request, _reply, { repository }) => {
        const key = secretKeys.current(fullName(repository));
        return { key_id: faults.on('secrets.key-id-number') ? Number(key.keyId) : key.keyId, key: key.publicKey };
      },
    }),
    defineEndpoint({
      spec: { document: 2, number: 21 },
      id: 'secrets.get',
      summary: 'Get a development environment secret of a repository',
      method: 'GET',
      path: `${PREFIX}/:secret_name`,
      responses: { 200: 'secret' },
      access: SECRETS_READ,
      handler: (request, _reply, { repository }) => {
        const secret = represent(request, find(repository, request.params.secret_name));
        // undefined leaves the field out of the JSON.
        return faults.on('secrets.get-without-updated-at') ? { ...secret, updated_at: undefined } : secret;
      },
    }),
    defineEndpoint({
      spec: { document: 2, number: 22 },
      id: 'secrets.put',
      summary: 'Create or update a development environment secret of a repository',
      method: 'PUT',
      path: `${PREFIX}/:secret_name`,
      responses: { 201: 'empty', 204: 'empty' },
      access: SECRETS_ADMIN,
      body: PUT_BODY,
      handler: (request, reply, { repository }) => {
        const { secret_name: name } = request.params;
        const { encrypted_value: sealed, key_id: keyId } = request.body;
        if (!CONFIG_NAME.test(name)) throw invalid('name', CONFIG_NAME_RULE);
        const key = secretKeys.current(fullName(repository));
        // With secrets.unsealed-stored the value is kept as it came, neither decoded nor opened.
        const opaque = variants.on('secrets.unsealed-stored');
        const base64 = BASE64.test(sealed);
        if (!base64 && !opaque) throw invalid('encrypted_value', 'not Base64');
        const value = base64 ? key.open(Buffer.from(sealed, 'base64')) : undefined;
        // With secrets.key-id-advisory key_id only says which key was meant: the box decides.
        if (keyId !== key.keyId && !variants.on('secrets.key-id-advisory')) {
          // The fault leaks what it opened into the message; the reference never does.
          const leak = faults.on('secrets.value-in-error') && value ? ` (it holds ${Buffer.from(value).toString()})` : '';
          throw invalid('key_id', `not the repository's current public key; fetch it again${leak}`);
        }
        if (value === undefined && !opaque) throw invalid('encrypted_value', "not a sealed box for the repository's current public key");
        if (value !== undefined && value.length > MAX_VALUE_BYTES) throw invalid('encrypted_value', 'the value is over 48 KiB');
        const existing = secretsOf(repository).get(name.toUpperCase());
        const now = clock.now();
        if (existing) Object.assign(existing, { updatedAt: now, sealed });
        else secretsOf(repository).set(name.toUpperCase(), { name: name.toUpperCase(), createdAt: now, updatedAt: now, sealed });
        return reply.code(existing && !faults.on('secrets.update-201') ? 204 : 201).send();
      },
    }),
    defineEndpoint({
      spec: { document: 2, number: 23 },
      id: 'secrets.delete',
      summary: 'Delete a development environment secret of a repository',
      method: 'DELETE',
      path: `${PREFIX}/:secret_name`,
      responses: { 204: 'empty' },
      access: SECRETS_ADMIN,
      handler: (request, reply, { repository }) => {
        const secret = find(repository, request.params.secret_name);
        if (!faults.on('secrets.delete-ignored')) secretsOf(repository).delete(secret.name);
        return reply.code(204).send();
      },
    }),
  ];

  // A repository's empty map is made on first read: not a change anyone can see.
  return { name: 'devenv-secrets', endpoints, reset: load, state: () => [...secrets].filter(([, named]) => named.size > 0) };
};

export const devenvSecrets = { name: 'devenv-secrets', create } satisfies AreaModule;

// The key pairs secrets are sealed to (libsodium sealed boxes, crypto_box_seal): one
// current pair per repository, made from a seed derived from the repository's name and
// its rotation count, so the public key and key_id are the same every run (recordings
// stay stable) until the control API rotates them (`POST /_conformance/secret-keys/rotate`).
// A reset returns every repository to its first key.
import { createHash } from 'node:crypto';
import sodium from 'libsodium-wrappers';

await sodium.ready;

export interface SecretKey {
  /** Decimal digits, as real hosts write key ids. */
  readonly keyId: string;
  /** Base64 of the 32-byte public key. */
  readonly publicKey: string;
  /** The message a sealed box holds, or undefined when it was not sealed to this key. */
  open(sealed: Uint8Array): Uint8Array | undefined;
}

export interface SecretKeys {
  current(repository: string): SecretKey;
  /** Replaces the repository's key; boxes sealed to the old one no longer open. */
  rotate(repository: string): SecretKey;
  reset(): void;
}

export function createSecretKeys(): SecretKeys {
  const rotations = new Map<string, number>();
  const keyOf = (repository: string): SecretKey => {
    const generation = rotations.get(repository.toLowerCase()) ?? 0;
    const seed = createHash('sha256').update(`touchstone secret key\n${repository.toLowerCase()}\n${generation}`).digest();
    const pair = sodium.crypto_box_seed_keypair(seed);
    return {
      keyId: String(BigInt(`0x${seed.subarray(0, 8).toString('hex')}`) % 10n ** 18n).padStart(18, '0'),
      publicKey: Buffer.from(pair.publicKey).toString('base64'),
      open(sealed) {
        try {
          return sodium.crypto_box_seal_open(sealed, pair.publicKey, pair.privateKey);
        } catch {
          return undefined;
        }
      },
    };
  };
  return {
    current: keyOf,
    rotate(repository) {
      rotations.set(repository.toLowerCase(), (rotations.get(repository.toLowerCase()) ?? 0) + 1);
      return keyOf(repository);
    },
    reset: () => rotations.clear(),
  };
}

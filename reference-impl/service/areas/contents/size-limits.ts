// The size limits of the contents and Git blob endpoints (spec 1, rule 5 of the contents
// endpoints; "Endpoint 22 supports … blobs up to 100 MB"), decided here and nowhere else:
// which files have every representation, which are served raw and as objects only, and which
// are not served at all.
//
// "MB" is not defined. The reference reads it as real hosts count it, 1 MB = 1 MiB (2^20
// bytes) and 100 MB = 100 MiB; the variation contents.decimal-megabyte reads 10^6 and 10^8.
// "Up to" includes the limit itself in either reading; the variation
// contents.size-limit-exclusive reads exactly 1 MB as "between 1 MB and 100 MB" instead.
import type { Faults } from '../../faults.js';
import type { Variants } from '../../variants.js';

const MIB = 1024 * 1024;
const DECIMAL_MB = 1000 * 1000;

export interface SizeLimits {
  /** Files up to this many bytes have every feature of the contents API ("up to 1 MB"). */
  readonly fullFeaturesMax: number;
  /** Files and blobs up to this many bytes are served at all ("up to 100 MB"). */
  readonly servedMax: number;
  /** Over the full-features limit: raw and object only, the object without its content. */
  isLarge(size: number): boolean;
  /** Over the served limit: not served in any representation. */
  isOver(size: number): boolean;
}

export function sizeLimits(faults: Faults, variants: Variants): SizeLimits {
  const mb = variants.on('contents.decimal-megabyte') ? DECIMAL_MB : MIB;
  const fullFeaturesMax = mb;
  const servedMax = 100 * mb;
  const exclusive = variants.on('contents.size-limit-exclusive');
  // The fault: no file has every feature, however small.
  const everyFileLarge = faults.on('contents.every-file-large');
  return {
    fullFeaturesMax,
    servedMax,
    isLarge: (size) => everyFileLarge || (exclusive ? size >= fullFeaturesMax : size > fullFeaturesMax),
    isOver: (size) => size > servedMax,
  };
}

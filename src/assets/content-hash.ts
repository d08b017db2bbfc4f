// What a file is expected to be (size, sha256, git blob id) and a streaming hasher that checks
// it. Shared by the mirror copy, the asset download and the dataset pull, so every file placed
// on disk is checked the same way, while its bytes stream through once.
import { createHash, type Hash } from 'node:crypto';
import { Transform, Writable } from 'node:stream';

export interface ExpectedContent {
  /** sha256 as 64 lower-case hex digits. */
  sha256?: string;
  bytes?: number;
  /**
   * Git blob id (sha1 of `blob <size>\0<bytes>`), the `oid` a git host reports for a file kept
   * in git rather than LFS. Checkable only when `bytes` is known, since the size opens the hash.
   */
  gitBlob?: string;
}

export interface ContentDigest {
  bytes: number;
  sha256: string;
  /** Present when the expected size was known up front. */
  gitBlob?: string;
}

export class ContentHasher {
  private readonly sha256 = createHash('sha256');
  private readonly gitBlob: Hash | undefined;
  private count = 0;

  constructor(expectedBytes?: number) {
    if (expectedBytes !== undefined) this.gitBlob = createHash('sha1').update(`blob ${expectedBytes}\0`);
  }

  update(chunk: Buffer): void {
    this.sha256.update(chunk);
    this.gitBlob?.update(chunk);
    this.count += chunk.length;
  }

  get bytes(): number {
    return this.count;
  }

  /** A pass-through stream that feeds this hasher (and reports each chunk's size). */
  tap(onChunk?: (bytes: number) => void): Transform {
    return new Transform({
      transform: (chunk: Buffer, _encoding, callback) => {
        this.update(chunk);
        onChunk?.(chunk.length);
        callback(null, chunk);
      },
    });
  }

  /** A stream end that only hashes (for bytes already on disk). */
  sink(): Writable {
    return new Writable({
      write: (chunk: Buffer, _encoding, callback) => {
        this.update(chunk);
        callback();
      },
    });
  }

  digest(): ContentDigest {
    const sha256 = this.sha256.digest('hex');
    const gitBlob = this.gitBlob?.digest('hex');
    return gitBlob === undefined ? { bytes: this.count, sha256 } : { bytes: this.count, sha256, gitBlob };
  }
}

/** Why `actual` is not the expected content, or undefined when every known property matches. */
export function contentMismatch(expected: ExpectedContent, actual: ContentDigest): string | undefined {
  const problems: string[] = [];
  if (expected.bytes !== undefined && actual.bytes !== expected.bytes) problems.push(`size expected ${expected.bytes} bytes, got ${actual.bytes}`);
  if (expected.sha256 !== undefined && actual.sha256 !== expected.sha256) problems.push(`sha256 expected ${expected.sha256}, got ${actual.sha256}`);
  if (expected.gitBlob !== undefined && actual.gitBlob !== undefined && actual.gitBlob !== expected.gitBlob) {
    problems.push(`git blob id expected ${expected.gitBlob}, got ${actual.gitBlob}`);
  }
  return problems.length > 0 ? problems.join('; ') : undefined;
}

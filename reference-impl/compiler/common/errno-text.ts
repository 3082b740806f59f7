// glibc's strerror() texts, which protoc prints after a path ("out/: No such file or
// directory"). Node reports the errno code (ENOENT) and libuv's lower-case wording, so the
// texts protoc users see are kept here for the codes a file system can produce.

const STRERROR: Record<string, string> = {
  EPERM: 'Operation not permitted',
  ENOENT: 'No such file or directory',
  EIO: 'Input/output error',
  EBADF: 'Bad file descriptor',
  ENOMEM: 'Cannot allocate memory',
  EACCES: 'Permission denied',
  EBUSY: 'Device or resource busy',
  EEXIST: 'File exists',
  EXDEV: 'Invalid cross-device link',
  ENOTDIR: 'Not a directory',
  EISDIR: 'Is a directory',
  EINVAL: 'Invalid argument',
  ENFILE: 'Too many open files in system',
  EMFILE: 'Too many open files',
  ETXTBSY: 'Text file busy',
  EFBIG: 'File too large',
  ENOSPC: 'No space left on device',
  EROFS: 'Read-only file system',
  EMLINK: 'Too many links',
  ENAMETOOLONG: 'File name too long',
  ELOOP: 'Too many levels of symbolic links',
  EDQUOT: 'Disk quota exceeded',
  ESTALE: 'Stale file handle',
};

/** The strerror text for a Node file-system error; Node's own message for anything else. */
export function errnoText(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  return (code && STRERROR[code]) ?? (error as Error).message;
}

export function isErrno(error: unknown, code: string): boolean {
  return (error as NodeJS.ErrnoException)?.code === code;
}

// The Dockerfile builds an image whose entry point is the CLI, and the image judges the embedded
// reference conforming and Debian's protoc as a compiler. Docker needs a daemon: where there is
// none (this project's CI runs in a container without one) the test is skipped, saying so.
import { execFileSync, spawnSync } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { packageVersion } from '../lib/project-files.js';
import { PROJECT_ROOT } from '../harness/core/suite-paths.js';

const dockerAnswers = () => spawnSync('docker', ['info'], { stdio: 'ignore', timeout: 20_000 }).status === 0;

test('docker build gives an image that runs touchstone: its version, a conforming run of a suite, protoc judged', () => {
  const present = dockerAnswers();
  if (!present) console.warn('skipping: no Docker daemon answers `docker info` here; the Dockerfile is built where one does');
  test.skip(!present, 'no Docker daemon answers `docker info` here');
  test.setTimeout(1_800_000); // apt-get and npm ci inside the build
  const image = `touchstone-test:${process.pid}`;
  const docker = (args: string[]) => spawnSync('docker', args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  try {
    execFileSync('docker', ['build', '--quiet', '--tag', image, PROJECT_ROOT], { stdio: ['ignore', 'ignore', 'inherit'] });
    const version = docker(['run', '--rm', image, '--version']);
    expect(version.stdout.trim()).toBe(packageVersion());
    const run = docker(['run', '--rm', image, 'run', '--suite', 'assignees']);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('touchstone: CONFORMING');
    const compiler = docker(['run', '--rm', image, 'compiler', '--compiler', 'protoc', '--out', '/tmp/protoc']);
    // Debian's protoc 3.21 conforms, with WARNs only (docs/commands.md, touchstone compiler).
    expect(compiler.status, compiler.stderr).toBe(0);
    expect(compiler.stdout).toContain('touchstone: CONFORMING');
  } finally {
    docker(['rmi', '--force', image]);
  }
});

// The layers of touchstone, held by the build (test-support/layers.test.ts runs this in
// `npm test`). Bottom to top inside harness/:
//   core        the shared vocabulary: results types, errors, validated files, paths, run configuration
//   secrets     the one secrets policy every writer applies (cassettes, replay keys, reports, logs)
//   report      renders results (results.json, junit.xml, report.html, summary.md); reads core only
//   protocol, http          the plugin messages; HTTP to a target
//   cassette    the cassette format;  proxy  record/replay in front of a target
//   suite       the service suites and their runner;  plugin  the plugin and compiler suites
//   run         the run engine: one Playwright config, spec and reporter for every kind of run
//   mutate      the kill matrix;  cli  the commands, which only bin/ imports
// A folder imports only folders below it, so no two folders import each other. The
// reference implementations import nothing of the harness (they read its data files; lib/ holds
// the little both share and imports neither), and
// product code never imports test support (test-support/, *.fixture.ts, *.test.ts; bench/,
// measurement tooling, may).
const HARNESS_LAYERS = {
  core: [],
  secrets: ['core'],
  report: ['core'],
  protocol: ['core'],
  http: ['core', 'secrets'],
  cassette: ['core', 'secrets', 'http'],
  proxy: ['core', 'secrets', 'http', 'cassette'],
  suite: ['core', 'secrets', 'report', 'http', 'cassette', 'proxy'],
  plugin: ['core', 'secrets', 'report', 'protocol', 'http', 'cassette'],
  run: ['core', 'secrets', 'report', 'protocol', 'http', 'cassette', 'proxy', 'suite', 'plugin'],
  mutate: ['core', 'secrets', 'report', 'protocol', 'http', 'cassette', 'proxy', 'suite', 'plugin'],
};

const TEST_SUPPORT = '(^test-support/|\\.(fixture|test)\\.[jt]s$)';

module.exports = {
  forbidden: [
    ...Object.entries(HARNESS_LAYERS).map(([layer, below]) => ({
      name: `harness-${layer}-layer`,
      comment: `harness/${layer} may import only ${below.length ? below.map((b) => `harness/${b}`).join(', ') : 'nothing else of the harness'}`,
      severity: 'error',
      from: { path: `^harness/${layer}/` },
      to: { path: '^harness/', pathNot: [`^harness/(${[layer, ...below].join('|')})/`] },
    })),
    {
      name: 'harness-files-in-folders',
      comment: 'every harness module sits in a layer folder',
      severity: 'error',
      from: {},
      to: { path: '^harness/[^/]+$' },
    },
    {
      name: 'cli-only-from-bin',
      comment: 'harness/cli is the top: only bin/ (and its own files) import it',
      severity: 'error',
      from: { pathNot: '^(bin/|harness/cli/)' },
      to: { path: '^harness/cli/' },
    },
    {
      name: 'lib-independent',
      comment: 'lib/ holds what the harness and the references share; it imports neither',
      severity: 'error',
      from: { path: '^lib/' },
      to: { path: '^(harness|reference-impl|bin|bench|test-support)/' },
    },
    {
      name: 'reference-independent',
      comment: 'the reference implementations never import the harness',
      severity: 'error',
      from: { path: '^reference-impl/' },
      to: { path: '^harness/' },
    },
    {
      name: 'examples-apart',
      comment: 'examples/ are packages of their own, written from the spec: nothing imports them, and they import nothing of touchstone',
      severity: 'error',
      from: { pathNot: '^examples/' },
      to: { path: '^examples/' },
    },
    {
      name: 'examples-import-nothing-of-touchstone',
      comment: 'an example target uses Node.js alone',
      severity: 'error',
      from: { path: '^examples/' },
      to: { pathNot: '^examples/', dependencyTypesNot: ['core'] },
    },
    {
      name: 'no-test-support-in-product',
      comment: 'product code never imports test support',
      severity: 'error',
      from: { path: '^(harness|reference-impl|bin)/', pathNot: TEST_SUPPORT },
      to: { path: TEST_SUPPORT },
    },
    {
      name: 'no-dev-dependencies-in-product',
      comment: 'product code runs on `npm ci --omit=dev`: it may use devDependencies for types only',
      severity: 'error',
      from: { path: '^(harness|reference-impl|lib|bin)/', pathNot: TEST_SUPPORT },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'no-circular',
      comment: 'no import cycle, not even one of types only',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};

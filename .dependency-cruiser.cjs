/**
 * The layering of ../shared/conventions.md, checked by `npm run check` (dependency-cruiser):
 * no import cycles, between modules or between folders; src/shared imports nothing of ours;
 * realtime/ and http/ import no feature module; the web client imports only src/shared of the
 * server; features never reach into the entry points.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A module that (through others) imports itself.',
      from: { path: '^(src|web)/' },
      to: { circular: true },
    },
    {
      name: 'no-folder-cycles',
      severity: 'error',
      comment: 'Folders depend one way: a folder that (through others) depends on itself is a loop the tree hides.',
      scope: 'folder',
      from: { path: '^(src|web)/' },
      to: { circular: true },
    },
    {
      name: 'shared-imports-nothing-of-ours',
      severity: 'error',
      comment: 'src/shared runs in the browser and on the server: it imports only itself.',
      from: { path: '^src/shared/' },
      to: { path: '^(src|web)/', pathNot: '^src/shared/' },
    },
    {
      name: 'hub-and-http-import-no-module',
      severity: 'error',
      comment: 'realtime/ and http/ are infrastructure: features plug into them (app.ts wires), never the other way.',
      from: { path: '^src/(realtime|http|database|jobs)/' },
      to: { path: '^src/modules/' },
    },
    {
      name: 'domain-imports-no-feature',
      severity: 'error',
      comment: 'domain/ holds the change vocabulary and commands every module shares.',
      from: { path: '^src/domain/' },
      to: { path: '^src/(modules|realtime|http)/' },
    },
    {
      name: 'web-imports-only-shared',
      severity: 'error',
      comment: 'The browser bundle takes the shared contract and rules, never server code.',
      from: { path: '^web/' },
      to: { path: '^src/', pathNot: '^src/shared/' },
    },
    {
      name: 'no-entry-points',
      severity: 'error',
      comment: 'app.ts and server.ts wire everything; nothing imports them.',
      from: { path: '^src/', pathNot: '^src/(app|server)\\.ts$' },
      to: { path: '^src/(app|server)\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '\\.test\\.ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'], extensions: ['.ts', '.tsx', '.js', '.mjs'] },
  },
};

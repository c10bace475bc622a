/**
 * The layering of ../shared/conventions.md, checked by `npm run check` (dependency-cruiser):
 * no import cycles, between modules or between folders; src/shared imports nothing of ours;
 * realtime/ and http/ import no feature module, and realtime/ only its allow-list; config.ts
 * and app.ts name no feature (they read the module list); the web client imports only
 * src/shared of the server; features never reach into the entry points.
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
      name: 'hub-imports-only-its-allow-list',
      severity: 'error',
      comment:
        'The hub only carries messages (sockets, rooms, versions, the cluster notice, fan-out, presence): what a screen shows is a feature (modules/programme). Besides its own folder it may import the socket contract (shared/events.ts, shared/reports.ts, shared/api/screens.ts), the change vocabulary, the database plumbing, the logger and metrics, and the origin rule.',
      from: { path: '^src/realtime/' },
      to: {
        path: '^src/',
        pathNot: '^src/(realtime/|shared/events\\.ts$|shared/reports\\.ts$|shared/api/screens\\.ts$|domain/changes\\.ts$|database/|db\\.ts$|logger\\.ts$|metrics\\.ts$|http/origin\\.ts$)',
      },
    },
    {
      name: 'config-imports-no-feature',
      severity: 'error',
      comment: 'config.ts reads whatever settings the modules it is handed declare: it knows the module contract, never a feature.',
      from: { path: '^src/config\\.ts$' },
      to: { path: '^src/modules/', pathNot: '^src/modules/module\\.ts$' },
    },
    {
      name: 'app-is-a-list',
      severity: 'error',
      comment: 'app.ts iterates the module list: adding a module edits src/modules/index.ts and nothing else.',
      from: { path: '^src/app\\.ts$' },
      to: { path: '^src/modules/', pathNot: '^src/modules/(index|module|runtime)\\.ts$' },
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

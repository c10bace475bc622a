import { initORM } from '../src/db.ts';
import { createLogger } from '../src/logger.ts';
import { loadSceneSnapshot } from '../src/modules/scenes/scene-queries.ts';
import { streamPage } from '../src/modules/streams/stream-pages.ts';
const orm = await initORM({ url: 'postgres://postgres@127.0.0.1:5432/nw_explain', poolMax: 20, logger: createLogger('warn') });
async function time(name: string, f: () => Promise<unknown>, n = 2000) {
  for (let i = 0; i < 200; i++) await f();
  const t = performance.now(); for (let i = 0; i < n; i++) await f(); console.log(name, ((performance.now() - t) / n).toFixed(3), 'ms serial');
}
await time('recent', () => loadSceneSnapshot(orm.em.fork(), { ref: 'bench-recent' }));
await time('ranked', () => loadSceneSnapshot(orm.em.fork(), { ref: 'bench-ranked' }));
await time('page', () => streamPage(orm.em.fork(), { limit: 50, category: 'wildlife', active: true, sort: 'quality' }), 500);
await time('select1', () => orm.em.fork().execute('select 1'));
await orm.close();

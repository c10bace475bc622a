import { describe, expect, it } from 'vitest';
import { startTestApp } from '../support/app.ts';

describe('/healthz and /readyz', () => {
  it('answer ok while the database answers, and /readyz turns 503 when it is gone', async () => {
    const app = await startTestApp();
    try {
      expect(await app.request('GET', '/healthz')).toMatchObject({ status: 200, body: { status: 'ok' } });
      expect(await app.request('GET', '/readyz')).toMatchObject({ status: 200, body: { status: 'ready' } });
      await app.db.drop(); // terminates the pool's connections and removes the database
      expect((await app.request('GET', '/healthz')).status).toBe(200);
      expect(await app.request('GET', '/readyz')).toMatchObject({ status: 503, body: { status: 'unavailable' } });
    } finally {
      await app.close().catch(() => undefined);
    }
  });
});

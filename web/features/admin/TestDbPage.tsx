/** /test-db (spec §2): the database connection test and the idempotent initialisation. */
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import type { DatabaseTestDto, InitializeDto } from '../../../src/shared/api/index.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { reasonOf } from '../../lib/errors.ts';
import { adminApi } from './admin-api.ts';
import { loadMe, useMay } from './access.ts';
import './admin.css';

type Test = { state: 'idle' } | { state: 'testing' } | { state: 'success'; result: DatabaseTestDto } | { state: 'error'; reason: string };

export function TestDbPage() {
  const [test, setTest] = useState<Test>({ state: 'idle' });
  const [init, setInit] = useState<{ result?: InitializeDto; error?: string; busy?: boolean }>({});
  const may = useMay();
  // A page of its own, outside the console's live slices: ask who we are here.
  useEffect(() => void loadMe(), []);

  async function runTest() {
    setTest({ state: 'testing' });
    try {
      setTest({ state: 'success', result: await adminApi.testDatabase() });
    } catch (error) {
      setTest({ state: 'error', reason: reasonOf(error) });
    }
  }

  async function initialize() {
    setInit({ busy: true });
    try {
      setInit({ result: await adminApi.initialize() });
    } catch (error) {
      setInit({ error: reasonOf(error) });
    }
  }

  return (
    <div className="admin">
      <PageHeader title="Database connection test" documentTitle="Database test">
        <Link className="button button--ghost button--small" to="/admin">
          Back to the admin dashboard
        </Link>
      </PageHeader>
      <main className="admin__main">
        <section className="panel" aria-labelledby="db-test-title">
          <div className="panel__header">
            <h2 id="db-test-title">Connection</h2>
            <button type="button" className="button" onClick={() => void runTest()} disabled={test.state === 'testing'} {...may.button('system.database')}>
              {test.state === 'testing' ? 'Testing...' : 'Test connection'}
            </button>
          </div>
          <div role="status" aria-live="polite">
            {test.state === 'idle' && <p className="panel__hint">Not tested yet.</p>}
            {test.state === 'testing' && <p className="panel__hint">Testing the connection…</p>}
            {test.state === 'success' && (
              <p>
                <span className="status-dot status-dot--live">Connected</span> — PostgreSQL {test.result.server_version}, database{' '}
                <code>{test.result.database}</code>, {test.result.migrations_applied} migrations applied, answered in {test.result.latency_ms} ms.
              </p>
            )}
            {test.state === 'error' && <p className="error-box">Connection failed: {test.reason}</p>}
          </div>
        </section>
        <section className="panel" aria-labelledby="db-init-title">
          <div className="panel__header">
            <h2 id="db-init-title">Initialisation</h2>
            <button type="button" className="button button--ghost" onClick={() => void initialize()} disabled={init.busy} {...may.button('system.initialize')}>
              {init.busy ? 'Initialising...' : 'Initialise'}
            </button>
          </div>
          <p className="panel__hint">Creates the Default scene and the default_scene_id setting if they are missing. Safe to run again.</p>
          <div role="status" aria-live="polite">
            {init.result && (
              <p>
                {init.result.created_default_scene || init.result.set_default_scene_id
                  ? `Done: ${[init.result.created_default_scene && 'created the Default scene', init.result.set_default_scene_id && 'set default_scene_id'].filter(Boolean).join(' and ')} (scene #${init.result.default_scene_id}).`
                  : `Nothing to do: the Default scene and default_scene_id exist (scene #${init.result.default_scene_id}).`}
              </p>
            )}
            {init.error && <p className="error-box">Initialisation failed: {init.error}</p>}
          </div>
        </section>
      </main>
    </div>
  );
}

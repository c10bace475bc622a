/**
 * Backups (issue 42): the newest good backup, its size and age — in amber once it is older than
 * two periods of the schedule —, when the next is due, every recent attempt with the server's
 * sentence for a failed one, and "Back up now". Restoring is a shell command on purpose (it
 * replaces what the console runs on): the page says which.
 */
import { useEffect, useState } from 'react';
import type { BackupDto, BackupsDto } from '../../../../src/shared/api/index.ts';
import { DataView, Table } from '../../../components/DataView.tsx';
import { adminApi } from '../admin-api.ts';
import { reasonOf, showFailure, showSuccess } from '../feedback.ts';
import { formatDateTime, sizeText, timeAgo } from '../format.ts';
import './backups.css';

const TRIGGER_TEXT: Record<BackupDto['trigger'], string> = { schedule: 'Schedule', console: 'Console', command: 'npm run backup' };

function periodText(seconds: number): string {
  if (seconds % 86_400 === 0) return seconds === 86_400 ? 'every night' : `every ${seconds / 86_400} days`;
  if (seconds % 3_600 === 0) return seconds === 3_600 ? 'every hour' : `every ${seconds / 3_600} hours`;
  return `every ${Math.round(seconds / 60)} minutes`;
}

export default function BackupsTab() {
  const [status, setStatus] = useState<BackupsDto | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [running, setRunning] = useState(false);

  const reload = () =>
    adminApi.backups().then(
      (value) => {
        setStatus(value);
        setLoadError(null);
      },
      (failure: unknown) => {
        setLoadError(reasonOf(failure));
        showFailure('Failed to load backups', failure);
      },
    );
  useEffect(() => void reload(), []);

  async function backUpNow() {
    setRunning(true);
    try {
      const backup = await adminApi.backUpNow();
      if (backup.ok) showSuccess(`Backup written: ${backup.file} (${sizeText(backup.bytes ?? 0)})`);
      else showFailure('The backup failed', new Error(backup.error ?? 'The backup failed'));
    } catch (failure) {
      showFailure('Could not take a backup', failure);
    } finally {
      setRunning(false);
      void reload();
    }
  }

  const newest = status?.newest_ok ?? null;
  return (
    <section className="panel" aria-labelledby="backups-title">
      <div className="panel__header">
        <div>
          <h2 id="backups-title">Backups</h2>
          <p className="panel__hint">
            {status
              ? status.schedule
                ? `Taken ${periodText(status.period_seconds ?? 86_400)} (${status.schedule}) into ${status.dir}; the last ${status.keep} are kept.`
                : `No schedule (BACKUP_CRON is off): take them here or with npm run backup. Kept: the last ${status.keep}, in ${status.dir}.`
              : 'The database, dumped on a schedule and on demand.'}{' '}
            To restore one: stop the server, then <code>npm run restore -- &lt;file&gt;</code>.
          </p>
        </div>
        <button type="button" className="button" onClick={() => void backUpNow()} disabled={running}>
          {running ? 'Backing up…' : 'Back up now'}
        </button>
      </div>
      {status && (
        <div className={`backups__newest${status.stale ? ' backups__newest--stale' : ''}`} role={status.stale ? 'alert' : undefined}>
          {newest ? (
            <>
              <strong>Last backup {timeAgo(newest.finished_at!)}</strong>
              <span>
                {formatDateTime(newest.finished_at!)} · {sizeText(newest.bytes ?? 0)} · {newest.tables} tables, {newest.rows?.toLocaleString('en')} rows · {newest.file}
              </span>
              {status.stale && <span>Older than two backup periods: see why the last attempts failed below.</span>}
            </>
          ) : (
            <strong>{status.stale ? 'No good backup yet, and attempts have been failing' : 'No backup yet'}</strong>
          )}
          {status.next_at && <span className="backups__next">Next: {formatDateTime(status.next_at)}</span>}
        </div>
      )}
      <DataView value={status?.recent ?? null} error={loadError} empty="No backup has been taken yet.">
        {(recent) => (
          <Table columns={['Started', 'By', 'Result', 'Size', 'File', 'Node']}>
            <tbody>
              {recent.map((b) => (
                <tr key={b.id}>
                  <td>{formatDateTime(b.started_at)}</td>
                  <td>{TRIGGER_TEXT[b.trigger]}</td>
                  <td>
                    {b.ok === null ? (
                      <span className="badge badge--muted">Running</span>
                    ) : b.ok ? (
                      <span className="badge badge--default">Good</span>
                    ) : (
                      <span className="backups__failed">
                        <span className="badge badge--warn">Failed</span> {b.error}
                      </span>
                    )}
                  </td>
                  <td className="backups__size">{b.bytes === null ? '—' : sizeText(b.bytes)}</td>
                  <td className="backups__file">{b.file}</td>
                  <td>{b.node}</td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </DataView>
    </section>
  );
}

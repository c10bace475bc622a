/**
 * /debug (spec §2 "Debug view", administrators): load any link, see how Nature Wall reads it
 * (type, format, valid, load time), watch it in the real player, and save it to the pool.
 */
import { useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import type { StreamDto } from '../../../src/shared/api/index.ts';
import { analyzeStream, type StreamAnalysis } from '../../../src/shared/streams/analysis.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { Player } from '../../components/Player/Player.tsx';
import type { PlayerPhase } from '../../components/Player/machine.ts';
import { call } from '../../lib/api.ts';
import { reasonOf } from '../../lib/errors.ts';
import '../admin/admin.css';
import './debug.css';

const DEFAULT_URL = 'https://www.youtube.com/embed/ydYDqZQpim8';
/** Spec §2: a YouTube embed, a sample MP4 and a sample HLS stream. */
export const PRESETS: [string, string][] = [
  ['YouTube embed', DEFAULT_URL],
  ['Sample MP4', 'https://test-videos.co.uk/vids/bigbuckbunny/mp4/h264/360/Big_Buck_Bunny_360_10s_1MB.mp4'],
  ['Sample HLS', 'https://test-streams.mux.dev/x36xhzz/x36xhzz.m3u8'],
];
const MAX_LOG = 20;

interface Loaded {
  url: string;
  analysis: StreamAnalysis;
  startedAt: number;
  key: number;
}

export function DebugPage() {
  const [url, setUrl] = useState(DEFAULT_URL);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [loadMs, setLoadMs] = useState<number | null>(null);
  const [logs, setLogs] = useState<string[]>([]);
  const [name, setName] = useState('');
  const [saveError, setSaveError] = useState<string | null>(null);
  const [saved, setSaved] = useState<StreamDto | null>(null);
  const counter = useRef(0);

  const log = (line: string) => setLogs((current) => [`${new Date().toLocaleTimeString()} ${line}`, ...current].slice(0, MAX_LOG));

  function load(target = url) {
    const analysis = analyzeStream(target, { parents: [location.hostname] });
    setUrl(target);
    setLoadMs(null);
    setSaved(null);
    setSaveError(null);
    setName(analysis.suggestedName);
    setLoaded({ url: target.trim(), analysis, startedAt: performance.now(), key: ++counter.current });
    log(`Loading ${target.trim()} (${analysis.type}, ${analysis.format})`);
    if (!analysis.isValid) log('URL may not be a valid stream');
  }

  const reported = useRef<{ key: number; phase: PlayerPhase } | null>(null);
  function onPhase(phase: PlayerPhase) {
    if (!loaded) return;
    // One line per change of phase for this load: a live stream re-buffering is not news each time.
    if (reported.current?.key === loaded.key && (reported.current.phase === phase || (phase !== 'error' && reported.current.phase === 'ready'))) return;
    reported.current = { key: loaded.key, phase };
    if (phase === 'ready') {
      const ms = Math.round(performance.now() - loaded.startedAt);
      setLoadMs(ms);
      log(`Ready in ${ms} ms`);
    } else if (phase === 'error') log('Player error: the stream could not be played');
  }

  async function save(event: FormEvent) {
    event.preventDefault();
    if (!loaded || !loaded.analysis.isValid || name.trim() === '') {
      setSaveError('Please provide a stream name');
      return log('Please provide a stream name');
    }
    try {
      const stream = await call('stream.create', { body: { name: name.trim(), url: loaded.url, category: loaded.analysis.suggestedCategory } });
      setSaved(stream);
      setSaveError(null);
      log(`Saved "${stream.name}" as stream #${stream.id}`);
    } catch (error) {
      const message = `Failed to save stream: ${reasonOf(error)}`;
      setSaveError(message);
      log(message);
    }
  }

  const a = loaded?.analysis;
  return (
    <div className="admin">
      <PageHeader title="Stream Debug View">
        <Link className="button button--ghost button--small" to="/">
          Back to App
        </Link>
      </PageHeader>
      <main className="admin__main debug">
        <section className="panel" aria-label="Load a stream">
          <form
            className="toolbar"
            onSubmit={(event) => {
              event.preventDefault();
              load();
            }}
          >
            <label className="field toolbar__search">
              Stream URL
              <input value={url} onChange={(e) => setUrl(e.target.value)} inputMode="url" />
            </label>
            <button type="submit" className="button">
              Load Stream
            </button>
          </form>
          <div className="toolbar" aria-label="Quick tests">
            {PRESETS.map(([label, preset]) => (
              <button key={label} type="button" className="button button--ghost button--small" onClick={() => load(preset)}>
                {label}
              </button>
            ))}
          </div>
          {a && (
            <p className="debug__status" role="status">
              Type: <strong>{a.type}</strong> · Format: <strong>{a.format}</strong> · Valid: <strong>{a.isValid ? 'yes' : 'no'}</strong> · Load time:{' '}
              <strong>{loadMs === null ? '…' : `${loadMs} ms`}</strong>
            </p>
          )}
        </section>
        {loaded && a && (
          <div className="debug__grid">
            <section className="panel" aria-label="Preview">
              <div className="debug__preview">
                <Player key={loaded.key} stream={{ id: -loaded.key, name: a.suggestedName, url: loaded.url, fallback_url: null }} fit="contain" onPhaseChange={onPhase} />
              </div>
            </section>
            <section className="panel" aria-labelledby="details-title">
              <h2 id="details-title">Stream details</h2>
              <dl className="debug__details">
                <dt>URL</dt>
                <dd>{loaded.url}</dd>
                <dt>Type</dt>
                <dd>{a.type}</dd>
                <dt>Format</dt>
                <dd>{a.format}</dd>
                <dt>Valid</dt>
                <dd>{a.isValid ? 'Yes' : 'No'}</dd>
                <dt>Suggested name</dt>
                <dd>{a.suggestedName}</dd>
                <dt>Suggested category</dt>
                <dd>{a.suggestedCategory}</dd>
                <dt>Plays as</dt>
                <dd>{a.autoplayUrl}</dd>
              </dl>
              <form className="toolbar" onSubmit={save} aria-label="Save to Database">
                <label className="field toolbar__search">
                  Stream name
                  <input value={name} onChange={(e) => setName(e.target.value)} maxLength={200} />
                </label>
                <button type="submit" className="button">
                  Save to Database
                </button>
              </form>
              {saveError && (
                <p className="error-box" role="alert">
                  {saveError}
                </p>
              )}
              {saved && <p className="debug__saved">Saved as stream #{saved.id}.</p>}
            </section>
          </div>
        )}
        <section className="panel" aria-labelledby="console-title">
          <div className="panel__header">
            <h2 id="console-title">Debug console</h2>
            <button type="button" className="button button--ghost button--small" onClick={() => setLogs([])}>
              Clear Logs
            </button>
          </div>
          <ol className="debug__log" aria-live="polite">
            {logs.length === 0 ? <li className="scene-card__meta">Nothing logged yet.</li> : logs.map((line, i) => <li key={`${i}-${line}`}>{line}</li>)}
          </ol>
        </section>
      </main>
    </div>
  );
}

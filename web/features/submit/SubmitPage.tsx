/**
 * /submit (spec §2, §4, §5, §8): a visitor pastes links or an embed code; recognised links are
 * listed at once, anything else is analysed by the server (safely); the visitor ticks what to
 * send, optionally says who they are, and submits for review.
 */
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import type { DiscoveredStreamDto } from '../../../src/shared/api/index.ts';
import { Brand } from '../../components/Brand.tsx';
import { CategoryIcon } from '../../components/icons.tsx';
import { Thumbnail } from '../../components/Thumbnail.tsx';
import { ANALYZE_FAILED, CATEGORIES } from '../../../src/shared/constants.ts';
import { ApiError, call } from '../../lib/api.ts';
import { mergeDiscovered, splitInput } from './submit-rules.ts';
import './submit.css';

type Phase = 'idle' | 'analyzing' | 'ready' | 'submitting';

export const NO_VALID = 'No valid stream URLs found. Please check your input and try again.';
const SUCCESS_MS = 10_000;
const ICON_MS = 5_000;

export function SubmitPage() {
  const [text, setText] = useState('');
  const [name, setName] = useState('');
  const [phase, setPhase] = useState<Phase>('idle');
  const [streams, setStreams] = useState<DiscoveredStreamDto[]>([]);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [error, setError] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);
  const [icon, setIcon] = useState(0);
  const [analyzed, setAnalyzed] = useState('');

  useEffect(() => {
    const timer = setInterval(() => setIcon((i) => (i + 1) % CATEGORIES.length), ICON_MS);
    return () => clearInterval(timer);
  }, []);
  useEffect(() => {
    if (!success) return;
    const timer = setTimeout(() => setSuccess(null), SUCCESS_MS);
    return () => clearTimeout(timer);
  }, [success]);

  async function analyze() {
    const input = text.trim();
    if (!input || input === analyzed) return;
    setAnalyzed(input);
    setError(null);
    const { recognised, toExtract } = splitInput(input);
    if (recognised.length === 0 && toExtract.length === 0) {
      setStreams([]);
      setPhase('idle');
      return setError(NO_VALID);
    }
    setStreams(recognised);
    setSelected(new Set(recognised.map((s) => s.normalizedUrl)));
    if (toExtract.length === 0) return setPhase('ready');
    setPhase('analyzing');
    const found: DiscoveredStreamDto[][] = [];
    let failures = 0;
    for (const url of toExtract) {
      try {
        found.push((await call('discovery.extract', { body: { url } })).streams);
      } catch {
        failures++;
      }
    }
    const all = mergeDiscovered(recognised, ...found);
    setStreams(all);
    setSelected(new Set(all.map((s) => s.normalizedUrl)));
    setPhase('ready');
    if (all.length === 0) setError(failures > 0 ? ANALYZE_FAILED : NO_VALID);
  }

  async function submit() {
    const chosen = streams.filter((s) => selected.has(s.normalizedUrl));
    if (chosen.length === 0) return setError('Please select at least one stream to submit.');
    setPhase('submitting');
    setError(null);
    let stored = 0;
    let known = 0;
    let failed: string | null = null;
    for (const stream of chosen) {
      try {
        const result = await call('submission.submit', { body: { url: stream.url, submittedBy: name.trim() || undefined, title: stream.title ?? undefined } });
        if (result.duplicate) known++;
        else stored++;
      } catch (failure) {
        failed = failure instanceof ApiError && failure.status === 429 ? failure.message : failed; // per-stream failures are skipped
      }
    }
    setPhase('ready');
    if (stored === 0 && known === 0) return setError(failed ?? 'No streams were successfully submitted');
    const parts = [];
    if (stored > 0) parts.push(`Thank you! ${stored} ${stored === 1 ? 'stream was' : 'streams were'} submitted for review.`);
    if (known > 0) parts.push(`${known} ${known === 1 ? 'was' : 'were'} already on Nature Wall or waiting for review.`);
    setSuccess(parts.join(' '));
    setStreams([]);
    setText('');
    setAnalyzed('');
    setPhase('idle');
  }

  const toggle = (key: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });

  return (
    <main className="submit">
      <title>Submit a Stream · Nature Wall</title>
      <CategoryIcon category={CATEGORIES[icon]!} className="submit__backdrop" aria-hidden="true" />
      <div className="submit__panel">
        <header className="submit__header">
          <Brand />
          <h1>Submit a Stream</h1>
          <p>Know a live nature camera? Paste its link (or its embed code) and our team will review it for the wall.</p>
        </header>
        <label className="submit__field" htmlFor="submit-input">
          Stream links or embed code
          <textarea
            id="submit-input"
            value={text}
            onChange={(e) => setText(e.target.value)}
            onBlur={() => void analyze()}
            placeholder={'https://www.youtube.com/watch?v=…\nhttps://www.twitch.tv/…\nor a page that shows a live camera'}
            rows={4}
          />
        </label>
        {phase === 'analyzing' && (
          <p className="submit__status" role="status">
            <span className="spinner spinner--small" aria-hidden="true" /> Looking for streams…
          </p>
        )}
        {streams.length > 0 && (
          <fieldset className="submit__found">
            <legend>Streams found ({streams.length})</legend>
            <ul>
              {streams.map((s) => (
                <li key={s.normalizedUrl}>
                  <label className="submit__stream">
                    <input type="checkbox" checked={selected.has(s.normalizedUrl)} onChange={() => toggle(s.normalizedUrl)} />
                    <Thumbnail url={s.url} name={s.title ?? s.url} src={s.thumbnail} />
                    <span className="submit__stream-text">
                      <strong>{s.title ?? s.url}</strong>
                      <small>
                        {s.platform} · {s.url}
                      </small>
                    </span>
                  </label>
                </li>
              ))}
            </ul>
          </fieldset>
        )}
        <label className="submit__field" htmlFor="submit-name">
          Your name (optional)
          <input id="submit-name" value={name} onChange={(e) => setName(e.target.value)} maxLength={80} placeholder="anonymous" />
        </label>
        {error && (
          <p className="submit__error" role="alert">
            {error}
          </p>
        )}
        {success && (
          <p className="submit__success" role="status">
            {success}
          </p>
        )}
        <div className="submit__actions">
          <button type="button" className="button" onClick={() => void submit()} disabled={phase === 'analyzing' || phase === 'submitting' || streams.length === 0}>
            {phase === 'submitting' ? 'Submitting...' : 'Submit for review'}
          </button>
          <Link to="/">Back to the wall</Link>
        </div>
      </div>
    </main>
  );
}

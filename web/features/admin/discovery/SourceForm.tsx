/**
 * Create or edit a discovery source: name, platform, and the platform's own fields (a search or
 * a channel, a category id, links, a playlist, pages), where finds go, an optional schedule.
 * The server validates everything again and its sentence is shown as it is.
 */
import { useState, type FormEvent } from 'react';
import type { z } from 'zod';
import type { DiscoverySourceDto, SourceInput } from '../../../../src/shared/api/index.ts';
import { CATEGORIES, DISCOVERY_PLATFORMS, LARGE_PLAYLIST, type DiscoveryPlatform } from '../../../../src/shared/constants.ts';
import { adminApi } from '../admin-api.ts';
import { useMay } from '../access.ts';
import { ErrorBox, Options } from '../../../components/FormParts.tsx';
import { serverSentence, showFailure, showSuccess } from '../feedback.ts';
import { PLATFORM_LABELS } from './rules.ts';

const SCHEDULES: [string, string][] = [
  ['', 'Only when run by hand'],
  ['0 * * * *', 'Every hour'],
  ['0 */6 * * *', 'Every 6 hours'],
  ['0 3 * * *', 'Every day (03:00 UTC)'],
  ['0 3 * * 1', 'Every Monday (03:00 UTC)'],
];

const URL_LABEL: Partial<Record<DiscoveryPlatform, string>> = { direct: 'Playlist URL (M3U/M3U8)', earthcam: 'Start page URL', custom: 'Start page URL' };

type Draft = Record<string, string | boolean>;

const list = (text: string, separator: RegExp) => text.split(separator).map((s) => s.trim()).filter(Boolean);

function draftOf(source: DiscoverySourceDto | null): Draft {
  const c = (source?.config ?? {}) as Record<string, unknown>;
  const text = (v: unknown) => (v === undefined || v === null ? '' : Array.isArray(v) ? v.join(', ') : String(v));
  return {
    name: source?.name ?? '',
    platform: source?.platform ?? 'youtube',
    url: source?.url ?? '',
    schedule: source?.schedule ?? '',
    deliver: source?.deliver ?? 'pool',
    active: source?.active ?? true,
    query: text(c.query),
    channel_id: text(c.channel_id),
    game_id: text(c.game_id),
    language: text(c.language),
    tags: text(c.tags),
    links: Array.isArray(c.links) ? c.links.join('\n') : '',
    groups: text(c.groups),
    max_pages: text(c.max_pages),
    max_entries: text(c.max_entries),
    category: text(c.category),
    // One choice for the two settings: trust every entry, or send / skip what is not a nature cam.
    others: c.trust_all === true ? 'trust' : c.irrelevant === 'skip' ? 'skip' : 'review',
    review_large: c.review_large !== false,
  };
}

/** The body the API takes for this platform: only its own fields, blanks left out. */
function inputOf(d: Draft): z.input<typeof SourceInput> {
  const s = (k: string) => String(d[k] ?? '').trim();
  const num = (k: string) => (s(k) ? Number(s(k)) : undefined);
  const platform = d.platform as DiscoveryPlatform;
  const config: Record<string, unknown> = {
    category: s('category') || undefined,
    trust_all: d.others === 'trust',
    irrelevant: d.others === 'skip' ? 'skip' : 'review',
  };
  if (platform === 'youtube') Object.assign(config, { query: s('query') || undefined, channel_id: s('channel_id') || undefined, max_pages: num('max_pages') });
  if (platform === 'twitch') Object.assign(config, { game_id: s('game_id'), language: s('language') || undefined, tags: list(s('tags'), /,/), max_pages: num('max_pages') });
  if (platform === 'vimeo') Object.assign(config, { links: list(s('links'), /\s+/) });
  if (platform === 'direct') Object.assign(config, { groups: list(s('groups'), /,/), max_entries: num('max_entries'), review_large: d.review_large === true });
  if (platform === 'earthcam' || platform === 'custom') Object.assign(config, { max_pages: num('max_pages') });
  // One shape per platform in the contract; the form builds the one its platform picks.
  const input = {
    name: s('name'),
    platform,
    url: URL_LABEL[platform] ? s('url') : null,
    config: Object.fromEntries(Object.entries(config).filter(([, v]) => v !== undefined)),
    schedule: s('schedule') || null,
    deliver: d.deliver === 'review' ? 'review' : 'pool',
    active: d.active === true,
  };
  return input as z.input<typeof SourceInput>;
}

export function SourceForm({ source, onDone }: { source: DiscoverySourceDto | null; onDone: () => void }) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(source));
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const may = useMay();
  const platform = draft.platform as DiscoveryPlatform;
  const set = (key: string) => (e: { target: { value: string } }) => setDraft((d) => ({ ...d, [key]: e.target.value }));
  const field = (key: string, label: string, props: Record<string, unknown> = {}) => (
    <label className="field">
      {label}
      <input name={key} value={String(draft[key] ?? '')} onChange={set(key)} {...props} />
    </label>
  );

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSaving(true);
    const what = source ? 'Failed to update the source' : 'Failed to create the source';
    try {
      const saved = source ? await adminApi.updateSource(source.id, inputOf(draft)) : await adminApi.createSource(inputOf(draft));
      showSuccess(source ? `Saved "${saved.name}"` : `Added the source "${saved.name}"`);
      onDone();
    } catch (failure) {
      setError(serverSentence(failure, what));
      showFailure(what, failure);
    } finally {
      setSaving(false);
    }
  }

  const schedules = SCHEDULES.some(([v]) => v === draft.schedule) ? SCHEDULES : [...SCHEDULES, [String(draft.schedule), `Custom: ${String(draft.schedule)}`] as [string, string]];
  return (
    <form className="form-grid" onSubmit={(e) => void submit(e)} aria-label={source ? 'Edit source' : 'New source'}>
      {field('name', 'Name', { required: true, maxLength: 200, placeholder: 'Explore.org live cams' })}
      <label className="field">
        Platform
        <select name="platform" value={platform} onChange={set('platform')}>
          <Options values={DISCOVERY_PLATFORMS.map((p) => [p, PLATFORM_LABELS[p]] as const)} />
        </select>
      </label>
      {URL_LABEL[platform] && <div className="span-all">{field('url', URL_LABEL[platform], { type: 'url', required: true, placeholder: platform === 'direct' ? 'https://iptv-org.github.io/iptv/categories/animation.m3u' : 'https://www.earthcam.com/network/' })}</div>}
      {platform === 'youtube' && (
        <>
          {field('query', 'Search query', { placeholder: 'wildlife live cam' })}
          {field('channel_id', 'or Channel id', { placeholder: 'UC…' })}
          {field('max_pages', 'Pages per run (1–5, 100 quota units each)', { type: 'number', min: 1, max: 5, placeholder: '1' })}
        </>
      )}
      {platform === 'twitch' && (
        <>
          {field('game_id', 'Category id', { required: true, inputMode: 'numeric', placeholder: '272263' })}
          {field('language', 'Language (optional)', { placeholder: 'en', maxLength: 2 })}
          {field('tags', 'Only with tags (comma-separated, optional)', { placeholder: 'Wildlife, Birds' })}
          {field('max_pages', 'Pages per run (1–10)', { type: 'number', min: 1, max: 10, placeholder: '3' })}
        </>
      )}
      {platform === 'vimeo' && (
        <label className="field span-all">
          Vimeo links, one per line (used when VIMEO_TOKEN is not set: Vimeo has no public live search)
          <textarea name="links" rows={4} value={String(draft.links)} onChange={set('links')} placeholder="https://vimeo.com/76979871" />
        </label>
      )}
      {platform === 'direct' && (
        <>
          {field('groups', 'Only these groups (comma-separated, optional)', { placeholder: 'Animals, Outdoor' })}
          {field('max_entries', 'Most entries per run', { type: 'number', min: 1, max: 20000, placeholder: '1000' })}
        </>
      )}
      {(platform === 'earthcam' || platform === 'custom') && field('max_pages', 'Pages to read (start page and its links, same site)', { type: 'number', min: 1, max: 30, placeholder: '10' })}
      <label className="field">
        Category of finds
        <select name="category" value={String(draft.category)} onChange={set('category')}>
          <Options values={[['', 'Suggest from each title'], ...CATEGORIES]} />
        </select>
      </label>
      <label className="field">
        Finds go
        <select name="deliver" value={String(draft.deliver)} onChange={set('deliver')}>
          <Options values={[['pool', 'Straight into the stream pool'], ['review', 'To the submissions review queue']]} />
        </select>
      </label>
      <label className="field">
        Finds that do not look like nature cams
        <select name="others" value={String(draft.others)} onChange={set('others')}>
          <Options values={[['review', 'Go to the review queue'], ['skip', 'Are skipped (counted on the run)'], ['trust', 'Trust every entry of this source']]} />
        </select>
      </label>
      {platform === 'direct' && (
        <label className="field field--check">
          <input type="checkbox" name="review_large" checked={draft.review_large === true} onChange={(e) => setDraft((d) => ({ ...d, review_large: e.target.checked }))} />
          Send playlists of more than {LARGE_PLAYLIST} entries to review, even when finds go to the pool
        </label>
      )}
      <label className="field">
        Schedule
        <select name="schedule" value={String(draft.schedule)} onChange={set('schedule')}>
          <Options values={schedules} />
        </select>
      </label>
      <label className="field field--check">
        <input type="checkbox" checked={draft.active === true} onChange={(e) => setDraft((d) => ({ ...d, active: e.target.checked }))} />
        Active (inactive sources are skipped by Run All and schedules)
      </label>
      <ErrorBox error={error} wide />
      <div className="modal__footer span-all">
        <button type="button" className="button button--ghost" onClick={onDone}>
          Cancel
        </button>
        <button type="submit" className="button" disabled={saving} {...may.button(source ? 'discovery.updateSource' : 'discovery.createSource')}>
          {saving ? 'Saving…' : source ? 'Save source' : 'Add source'}
        </button>
      </div>
    </form>
  );
}

/**
 * The stream form, for adding (a panel above the table) and for editing (the Edit Stream
 * modal): every field of a stream, checked with the same zod schema the API uses, and the
 * server's answer (409 'Duplicate stream detected', …) shown in the form.
 */
import { useState, type FormEvent, type ReactNode } from 'react';
import { StreamCreate, StreamUpdate, type StreamDto } from '../../../../src/shared/api/index.ts';
import { CATEGORIES, QUALITIES, type Category, type Quality } from '../../../../src/shared/constants.ts';
import { ErrorBox, Options } from '../../../components/FormParts.tsx';
import { useMay } from '../access.ts';

export interface StreamValues {
  name: string;
  url: string;
  category: Category;
  quality: Quality;
  description: string;
  location_name: string;
  latitude: string;
  longitude: string;
  timezone: string;
  fallback_url: string;
  active: boolean;
}

export const EMPTY_STREAM: StreamValues = {
  name: '',
  url: '',
  category: 'nature',
  quality: 'hd',
  description: '',
  location_name: '',
  latitude: '',
  longitude: '',
  timezone: '',
  fallback_url: '',
  active: true,
};

export function valuesOf(stream: StreamDto): StreamValues {
  return {
    name: stream.name,
    url: stream.url,
    category: stream.category,
    quality: stream.quality,
    description: stream.description ?? '',
    location_name: stream.location_name ?? '',
    latitude: stream.latitude === null ? '' : String(stream.latitude),
    longitude: stream.longitude === null ? '' : String(stream.longitude),
    timezone: stream.timezone ?? '',
    fallback_url: stream.fallback_url ?? '',
    active: stream.active,
  };
}

/** The first problem the API's own schema finds, as "<field>: <message>"-free text for the form. */
export function validateStream(values: StreamValues, id?: number): string | null {
  const result = id === undefined ? StreamCreate.safeParse(values) : StreamUpdate.safeParse({ ...values, id });
  if (result.success) return null;
  return result.error.issues[0]?.message ?? 'Please check the form';
}

/** Description, location and fallback: folded away when adding, open when editing. */
function OptionalFields({ open, children }: { open: boolean; children: ReactNode }) {
  if (open) return <>{children}</>;
  return (
    <details className="more-fields">
      <summary>More details: description, location, timezone, fallback</summary>
      <div className="form-grid">{children}</div>
    </details>
  );
}

export function StreamForm(props: {
  initial: StreamValues;
  submitLabel: string;
  busyLabel: string;
  /** Answers an error sentence to show, or null on success. */
  onSubmit: (values: StreamValues) => Promise<string | null>;
  onCancel?: () => void;
  idPrefix: string;
  editingId?: number;
}) {
  const [values, setValues] = useState(props.initial);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const may = useMay();
  const set = (field: keyof StreamValues) => (event: { target: { value: string; checked?: boolean; type?: string } }) =>
    setValues((v) => ({ ...v, [field]: event.target.type === 'checkbox' ? !!event.target.checked : event.target.value }));
  const id = (field: string) => `${props.idPrefix}-${field}`;

  async function submit(event: FormEvent) {
    event.preventDefault();
    const problem = validateStream(values, props.editingId);
    if (problem) return setError(problem);
    setBusy(true);
    setError(null);
    const failure = await props.onSubmit(values);
    setBusy(false);
    if (failure) setError(failure);
    else if (props.editingId === undefined) setValues(props.initial);
  }

  return (
    <form className="form-grid" onSubmit={submit} noValidate>
      <label className="field" htmlFor={id('name')}>
        Name
        <input id={id('name')} value={values.name} onChange={set('name')} required maxLength={200} />
      </label>
      <label className="field" htmlFor={id('url')}>
        URL
        <input id={id('url')} value={values.url} onChange={set('url')} required inputMode="url" placeholder="https://www.youtube.com/watch?v=…" />
      </label>
      <label className="field" htmlFor={id('category')}>
        Category
        <select id={id('category')} value={values.category} onChange={set('category')}>
          <Options values={CATEGORIES.map((c) => [c, c[0]!.toUpperCase() + c.slice(1)] as const)} />
        </select>
      </label>
      <label className="field" htmlFor={id('quality')}>
        Quality
        <select id={id('quality')} value={values.quality} onChange={set('quality')}>
          {QUALITIES.map((q) => (
            <option key={q} value={q}>
              {q.toUpperCase()}
            </option>
          ))}
        </select>
      </label>
      <OptionalFields open={props.editingId !== undefined}>
      <label className="field span-all" htmlFor={id('description')}>
        Description
        <textarea id={id('description')} value={values.description} onChange={set('description')} maxLength={2000} />
      </label>
      <label className="field" htmlFor={id('location')}>
        Location name
        <input id={id('location')} value={values.location_name} onChange={set('location_name')} maxLength={200} />
      </label>
      <label className="field" htmlFor={id('latitude')}>
        Latitude
        <input id={id('latitude')} value={values.latitude} onChange={set('latitude')} inputMode="decimal" placeholder="-90 to 90" />
      </label>
      <label className="field" htmlFor={id('longitude')}>
        Longitude
        <input id={id('longitude')} value={values.longitude} onChange={set('longitude')} inputMode="decimal" placeholder="-180 to 180" />
      </label>
      <label className="field" htmlFor={id('timezone')}>
        Timezone
        <input id={id('timezone')} value={values.timezone} onChange={set('timezone')} placeholder="Europe/Zurich" />
      </label>
      <label className="field" htmlFor={id('fallback')}>
        Fallback URL
        <input id={id('fallback')} value={values.fallback_url} onChange={set('fallback_url')} inputMode="url" placeholder="Played when the stream fails" />
      </label>
      </OptionalFields>
      <label className="field field--check" htmlFor={id('active')}>
        <input id={id('active')} type="checkbox" checked={values.active} onChange={set('active')} />
        Active (shown on walls)
      </label>
      <ErrorBox error={error} wide />
      <div className="modal__footer span-all">
        {props.onCancel && (
          <button type="button" className="button button--ghost" onClick={props.onCancel}>
            Cancel
          </button>
        )}
        <button type="submit" className="button" disabled={busy} {...may.button(props.editingId === undefined ? 'stream.create' : 'stream.update')}>
          {busy ? props.busyLabel : props.submitLabel}
        </button>
      </div>
    </form>
  );
}

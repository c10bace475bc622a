/** `<option>`s of a select: plain values (shown as they are) or [value, label] pairs. */
export function Options({ values }: { values: readonly (string | readonly [string, string])[] }) {
  return (
    <>
      {values.map((entry) => {
        const [value, label] = typeof entry === 'string' ? [entry, entry] : entry;
        return (
          <option key={value} value={value}>
            {label}
          </option>
        );
      })}
    </>
  );
}

/** A form's or a panel's failure, read out when it appears. */
export function ErrorBox({ error, wide = false }: { error: string | null; wide?: boolean }) {
  if (!error) return null;
  return (
    <p className={`error-box${wide ? ' span-all' : ''}`} role="alert">
      {error}
    </p>
  );
}

/** Command-line options of the benchmark scripts: `--name N` or `--name=N`, and boolean flags. */
import { parseArgs } from 'node:util';

export function benchArgs<K extends string>(numbers: Record<K, number>, flags: readonly string[] = []) {
  const { values } = parseArgs({
    options: {
      ...Object.fromEntries(Object.keys(numbers).map((name) => [name, { type: 'string' as const }])),
      ...Object.fromEntries(flags.map((name) => [name, { type: 'boolean' as const }])),
    },
    strict: true,
  });
  const read = values as Record<string, string | boolean | undefined>;
  const parsed = {} as Record<K, number>;
  for (const name of Object.keys(numbers) as K[]) {
    const raw = read[name];
    parsed[name] = typeof raw === 'string' ? Number(raw) : numbers[name];
    if (!Number.isFinite(parsed[name])) throw new Error(`--${name} takes a number`);
  }
  const on = (flag: string) => read[flag] === true;
  return { ...parsed, on };
}

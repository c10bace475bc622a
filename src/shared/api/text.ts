/**
 * The one rule for text a client sends, judged once at the edge (REST query, path and body, and
 * socket payloads): no NUL or other C0/C1 control character (tab and newline only in multi-line
 * fields), no line or paragraph separator in a single line, no unpaired UTF-16 surrogate; in
 * names also no bidirectional override or isolate (U+202A–202E, U+2066–2069; the marks
 * U+200E/U+200F that right-to-left names need stay), and at least one visible character.
 *
 * Each schema carries its rule as a JSON Schema `pattern` (the OpenAPI document states it) and
 * refuses with a sentence naming the character and where it is. Ids are ruled in common.ts.
 */
import { z } from 'zod';

/** What may sit in a line: everything but C0 controls, DEL, C1 controls and U+2028/U+2029. */
const LINE_FORBIDDEN = '\\u0000-\\u001F\\u007F-\\u009F\\u2028\\u2029';
/** Multi-line text also allows tab (U+0009) and newline (U+000A); carriage returns are refused. */
const MULTILINE_FORBIDDEN = '\\u0000-\\u0008\\u000B-\\u001F\\u007F-\\u009F\\u2028\\u2029';
/** Bidirectional embeddings, overrides and isolates: they can make a name read as another. */
const BIDI_FORBIDDEN = '\\u202A-\\u202E\\u2066-\\u2069';

export type TextKind = 'line' | 'multiline' | 'name';

const FORBIDDEN: Record<TextKind, string> = {
  line: LINE_FORBIDDEN,
  multiline: MULTILINE_FORBIDDEN,
  name: LINE_FORBIDDEN + BIDI_FORBIDDEN,
};

/** The JSON Schema pattern of each kind (ECMA-262, as JSON Schema patterns are). */
export const TEXT_PATTERNS: Record<TextKind, string> = {
  line: `^[^${FORBIDDEN.line}]*$`,
  multiline: `^[^${FORBIDDEN.multiline}]*$`,
  name: `^[^${FORBIDDEN.name}]*$`,
};

/**
 * The pattern of a kind for a field that must say something once trimmed: at least one character
 * that is not white space (`\s` is exactly what trimming removes).
 */
const nonBlankPattern = (kind: TextKind) => `^[^${FORBIDDEN[kind]}]*[^${FORBIDDEN[kind]}\\s][^${FORBIDDEN[kind]}]*$`;

const FORBIDDEN_RE: Record<TextKind, RegExp> = {
  line: new RegExp(`[${FORBIDDEN.line}]`),
  multiline: new RegExp(`[${FORBIDDEN.multiline}]`),
  name: new RegExp(`[${FORBIDDEN.name}]`),
};
const BIDI_RE = new RegExp(`[${BIDI_FORBIDDEN}]`);
const LONE_SURROGATE = /\p{Cs}/u;
/** A letter, digit, punctuation mark, symbol or private-use glyph: something a person sees. */
const VISIBLE = /[\p{L}\p{N}\p{P}\p{S}\p{Co}]/u;

export const VISIBLE_RULE = 'Must contain a visible character (a letter, digit, punctuation mark or symbol).';

const codePoint = (char: string) => `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/** Why `value` is not Unicode text (it holds an unpaired UTF-16 surrogate), or null. */
export function unpairedSurrogate(value: string): string | null {
  const surrogate = LONE_SURROGATE.exec(value);
  return surrogate ? `Contains an unpaired surrogate (${codePoint(surrogate[0])} at character ${surrogate.index + 1}): not valid Unicode text` : null;
}

/**
 * Why `value` breaks the rule of its kind, as a sentence; null when it keeps it. Pure, so the
 * browser can say the same thing before sending.
 */
export function textProblem(value: string, kind: TextKind): string | null {
  const surrogate = unpairedSurrogate(value);
  if (surrogate) return surrogate;
  const forbidden = FORBIDDEN_RE[kind].exec(value);
  if (forbidden) {
    const char = forbidden[0];
    const [what, why] = BIDI_RE.test(char)
      ? ['a bidirectional override', '']
      : char === '\r' && kind === 'multiline'
        ? ['a carriage return', ': lines end with a newline (U+000A) alone']
        : char === '\n' || char === '\r' || char === '\u2028' || char === '\u2029'
          ? ['a line break', ', which this field cannot hold']
          : char === '\t'
            ? ['a tab', ', which this field cannot hold']
            : ['a control character', ''];
    return `Contains ${what} (${codePoint(char)} at character ${forbidden.index + 1})${why}`;
  }
  if (kind === 'name' && value.length > 0 && !VISIBLE.test(value)) return VISIBLE_RULE;
  return null;
}

export interface TextOptions {
  /** The longest text accepted, in UTF-16 code units (what JavaScript and JSON Schema count). */
  max: number;
  /** The shortest, after trimming (1 when the field must say something). */
  min?: number;
  /** The message when the text is missing or not a string (and when shorter than `min`, unless `tooShort`). */
  required?: string;
  /** The message when shorter than `min`. */
  tooShort?: string;
  /** Leading and trailing white space is dropped before checking (default true; never for passwords). */
  trim?: boolean;
  /** The field's own description in the document (a name's adds the visible-character rule). */
  description?: string;
}

/**
 * A string of the given kind: trimmed, length-checked, and judged by the rule with a sentence that
 * names the character and where it is. The document gets its length limits and the kind's
 * pattern; a name's description says it needs a visible character (JSON Schema cannot).
 */
export function text(kind: TextKind, options: TextOptions): z.ZodString {
  let schema = options.required ? z.string({ error: options.required }) : z.string();
  if (options.trim !== false) schema = schema.trim();
  if (options.min) schema = schema.min(options.min, options.tooShort ?? options.required ?? `Must be at least ${options.min} characters`);
  schema = schema.max(options.max, `Must be at most ${options.max} characters`).superRefine((value, ctx) => {
    const problem = textProblem(value, kind);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });
  const description = [options.description, kind === 'name' ? VISIBLE_RULE : undefined].filter(Boolean).join(' ');
  const pattern = options.min && options.trim !== false ? nonBlankPattern(kind) : TEXT_PATTERNS[kind];
  return schema.meta({ pattern, ...(description ? { description } : {}) });
}

/** A single line of text (a search, an address, a password with `trim: false`). */
export const line = (options: TextOptions) => text('line', options);
/** Text that may hold tabs and newlines (a description, a prompt, a note). */
export const multiline = (options: TextOptions) => text('multiline', options);
/** What a person calls something: a single line, no bidirectional overrides, something visible. */
export const name = (options: TextOptions) => text('name', options);

/** Optional text where empty or blank means "no value": null (and absent stays absent). */
export function blankAsNull<T extends z.ZodType>(schema: T) {
  return z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? null : v), schema.nullable().optional());
}

/**
 * How every page writes a count: the number as English writes it (1,204) and the noun in the
 * form that number takes ("1 rating", "2 ratings"), by the language's plural rules rather than
 * `n === 1`. Table-tested in tests/unit-web/count.test.ts.
 */
const plural = new Intl.PluralRules('en-US');
const numbers = new Intl.NumberFormat('en-US');

/** A noun's forms: [one, other] ("rating", "ratings"; "stream was", "streams were"). */
export type Forms = readonly [one: string, other: string];

/** The form of `forms` a count of `n` takes. */
export const formFor = (n: number, forms: Forms): string => (plural.select(n) === 'one' ? forms[0] : forms[1]);

/** "1 rating", "1,204 ratings". */
export const countOf = (n: number, forms: Forms): string => `${numbers.format(n)} ${formFor(n, forms)}`;

/** A number as English writes it (1,204). */
export const numberOf = (n: number): string => numbers.format(n);

/**
 * Enrolment (issue 41): a browser that asks to be a screen shows a short pairing code until an
 * admin approves it in the console, which gives it its name, kind, group and position. The rules
 * both sides read: the code's alphabet (no look-alikes), how long a code lasts, the credential's
 * shape, and where the console's approval page is.
 */

/** Letters and digits a person cannot mistake for another: no 0/O, 1/I/L. */
export const PAIRING_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const PAIRING_CODE_LENGTH = 6;
/** A code is shown this long; then the screen asks for a new one. */
export const PAIRING_CODE_MINUTES = 15;
/** Waiting requests one address may hold at once, and the whole server. */
export const PAIRING_WAITING_PER_ADDRESS = 5;
export const PAIRING_WAITING_TOTAL = 200;

/** A screen's credential: 32 random bytes, base64url (43 characters). */
export const CREDENTIAL_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** What an admin types, as the server keeps it: upper case, without spaces or dashes; null when it cannot be a code. */
export function normalizePairingCode(typed: string): string | null {
  const code = typed.replace(/[\s-]/g, '').toUpperCase();
  if (code.length !== PAIRING_CODE_LENGTH) return null;
  for (const c of code) if (!PAIRING_ALPHABET.includes(c)) return null;
  return code;
}

/** The code as a screen shows it: two groups of three. */
export const displayPairingCode = (code: string) => `${code.slice(0, 3)} ${code.slice(3)}`;

/** The console's approval page with the code filled in (the QR code on a pairing screen opens it). */
export const approvalPath = (code: string) => `/admin/screens?code=${encodeURIComponent(code)}`;

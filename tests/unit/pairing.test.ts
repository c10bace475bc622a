/** The pairing code's rules (issue 41): one alphabet without look-alikes, read the same by the document's pattern and by the server. */
import { describe, expect, it } from 'vitest';
import { PairingCode } from '../../src/shared/api/enrolment.ts';
import { displayPairingCode, normalizePairingCode, PAIRING_ALPHABET } from '../../src/shared/pairing.ts';

describe('pairing codes', () => {
  it('have no characters a person could take for another', () => {
    for (const lookAlike of '01OIL') expect(PAIRING_ALPHABET).not.toContain(lookAlike);
    expect(new Set(PAIRING_ALPHABET).size).toBe(PAIRING_ALPHABET.length);
  });

  it('are read as typed — any case, spaces and dashes — and the documented pattern agrees with the reading for every character', () => {
    expect(normalizePairingCode('abc 234')).toBe('ABC234');
    expect(normalizePairingCode('ABC-234')).toBe('ABC234');
    expect(normalizePairingCode('ABC23')).toBeNull();
    expect(normalizePairingCode('ABCO23')).toBeNull();
    for (let c = 0x20; c < 0x7f; c++) {
      const typed = String.fromCharCode(c).repeat(6);
      expect(PairingCode.safeParse(typed).success, `"${typed}"`).toBe(normalizePairingCode(typed) !== null);
    }
    expect(PairingCode.parse(' y4e-m26 ')).toBe('Y4EM26');
    expect(displayPairingCode('Y4EM26')).toBe('Y4E M26');
  });
});

/** The auth module's change types: API tokens and the team's accounts (journaled as admin activity). */
import type { Role } from '../../shared/roles.ts';

declare module '../../domain/changes.ts' {
  interface ChangeTypes {
    'token.created': { type: 'token.created'; tokenId: number; name: string };
    'token.revoked': { type: 'token.revoked'; tokenId: number; name: string };
    'account.invited': { type: 'account.invited'; accountId: number; name: string; role: Role };
    'account.role-changed': { type: 'account.role-changed'; accountId: number; name: string; role: Role; from: Role };
    'account.disabled': { type: 'account.disabled'; accountId: number; name: string };
    'account.enabled': { type: 'account.enabled'; accountId: number; name: string };
    'account.link-issued': { type: 'account.link-issued'; accountId: number; name: string; purpose: 'invite' | 'reset' };
    'account.joined': { type: 'account.joined'; accountId: number; name: string };
    'account.password-reset': { type: 'account.password-reset'; accountId: number; name: string };
  }
}

export {};

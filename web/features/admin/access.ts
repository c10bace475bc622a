/**
 * Who is signed in to the console and what their role may do, read off the one declaration the
 * server enforces (each endpoint's least role, src/shared/api/<feature>.ts): a button for a call
 * the role may not make is disabled, with the server's own sentence on hover. Refreshed when the
 * server says this account changed (`account:changed`: a role change reaches an open console).
 */
import { atom, useAtomValue } from 'jotai';
import type { MeDto } from '../../../src/shared/api/index.ts';
import { ENDPOINTS, type Endpoints } from '../../../src/shared/api/endpoints.ts';
import { denial, type Role } from '../../../src/shared/roles.ts';
import { store } from '../../lib/store.ts';
import { adminApi } from './admin-api.ts';
import type { LiveSlice } from './live/live.ts';

export type SignedIn = Extract<MeDto, { authenticated: true }>;

export const meAtom = atom<SignedIn | null>(null);

export function loadMe(): Promise<void> {
  return adminApi.me().then(
    (me) => store.set(meAtom, me.authenticated ? me : null),
    () => undefined, // the shell's guard already knows we are signed in; a blip keeps what we had
  );
}

/** The live part: who we are, loaded with the console and again when a role changed elsewhere. */
export const accountLive: LiveSlice = {
  name: 'account',
  load: () => void loadMe(),
  listen(socket) {
    socket.on('account:changed', () => void loadMe());
  },
};

export interface Permission {
  allowed: boolean;
  /** Why not, in the server's words (a 403's sentence). */
  reason?: string;
}

export function permissionFor(role: Role | undefined, route: keyof Endpoints): Permission {
  // Before /auth/me answers, nothing is disabled: the server decides anyway.
  const denied = role ? denial(ENDPOINTS[route].access, role) : null;
  return denied ? { allowed: false, reason: denied.error } : { allowed: true };
}

/** `const may = useMay(); <button {...may.button('stream.remove')}>` */
export function useMay() {
  const me = useAtomValue(meAtom, { store });
  return {
    me,
    can: (route: keyof Endpoints) => permissionFor(me?.role, route).allowed,
    /** Props for a control that calls `route`: disabled with the reason on hover when the role may not. */
    button: (route: keyof Endpoints, title?: string) => {
      const permission = permissionFor(me?.role, route);
      return permission.allowed ? (title ? { title } : {}) : { disabled: true, title: permission.reason, 'data-refused': 'role' };
    },
  };
}

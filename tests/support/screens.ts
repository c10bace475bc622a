/** Real socket.io clients playing walls, kiosks and admins, folding pushes like the web app does. */
import type { PairingState, Registration, ScreenState } from '../../src/shared/events.ts';
import { connectScreen, type ScreenClient } from '../../src/shared/screen-client.ts';
import { applyScreenMessage, screenTargetOf, type ScreenMessage } from '../../src/shared/screen-state.ts';

export interface TestScreen {
  client: ScreenClient;
  messages: ScreenMessage[];
  errors: string[];
  readonly state: ScreenState | null;
  /** Enrolment: the pairing state it was last answered (null once approved), its credential, and refusals of it. */
  readonly pairing: PairingState | null;
  credential: string | null;
  refusals: string[];
  /** Resolves with the state once `predicate` holds; rejects after `timeoutMs`. */
  waitFor(predicate: (state: ScreenState | null) => boolean, timeoutMs?: number): Promise<ScreenState>;
  close(): void;
}

export function openScreen(baseUrl: string, registration: Registration, headers?: Record<string, string>, enrolment: { credential?: string } = {}): TestScreen {
  const messages: ScreenMessage[] = [];
  const errors: string[] = [];
  const refusals: string[] = [];
  const target = screenTargetOf(registration);
  let state: ScreenState | null = null;
  let pairing: PairingState | null = null;
  const holder = { credential: enrolment.credential ?? null };
  const client = connectScreen({
    url: baseUrl,
    registration,
    onMessage: (message) => {
      messages.push(message);
      if (message.type === 'state') pairing = null;
      state = applyScreenMessage(state, message, target);
    },
    onError: (error) => errors.push(error),
    credential: () => holder.credential,
    onPairing: (answer) => void (pairing = answer),
    onCredential: (credential) => void (holder.credential = credential),
    onCredentialRefused: (error) => void refusals.push(error),
    socketOptions: { reconnectionDelay: 50, reconnectionDelayMax: 200, ...(headers ? { extraHeaders: headers } : {}) },
  });
  return {
    client,
    messages,
    errors,
    get state() {
      return state;
    },
    get pairing() {
      return pairing;
    },
    get credential() {
      return holder.credential;
    },
    set credential(value) {
      holder.credential = value;
    },
    refusals,
    async waitFor(predicate, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(state)) {
        if (Date.now() > deadline) {
          throw new Error(`screen state never matched; last: ${JSON.stringify(state)?.slice(0, 400)}; errors: ${errors.join(', ')}`);
        }
        await new Promise((r) => setTimeout(r, 10));
      }
      return state!;
    },
    close: () => client.close(),
  };
}

/** The screens a test file opens, all closed after each test (`afterEach(pool.closeAll)`). */
export function screenPool(): { open: typeof openScreen; closeAll: () => void } {
  let opened: TestScreen[] = [];
  return {
    open(...args) {
      const screen = openScreen(...args);
      opened.push(screen);
      return screen;
    },
    closeAll() {
      opened.forEach((s) => s.close());
      opened = [];
    },
  };
}

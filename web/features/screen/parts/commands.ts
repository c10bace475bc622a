/**
 * An operator's commands from the console (POST /api/screens/command): reload the page, or show
 * the screen's name in large type for a few seconds (IdentifyOverlay).
 */
import type { ScreenCommandName } from '../../../../src/shared/events.ts';
import { store } from '../../../lib/store.ts';
import { IDENTIFY_MS, identifyAtom } from '../identity.ts';
import { definePart } from './part.ts';

export const commandsPart = definePart({
  name: 'commands',
  start(session) {
    const onCommand = ({ command }: { command: ScreenCommandName }) => {
      if (command === 'reload') window.location.reload();
      else store.set(identifyAtom, { name: session.registration.name ?? 'Nature Wall screen', until: Date.now() + IDENTIFY_MS });
    };
    return { stop: session.listen('screen:command', onCommand) };
  },
});

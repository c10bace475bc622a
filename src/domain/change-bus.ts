/**
 * Where committed changes go, on the node that committed them: first to the modules that react
 * to other modules' changes (quality cancels the analyses of a removed stream), then to the
 * hub's fan-out, which pushes them to every screen and console of the cluster. Before the hub
 * is attached (start-up, API-only tests) the reactions still run.
 */
import type { ChangePublisher, DomainChange } from './changes.ts';

export type ChangeListener = (changes: readonly DomainChange[]) => void;

export class ChangeBus implements ChangePublisher {
  readonly #listeners: ChangeListener[] = [];
  #relay: ChangePublisher | undefined;

  /** Runs `listener` after every commit (it must not throw; it must not wait). */
  onCommitted(listener: ChangeListener): void {
    this.#listeners.push(listener);
  }

  /** From now on, committed changes are fanned out by `publisher` (the hub's). */
  relayTo(publisher: ChangePublisher): void {
    this.#relay = publisher;
  }

  async publish(changes: readonly DomainChange[]): Promise<void> {
    for (const listener of this.#listeners) listener(changes);
    await this.#relay?.publish(changes);
  }
}

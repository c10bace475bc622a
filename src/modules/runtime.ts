/**
 * Modules set up in list order: each gets its context (what the app shares, its own settings,
 * and `use` for the modules before it), and its declaration's other parts are asked with the
 * same context and its API.
 */
import type Router from '@koa/router';
import type { AppState } from '../http/context.ts';
import type { Hub } from '../realtime/hub.ts';
import type { AnyModule, ModuleContext, ScreensOnHub } from './module.ts';

export interface ModuleSet {
  /** A module's API (set up earlier in the list). */
  use<A>(module: AnyModule<A>): A;
  /** Every module's answer to one part of its declaration, in list order (modules without it left out). */
  each<T>(part: (module: AnyModule, context: ModuleContext<unknown>, api: unknown) => T | undefined): T[];
}

export function setUpModules(
  modules: readonly AnyModule[],
  shared: Omit<ModuleContext<unknown>, 'settings' | 'use'>,
  settingsOf: (module: AnyModule) => unknown,
): ModuleSet {
  const apis = new Map<AnyModule, unknown>();
  const contexts = new Map<AnyModule, ModuleContext<unknown>>();
  for (const module of modules) {
    const use = <A>(used: AnyModule<A>): A => {
      if (!apis.has(used)) throw new Error(`Module ${module.name} uses ${used.name}, which is not set up before it in the list`);
      return apis.get(used) as A;
    };
    const context: ModuleContext<unknown> = { ...shared, settings: settingsOf(module), use };
    contexts.set(module, context);
    apis.set(module, module.setup?.(context));
  }
  return {
    use: <A>(module: AnyModule<A>) => apis.get(module) as A,
    each: (part) =>
      modules.flatMap((m) => {
        const answer = part(m, contexts.get(m)!, apis.get(m));
        return answer === undefined ? [] : [answer];
      }),
  };
}

/** The hub's screens for modules, before the hub exists (nothing connected yet: an empty, partial list). */
export function screensOnHub(hub: () => Hub | undefined): ScreensOnHub {
  return {
    list: async (options) => hub()?.screens(options) ?? { screens: [], partial: true },
    command: (command, id) => hub()?.command(command, id),
    disconnectSession: (sessionHash) => void hub()?.disconnectSession(sessionHash),
    dismiss: (room) => hub()?.dismiss(room),
    notifyAccount: (accountId) => hub()?.notifyAccount(accountId),
  };
}

/**
 * Every module's routes built for their table alone (the OpenAPI document, its lint, the fuzzer):
 * routers only keep their dependencies until a request comes, so each module's context and API
 * is a stub that answers any property with another stub. Never serves a request.
 */
export function routeTableOnly(modules: readonly AnyModule[]): Router<AppState>[] {
  const stub: object = new Proxy(() => stub, { get: () => stub });
  return modules.flatMap((m) => m.routes?.(stub as ModuleContext<unknown>, stub) ?? []);
}

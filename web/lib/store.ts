import { createStore } from 'jotai';

/** The one Jotai store of the app: REST loads and socket pushes both write into it. */
export const store = createStore();

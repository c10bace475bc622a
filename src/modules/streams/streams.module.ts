/** The stream pool: every camera a scene can draw from, its health, stills and uptime. */
import { defineModule } from '../module.ts';
import { streamPushes } from './stream.changes.ts';
import { StreamHealthChange } from './stream-health-change.entity.ts';
import { StreamStill } from './stream-still.entity.ts';
import { Stream } from './stream.entity.ts';
import { streamsRouter } from './streams.routes.ts';
import type { PlacementsOf } from './streams.service.ts';

export interface StreamsApi {
  /** The scenes module answers which scenes place a stream (asked before one is deleted). */
  answerPlacements(answer: PlacementsOf): void;
  placementsOf: PlacementsOf;
}

export const streamsModule = defineModule<undefined, StreamsApi>({
  name: 'streams',
  entities: [Stream, StreamStill, StreamHealthChange],
  setup() {
    let answer: PlacementsOf = async () => [];
    return { answerPlacements: (given) => void (answer = given), placementsOf: (em, streamId) => answer(em, streamId) };
  },
  routes: ({ commands }, api) => [streamsRouter({ commands, placementsOf: api.placementsOf })],
  pushes: ({ orm }) => streamPushes(orm),
});

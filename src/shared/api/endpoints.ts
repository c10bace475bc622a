/**
 * Every endpoint of the contract by its name in ROUTES. The server does not need this list (it
 * mounts each feature's declarations); the browser imports its *type* only, to type a call by
 * name (web/lib/api.ts), and a test checks every name has its declaration and the other way round.
 */
import { activityEndpoints } from './activity.ts';
import { alertEndpoints } from './alerts.ts';
import { authEndpoints } from './auth.ts';
import { backupsEndpoints } from './backups.ts';
import { defaultSceneEndpoints } from './config.ts';
import { discoveryEndpoints } from './discovery.ts';
import { evaluationEndpoints } from './evaluation.ts';
import { playsEndpoints } from './plays.ts';
import { programmeEndpoints } from './programme.ts';
import { qualityEndpoints } from './quality.ts';
import type { RouteName } from './routes.ts';
import { sceneEndpoints } from './scenes.ts';
import { screenEndpoints } from './screens.ts';
import { streamEndpoints } from './streams.ts';
import { submissionEndpoints } from './submissions.ts';
import { systemEndpoints } from './system.ts';
import { teamEndpoints } from './team.ts';
import { weatherEndpoints } from './weather.ts';

const byFeature = {
  activity: activityEndpoints,
  alerts: alertEndpoints,
  auth: authEndpoints,
  backup: backupsEndpoints,
  defaultScene: defaultSceneEndpoints,
  discovery: discoveryEndpoints,
  evaluation: evaluationEndpoints,
  plays: playsEndpoints,
  programme: programmeEndpoints,
  quality: qualityEndpoints,
  scene: sceneEndpoints,
  screen: screenEndpoints,
  stream: streamEndpoints,
  submission: submissionEndpoints,
  system: systemEndpoints,
  team: teamEndpoints,
  weather: weatherEndpoints,
};

type ByFeature = typeof byFeature;
type Flat = { [F in keyof ByFeature]: { [E in keyof ByFeature[F] & string as `${F}.${E}`]: ByFeature[F][E] } }[keyof ByFeature];
type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;

/** `ENDPOINTS['stream.get']` is `streamEndpoints.get`. */
export type Endpoints = UnionToIntersection<Flat>;

export const ENDPOINTS = Object.fromEntries(
  Object.entries(byFeature).flatMap(([feature, endpoints]) => Object.entries(endpoints).map(([name, endpoint]) => [`${feature}.${name}`, endpoint])),
) as Endpoints;

// Every name of ROUTES has a declaration, and every declaration a name: checked by the compiler.
type MissingDeclarations = Exclude<RouteName, keyof Endpoints>;
type UnnamedDeclarations = Exclude<keyof Endpoints, RouteName>;
export const EVERY_ROUTE_DECLARED: [MissingDeclarations, UnnamedDeclarations] extends [never, never] ? true : never = true;

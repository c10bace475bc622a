/**
 * The REST contract under /api, one file a feature: zod schemas for every request (the server
 * parses with them, the web forms validate with them) and the DTO types of every answer. Field
 * names follow the spec (snake_case), so a client written against the spec still works.
 */
export * from './common.ts';
export * from './streams.ts';
export * from './scenes.ts';
export * from './config.ts';
export * from './auth.ts';
export * from './team.ts';
export * from './discovery.ts';
export * from './quality.ts';
export * from './evaluation.ts';
export * from './submissions.ts';
export * from './screens.ts';
export * from './enrolment.ts';
export * from './uptime.ts';
export * from './programme.ts';
export * from './activity.ts';
export * from './plays.ts';
export * from './backups.ts';
export * from './alerts.ts';
export * from './system.ts';
export * from './weather.ts';

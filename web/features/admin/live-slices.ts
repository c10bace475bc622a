/**
 * The console's live slices, one per feature, as tabs.ts lists the tabs: a feature that keeps
 * something live declares its slice beside its code and adds it here. useAdminLive runs them
 * all on the one admin socket.
 */
import { accountLive } from './access.ts';
import { activityLive } from './activity/activity.live.ts';
import { alertsLive } from './alerts/alerts.live.ts';
import { discoveryLive } from './discovery/discovery.live.ts';
import { presenceLive } from './presence/presence.live.ts';
import { programmeLive } from './programme/programme.live.ts';
import { enrolmentLive } from './screens/enrolment.live.ts';
import { qualityLive } from './quality/quality.live.ts';
import { ratingsLive } from './ratings/ratings.live.ts';
import { scenesLive } from './scenes/scenes.live.ts';
import { streamsLive } from './streams/streams.live.ts';
import { submissionsLive } from './submissions/submissions.live.ts';
import type { LiveSlice } from './live/live.ts';

export const ADMIN_LIVE: readonly LiveSlice[] = [accountLive, streamsLive, scenesLive, presenceLive, programmeLive, enrolmentLive, qualityLive, discoveryLive, submissionsLive, activityLive, ratingsLive, alertsLive];

/**
 * Closed vocabularies and limits of the product (spec §3, §9). The database enforces the same
 * lists with CHECK constraints; the migrations import nothing from here on purpose, so a
 * change of vocabulary is always a new migration.
 */

export const CATEGORIES = ['nature', 'volcano', 'ocean', 'waterfall', 'wildlife'] as const;
export type Category = (typeof CATEGORIES)[number];

export const QUALITIES = ['hd', '4k', 'sd'] as const;
export type Quality = (typeof QUALITIES)[number];

export const SELECTION_ALGORITHMS = ['manual', 'ranked', 'recent', 'daylight'] as const;
export type SelectionAlgorithm = (typeof SELECTION_ALGORITHMS)[number];

/** Labels the admin screens show for each algorithm. `ranked` works now, so no 'Coming Soon'. */
export const SELECTION_ALGORITHM_LABELS: Record<SelectionAlgorithm, string> = {
  manual: 'Manual',
  ranked: 'AI Ranked',
  recent: 'Most Recent',
  daylight: 'Follows the Sun',
};

/** One line the scene editor shows under each algorithm. */
export const SELECTION_ALGORITHM_HINTS: Record<SelectionAlgorithm, string> = {
  manual: 'The streams you place, in their slots.',
  ranked: 'The best-rated healthy streams.',
  recent: 'The newest healthy streams.',
  daylight: 'The best healthy streams where the sun is up now; it changes as day moves around the globe. Streams without coordinates are left out.',
};

export const LAYOUT_TYPES = ['grid', 'mosaic', 'feature'] as const;
export type LayoutType = (typeof LAYOUT_TYPES)[number];

export const DISCOVERY_PLATFORMS = ['youtube', 'twitch', 'vimeo', 'direct', 'earthcam', 'custom'] as const;
export type DiscoveryPlatform = (typeof DISCOVERY_PLATFORMS)[number];

/** Spec §3 lists running, failed, completed "and other"; the other one we need is queued. */
export const JOB_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** What started a discovery job. */
export const JOB_TRIGGERS = ['manual', 'run-all', 'schedule'] as const;
export type JobTrigger = (typeof JOB_TRIGGERS)[number];

/** Where a source's finds go: straight into the pool, or to the review queue. */
export const DELIVERIES = ['pool', 'review'] as const;
export type Delivery = (typeof DELIVERIES)[number];

/** Where a source sends finds that do not look like nature cams. */
export const IRRELEVANT_ACTIONS = ['review', 'skip'] as const;
export type IrrelevantAction = (typeof IRRELEVANT_ACTIONS)[number];

/** Why a discovery run left a find out (counted on the job). */
export const SKIP_REASONS = ['non-http', 'duplicate', 'not-relevant', 'invalid'] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

/** Playlists over this many entries go to review, unless their source says otherwise. */
export const LARGE_PLAYLIST = 300;

export const SUBMISSION_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number];

/** Streams per scene, slots in the scene editor and kiosk positions (1..5). */
export const MAX_SCENE_STREAMS = 5;

export const DEFAULTS = {
  category: 'nature',
  quality: 'hd',
  maxStreams: 5,
  layoutType: 'grid',
  submittedBy: 'anonymous',
} as const satisfies {
  category: Category;
  quality: Quality;
  maxStreams: number;
  layoutType: LayoutType;
  submittedBy: string;
};

/** system_config key holding the default scene id as text (spec §3). */
export const DEFAULT_SCENE_KEY = 'default_scene_id';

/** Field limits shared by the forms and the API, so both refuse the same input. */
export const LIMITS = {
  name: 200,
  url: 2048,
  description: 2000,
  prompt: 2000,
  locationName: 200,
  sceneName: 120,
  reviewNote: 1000,
  listPage: 100,
} as const;

/** Spec §8 texts of link analysis: answered by the server, shown as they are by /submit. */
export const NOT_ALLOWED = 'URL is not allowed';
export const INVALID_URL = 'Please enter a valid URL';
export const ANALYZE_FAILED = 'Failed to analyze input. Please try a different URL.';

/**
 * Does a find look like a nature cam, and which category is it? A rule over whole words of
 * its name, its playlist metadata (group-title, tvg-name, tvg-id) and its address — never
 * substrings — table-tested in tests/unit/relevance.test.ts:
 *
 *   relevant = no off-topic word  AND  a nature word  AND  (a camera word OR a live platform)
 *
 * - Off-topic words name what a general TV list is full of (news, shopping, worship, music,
 *   sport, films, cooking, children's TV…); one is enough to leave the entry out ("Cooking
 *   Panda" is not a panda cam). An iptv-org group-title of those genres counts the same.
 * - Nature words: the category words (src/shared/streams/category-words.ts), the wider
 *   vocabulary of wildlife and the sea (osprey, aquarium…) plus general outdoor words (forest,
 *   mountain, lake…).
 * - Camera words: cam, webcam, camera, live cam, and the hosts of camera networks (explore.org,
 *   earthcam…). A search of a live platform (YouTube, Twitch, Vimeo live events) only finds
 *   live streams, so there the camera is implied ("Decorah Eagles – North Nest").
 *
 * The category is the one rule every stream gets (categoryOfWords, spec §9's keywords in §9's
 * order first), over all of these words: "Niagara Falls" is waterfall here as in URL analysis,
 * a "marine animal" wildlife. The wider vocabulary below makes a find a nature find but picks no
 * category: §9's lists of wildlife and ocean words are its contract.
 */
import type { Category } from '../../shared/constants.ts';
import { categoryOfWords } from '../../shared/streams/category-words.ts';
import { hasTerm, wordsOf } from '../../shared/streams/words.ts';

/** Words of wildlife and the sea that §9's lists do not hold: nature words, not category words. */
const WILD_AND_SEA = [
  'osprey', 'owl', 'falcon', 'hawk', 'heron', 'stork', 'puffin', 'penguin', 'nest', 'feeder', 'wolf', 'wolves', 'fox', 'deer',
  'moose', 'elk', 'bison', 'buffalo', 'elephant', 'giraffe', 'lion', 'tiger', 'leopard', 'cheetah', 'rhino', 'hippo', 'zebra',
  'gorilla', 'monkey', 'koala', 'kangaroo', 'sloth', 'otter', 'beaver', 'badger', 'squirrel', 'hummingbird', 'waterhole',
  'watering hole', 'sanctuary', 'rescue', 'kitten', 'puppy',
  'aquarium', 'underwater', 'shark', 'whale', 'dolphin', 'seal', 'jellyfish', 'octopus', 'kelp', 'surf', 'coast', 'harbor',
  'harbour', 'lighthouse', 'pier', 'tide', 'lagoon',
];

const GENERAL_NATURE = [
  'nature', 'forest', 'rainforest', 'jungle', 'mountain', 'alps', 'glacier', 'river', 'lake', 'pond', 'wetland', 'swamp', 'canyon',
  'desert', 'savanna', 'meadow', 'valley', 'national park', 'aurora', 'northern lights', 'wilderness', 'outdoors', 'garden', 'geyser',
];

const CAMERA_TERMS = ['cam', 'webcam', 'livecam', 'camera', 'live cam', 'web cam', 'live view', 'livestream cam', 'nestcam'];

/** Hosts whose every stream is a camera: a find there needs no camera word. */
const CAMERA_HOSTS = ['explore.org', 'earthcam.com', 'skylinewebcams.com', 'ipcamlive.com', 'webcamtaxi.com', 'rtsp.me', 'camstreamer.com', 'windy.com', 'hdontap.com', 'allaboutbirds.org'];

/** Words that say an entry is something else (news, shopping, worship, music, sport, films, cooking, children's TV…). */
const OFF_TOPIC = [
  'news', 'breaking news', 'politics', 'parliament', 'senate', 'shopping', 'teleshopping', 'qvc', 'church', 'gospel', 'worship',
  'bible', 'christian', 'islamic', 'quran', 'sermon', 'prayer', 'music', 'radio', 'hits', 'karaoke', 'movie', 'film', 'cinema',
  'sitcom', 'telenovela', 'novela', 'sport', 'football', 'soccer', 'nfl', 'nba', 'golf', 'wrestling', 'poker', 'casino',
  'lottery', 'betting', 'kids', 'cartoon', 'anime', 'comedy', 'cooking', 'kitchen', 'recipe', 'chef', 'fashion', 'game show',
  'talk show', 'adult', 'xxx', 'erotic',
];

/** iptv-org's genre groups that are never nature cams (a group-title of one is enough). */
const OFF_TOPIC_GROUPS = [
  'news', 'shop', 'religious', 'music', 'movies', 'sports', 'kids', 'cooking', 'comedy', 'business', 'legislative',
  'entertainment', 'series', 'animation', 'classic', 'culture', 'lifestyle', 'auto', 'documentary', 'family',
];

export interface RelevanceInput {
  /** The find's title (a playlist entry's name, a video's title). */
  name: string | null;
  /** Playlist metadata, when there is any. */
  group?: string | null | undefined;
  tvgName?: string | null | undefined;
  tvgId?: string | null | undefined;
  url: string;
  /** Found by a search of live streams (YouTube, Twitch, Vimeo live events): the camera is implied. */
  livePlatform: boolean;
}

export type RelevanceReason = 'nature cam' | 'off-topic' | 'no nature words' | 'not a camera';

export interface Relevance {
  relevant: boolean;
  category: Category;
  /** Why, in words an operator reads on a job card. */
  reason: RelevanceReason;
}

const any = (words: readonly string[], terms: readonly string[]) => terms.some((term) => hasTerm(words, term));

function hostOf(url: string): string {
  try {
    return new URL(url).hostname.toLowerCase().replace(/^www\./, '');
  } catch {
    return '';
  }
}

export function assessRelevance(input: RelevanceInput): Relevance {
  const host = hostOf(input.url);
  let path = '';
  try {
    path = decodeURIComponent(new URL(input.url).pathname);
  } catch {
    // an address that does not parse has no words to give
  }
  const described = wordsOf([input.name, input.tvgName, input.tvgId?.replace(/\.[a-z]{2}(@.*)?$/i, '')].filter(Boolean).join(' '));
  const group = wordsOf(input.group ?? '');
  const address = wordsOf(`${host.replace(/\.[a-z]+$/, '')} ${path}`);
  const all = [...described, ...group, ...address];
  const category = categoryOfWords(all);
  // Off-topic is judged on what the entry says of itself and its group, not on its address
  // (a CDN path may hold "news" or "live-sports" for a perfectly good camera).
  if (any(described, OFF_TOPIC) || any(group, OFF_TOPIC) || any(group, OFF_TOPIC_GROUPS)) return { relevant: false, category, reason: 'off-topic' };
  const nature = category !== 'nature' || any(all, WILD_AND_SEA) || any(all, GENERAL_NATURE);
  if (!nature) return { relevant: false, category, reason: 'no nature words' };
  const camera = input.livePlatform || any(all, CAMERA_TERMS) || CAMERA_HOSTS.some((h) => host === h || host.endsWith(`.${h}`));
  if (!camera) return { relevant: false, category, reason: 'not a camera' };
  return { relevant: true, category, reason: 'nature cam' };
}

/**
 * The real analyzer (ffmpeg) on the test corpus served as live HLS on 127.0.0.1: what the quality
 * tests that judge rendered clips share (tests/quality/activity.test.ts, stillness.test.ts).
 */
import { createSafeFetcher } from '../../src/http/safe-fetch.ts';
import { DEFAULT_PLATFORM_SETTINGS } from '../../src/modules/platforms/settings.ts';
import { analyzeStream, type Analysis, type AnalyzerContext } from '../../src/modules/quality/analyzer/index.ts';
import { DEFAULT_MEDIA_TOOLS } from '../../src/modules/quality/analyzer/media-tools.ts';
import { serveCorpus, type ClipName } from './quality-corpus.ts';

export interface CorpusAnalysis {
  /** Each clip's analysis, `concurrency` at a time. */
  analyzeAll(clips: readonly ClipName[], concurrency: number): Promise<Map<ClipName, Analysis>>;
  close(): Promise<void>;
}

export async function startCorpusAnalysis(sampleSeconds = 8): Promise<CorpusAnalysis> {
  const corpus = await serveCorpus();
  const fetcher = createSafeFetcher({ allowHosts: ['127.0.0.1'] });
  const ctx: AnalyzerContext = { fetcher, tools: DEFAULT_MEDIA_TOOLS, platforms: DEFAULT_PLATFORM_SETTINGS, sampleSeconds, sleep: (ms) => new Promise((r) => setTimeout(r, ms)) };
  return {
    async analyzeAll(clips, concurrency) {
      const analyses = new Map<ClipName, Analysis>();
      const queue = [...clips];
      const worker = async () => {
        for (let clip = queue.shift(); clip; clip = queue.shift()) analyses.set(clip, await analyzeStream({ url: corpus.live(clip), latitude: null, longitude: null }, ctx));
      };
      await Promise.all(Array.from({ length: concurrency }, worker));
      return analyses;
    },
    async close() {
      await fetcher.close();
      await corpus.close();
    },
  };
}

/**
 * Saving a stream or a scene from any of the console's forms (the tabs and the Live Wall's
 * panel): the request, the toast (spec §8 texts with the server's reason), and the sentence the
 * form shows when it failed.
 */
import type { SceneCreate, SceneDto, StreamDto } from '../../../src/shared/api/index.ts';
import { adminApi } from './admin-api.ts';
import { serverSentence, showFailure, showSuccess } from './feedback.ts';
import type { StreamValues } from './streams/StreamForm.tsx';

export type Saved<T> = { ok: true; value: T } | { ok: false; sentence: string };

export async function saveStream(existingId: number | null, values: StreamValues): Promise<Saved<StreamDto>> {
  try {
    const stream = existingId === null ? await adminApi.createStream({ ...values }) : (await adminApi.updateStream({ ...values, id: existingId })).stream;
    showSuccess(existingId === null ? `Added "${stream.name}"` : `Saved "${stream.name}"`);
    return { ok: true, value: stream };
  } catch (error) {
    const what = existingId === null ? 'Failed to create stream' : 'Failed to update stream';
    showFailure(what, error);
    return { ok: false, sentence: serverSentence(error, what) };
  }
}

export async function saveScene(existingId: number | null, input: Partial<SceneCreate> & { name: string }): Promise<Saved<SceneDto>> {
  try {
    const scene = existingId === null ? await adminApi.createScene(input) : (await adminApi.updateScene({ ...input, id: existingId })).scene;
    showSuccess(existingId === null ? `Created "${scene.name}"` : `Saved "${scene.name}"`);
    return { ok: true, value: scene };
  } catch (error) {
    const what = existingId === null ? 'Failed to create scene' : 'Failed to update scene';
    showFailure(what, error);
    return { ok: false, sentence: `${what}: ${serverSentence(error, 'Failed to save scene')}` };
  }
}

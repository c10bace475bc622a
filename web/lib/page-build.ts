/** This page's own build: the id its HTML names (src/shared/web-build.ts), null in development. */
import { BUILD_META_NAME } from '../../src/shared/web-build.ts';

export function pageBuild(): string | null {
  return document.querySelector<HTMLMetaElement>(`meta[name="${BUILD_META_NAME}"]`)?.content || null;
}

/**
 * A stream's picture: the one given (extraction found it), else the platform's (YouTube), else
 * a quiet placeholder. Shared by the console and /submit.
 */
import { thumbnailUrl } from '../../src/shared/streams/url.ts';
import { VideoIcon } from './icons.tsx';
import './thumbnail.css';

export function Thumbnail({ url, name, src }: { url: string; name: string; src?: string | null }) {
  const picture = src ?? thumbnailUrl(url);
  return picture ? (
    <img className="thumb" src={picture} alt={`${name} thumbnail`} loading="lazy" />
  ) : (
    <span className="thumb thumb--placeholder" role="img" aria-label={`${name}: no thumbnail`}>
      <VideoIcon />
    </span>
  );
}

/**
 * A stream's picture: the one given (extraction found it), else the platform's (YouTube), else
 * a quiet placeholder — also when the picture cannot be loaded. Shared by the console and /submit.
 */
import { useState } from 'react';
import { thumbnailUrl } from '../../src/shared/streams/url.ts';
import { VideoIcon } from './icons.tsx';
import './thumbnail.css';

export function Thumbnail({ url, name, src }: { url: string; name: string; src?: string | null }) {
  const picture = src ?? thumbnailUrl(url);
  const [failed, setFailed] = useState<string | null>(null);
  return picture && failed !== picture ? (
    <img className="thumb" src={picture} alt={`${name} thumbnail`} loading="lazy" onError={() => setFailed(picture)} />
  ) : (
    <span className="thumb thumb--placeholder" role="img" aria-label={`${name}: no thumbnail`}>
      <VideoIcon />
    </span>
  );
}

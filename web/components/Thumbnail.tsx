/**
 * A stream's picture. `Thumbnail`: the one given (extraction found it), else the platform's
 * (YouTube), else a quiet placeholder — for links that are not streams yet (/submit, the review
 * queue). `StreamStill`: a stream's own still, served from our origin (the browser hot-links
 * nothing), else the placeholder. Both fall back to it when the picture cannot be loaded.
 */
import { useState } from 'react';
import type { StreamDto } from '../../src/shared/api/index.ts';
import { thumbnailUrl } from '../../src/shared/streams/url.ts';
import { VideoIcon } from './icons.tsx';
import './thumbnail.css';

function Picture({ src, alt, missing }: { src: string | null; alt: string; missing: string }) {
  const [failed, setFailed] = useState<string | null>(null);
  return src && failed !== src ? (
    <img className="thumb" src={src} alt={alt} loading="lazy" decoding="async" onError={() => setFailed(src)} />
  ) : (
    <span className="thumb thumb--placeholder" role="img" aria-label={missing}>
      <VideoIcon />
    </span>
  );
}

export function Thumbnail({ url, name, src }: { url: string; name: string; src?: string | null }) {
  return <Picture src={src ?? thumbnailUrl(url)} alt={`${name} thumbnail`} missing={`${name}: no thumbnail`} />;
}

/** What the stream showed at its latest analysis (a frame, or its platform's thumbnail, stored by us). */
export function StreamStill({ stream }: { stream: Pick<StreamDto, 'name' | 'still_url'> }) {
  return <Picture src={stream.still_url} alt={`${stream.name} thumbnail`} missing={`${stream.name}: no thumbnail yet`} />;
}

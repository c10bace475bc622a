/**
 * One stream over the whole Live Wall (spec §2): closes on Escape or the close button, locks
 * page scrolling, 'Live' badge, 'Loading <name>' while it connects, 'Stream Unavailable' with
 * 'Close' when it fails.
 */
import { useRef } from 'react';
import type { SceneStreamDto } from '../../../src/shared/api/index.ts';
import { StatusBadge } from '../../components/Badges.tsx';
import { CloseIcon } from '../../components/icons.tsx';
import { Player } from '../../components/Player/Player.tsx';
import { useDialog } from '../../lib/useDialog.ts';

export function FullscreenPlayer({ stream, onClose }: { stream: SceneStreamDto; onClose: () => void }) {
  const dialog = useRef<HTMLDivElement>(null);
  const closeButton = useRef<HTMLButtonElement>(null);
  useDialog(dialog, onClose, closeButton);

  return (
    <div ref={dialog} className="fullscreen" role="dialog" aria-modal="true" aria-labelledby="fullscreen-title">
      <Player
        stream={stream}
        fullscreen
        deferMedia={false}
        fit="contain"
        renderLoading={() => (
          <div className="player__overlay fullscreen__loading" role="status">
            <span className="spinner" aria-hidden="true" />
            <p className="fullscreen__loading-name">Loading {stream.name}</p>
            <p>Connecting to stream...</p>
          </div>
        )}
        renderError={() => (
          <div className="player__overlay player__overlay--error" role="alert">
            <p className="player__error-title">Stream Unavailable</p>
            <button type="button" className="button" onClick={onClose}>
              Close
            </button>
          </div>
        )}
      />
      <header className="fullscreen__bar">
        <h2 id="fullscreen-title" className="fullscreen__title">
          {stream.name}
        </h2>
        <StatusBadge stream={stream} />
        {stream.location_name && <span className="fullscreen__location">{stream.location_name}</span>}
        <button ref={closeButton} type="button" className="icon-button fullscreen__close" aria-label="Close full screen" onClick={onClose}>
          <CloseIcon />
        </button>
      </header>
    </div>
  );
}

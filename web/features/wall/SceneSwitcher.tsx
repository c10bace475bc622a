/**
 * The Live Wall's scene switcher: a bar of picker cards that slides up when the pointer nears
 * the bottom edge and hides 3 s after it leaves. Only rendered when there is a scene to pick.
 */
import { memo, useLayoutEffect, useRef, useState } from 'react';
import type { SceneDto } from '../../../src/shared/api/index.ts';
import { SELECTION_ALGORITHM_LABELS } from '../../../src/shared/constants.ts';
import { useSwitcherVisibility } from './useSwitcherVisibility.ts';

interface SceneSwitcherProps {
  scenes: SceneDto[];
  currentId: number | null;
  onPick: (scene: SceneDto) => void;
}

/** Memoised: it renders when the scenes or the current one change, not on every push to its wall. */
export const SceneSwitcher = memo(function SceneSwitcher({ scenes, currentId, onPick }: SceneSwitcherProps) {
  const bar = useRef<HTMLElement>(null);
  const { visible, onFocus, onBlur, reveal } = useSwitcherVisibility(bar);
  const [focusWanted, setFocusWanted] = useState(false);
  // Focus goes to the current scene's card once the bar is shown (a hidden card takes no focus).
  useLayoutEffect(() => {
    if (!visible || !focusWanted) return;
    setFocusWanted(false);
    const cards = bar.current;
    (cards?.querySelector<HTMLButtonElement>('button[aria-pressed="true"]') ?? cards?.querySelector<HTMLButtonElement>('button'))?.focus();
  }, [visible, focusWanted]);
  if (scenes.length === 0) return null;
  const openFromButton = () => {
    reveal();
    setFocusWanted(true);
  };
  return (
    <>
      <p className={`wall-hint${visible ? ' wall-hint--hidden' : ''}`}>Move mouse to bottom edge to switch scenes</p>
      {/* Touch screens and keyboards have no pointer to bring to the edge. */}
      <button
        type="button"
        className="button button--ghost button--small wall-scenes-button"
        aria-controls="scene-switcher"
        aria-expanded={visible}
        onClick={openFromButton}
      >
        Scenes
      </button>
      <nav
        id="scene-switcher"
        ref={bar}
        className={`scene-switcher${visible ? ' scene-switcher--visible' : ''}`}
        aria-label="Scene switcher"
        data-visible={visible}
        onFocus={onFocus}
        onBlur={onBlur}
      >
        <ul className="scene-switcher__list">
          {scenes.map((scene) => {
            const current = scene.id === currentId;
            return (
              <li key={scene.id}>
                <button
                  type="button"
                  className={`picker-card${current ? ' picker-card--current' : ''}`}
                  aria-pressed={current}
                  onClick={() => onPick(scene)}
                >
                  <span className="picker-card__name">{scene.name}</span>
                  <span className="picker-card__description">{scene.description || 'No description available'}</span>
                  <span className="picker-card__meta">
                    <span>Max {scene.max_streams} streams</span>
                    <span className="picker-card__algorithm">{SELECTION_ALGORITHM_LABELS[scene.selection_algorithm]}</span>
                  </span>
                </button>
              </li>
            );
          })}
        </ul>
      </nav>
    </>
  );
});

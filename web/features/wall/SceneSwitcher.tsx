/**
 * The Live Wall's scene switcher: a bar of picker cards that slides up when the pointer nears
 * the bottom edge and hides 3 s after it leaves. Only rendered when there is a scene to pick.
 */
import { useRef } from 'react';
import type { SceneDto } from '../../../src/shared/api.ts';
import { SELECTION_ALGORITHM_LABELS } from '../../../src/shared/constants.ts';
import { useSwitcherVisibility } from './useSwitcherVisibility.ts';

interface SceneSwitcherProps {
  scenes: SceneDto[];
  currentId: number | null;
  onPick: (scene: SceneDto) => void;
}

export function SceneSwitcher({ scenes, currentId, onPick }: SceneSwitcherProps) {
  const bar = useRef<HTMLElement>(null);
  const { visible, onFocus, onBlur } = useSwitcherVisibility(bar);
  if (scenes.length === 0) return null;
  return (
    <>
      <p className={`wall-hint${visible ? ' wall-hint--hidden' : ''}`}>Move mouse to bottom edge to switch scenes</p>
      <nav
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
}

/** The viewer's bottom bar: every active scene with its stream count; click to switch. */
import { Link } from 'react-router-dom';
import type { SceneDto } from '../../../src/shared/api/index.ts';
import { sceneRef } from '../../lib/api.ts';

export function SceneBar({ scenes, currentId }: { scenes: SceneDto[]; currentId: number | null }) {
  if (scenes.length === 0) return null;
  return (
    <nav className="scene-bar" aria-label="Scenes">
      <ul className="scene-bar__list">
        {scenes.map((scene) => {
          const current = scene.id === currentId;
          return (
            <li key={scene.id}>
              <Link
                to={`/scenes/${encodeURIComponent(sceneRef(scene))}`}
                className={`scene-bar__card${current ? ' scene-bar__card--current' : ''}`}
                aria-current={current ? 'page' : undefined}
              >
                <span className="scene-bar__name">{scene.name}</span>
                <span className="scene-bar__meta">Max {scene.max_streams} streams</span>
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

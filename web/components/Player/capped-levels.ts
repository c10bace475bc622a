/**
 * hls.js's own cap to the player's size (`capLevelToPlayerSize`: the rendition whose picture is
 * at least the box in device pixels), stepped down by the screen's frame budget
 * (features/screen/parts/frame-budget.ts): a wall that drops frames plays every tile a
 * rendition lower, and climbs back when it keeps up. hls.js takes the controller as a class.
 */
import type HlsType from 'hls.js';
import { onRenditionStep, renditionStep } from '../../features/screen/rendition-step.ts';

type CapController = NonNullable<(typeof HlsType)['DefaultConfig']['capLevelController']>;
let made: CapController | null = null;

export function cappedLevels(Hls: typeof HlsType): CapController {
  const Base: CapController | undefined = Hls.DefaultConfig.capLevelController;
  if (!Base) throw new Error('this hls.js build has no level cap');
  made ??= class SteppedCap extends Base {
    private readonly unfollow = onRenditionStep(() => this.detectPlayerSize());
    override getMaxLevel(capLevelIndex: number): number {
      const level = super.getMaxLevel(capLevelIndex);
      return level <= 0 ? level : Math.max(0, level - renditionStep());
    }
    override destroy(): void {
      this.unfollow();
      super.destroy();
    }
  };
  return made;
}

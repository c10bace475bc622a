/**
 * A camera whose clock is off by more than its playlist's window lets screens follow (the
 * analysis's `playback.camera_skew_ms`): walls play its live edge instead of the shared moment,
 * so its tiles are not in step with each other. The operator's fix is the camera's clock.
 */
import type { StreamDto } from '../../../../src/shared/api/index.ts';
import { describeSkew } from './camera-clock.ts';

export function CameraClockNote({ stream }: { stream: Pick<StreamDto, 'playback'> }) {
  const skew = stream.playback?.camera_skew_ms;
  if (skew == null) return null;
  const said = describeSkew(skew);
  return (
    <div className="camera-clock" data-camera-skew={skew}>
      <span
        className="badge badge--warn"
        title={`Its program date-time is ${said} against this server's clock: screens play its live edge, not the shared moment. Set the camera's clock (NTP) and re-analyse it.`}
      >
        Camera clock {said}
      </span>
    </div>
  );
}

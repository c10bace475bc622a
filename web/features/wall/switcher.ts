/**
 * When the Live Wall's scene switcher shows (spec §2, §9): as soon as the pointer is within
 * 150 px of the bottom edge (or over the bar, or focus is inside it), and until 3000 ms after
 * the pointer left. Pure timing logic, driven by the hook with real events and by tests with
 * fake timers.
 */

export const SWITCHER_EDGE_PX = 150;
export const SWITCHER_HIDE_MS = 3000;

export function nearBottomEdge(clientY: number, viewportHeight: number, edgePx = SWITCHER_EDGE_PX): boolean {
  return viewportHeight - clientY <= edgePx;
}

export interface SwitcherVisibility {
  /** The pointer moved: `over` is true when it is over the bar itself. */
  pointer(clientY: number, viewportHeight: number, over?: boolean): void;
  /** The pointer left the window. */
  leave(): void;
  /** Keyboard focus entered (true) or left (false) the bar. */
  focus(inside: boolean): void;
  /** Shown on request (the Scenes button, for touch screens and keyboards); hides like after a leave. */
  reveal(): void;
  readonly visible: boolean;
  dispose(): void;
}

export function createSwitcherVisibility(onChange: (visible: boolean) => void, hideAfterMs = SWITCHER_HIDE_MS): SwitcherVisibility {
  let visible = false;
  let focused = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const cancelHide = () => {
    clearTimeout(timer);
    timer = undefined;
  };
  const show = () => {
    cancelHide();
    if (!visible) {
      visible = true;
      onChange(true);
    }
  };
  const scheduleHide = () => {
    if (!visible || timer || focused) return;
    timer = setTimeout(() => {
      timer = undefined;
      visible = false;
      onChange(false);
    }, hideAfterMs);
  };

  return {
    pointer(clientY, viewportHeight, over = false) {
      if (over || nearBottomEdge(clientY, viewportHeight)) show();
      else scheduleHide();
    },
    leave: scheduleHide,
    focus(inside) {
      focused = inside;
      if (inside) show();
      else scheduleHide();
    },
    reveal() {
      show();
      scheduleHide();
    },
    get visible() {
      return visible;
    },
    dispose: cancelHide,
  };
}

/** Wires the switcher's timing (switcher.ts) to the window's pointer and the bar's focus. */
import { useEffect, useRef, useState, type FocusEvent, type RefObject } from 'react';
import { createSwitcherVisibility, type SwitcherVisibility } from './switcher.ts';

export function useSwitcherVisibility(bar: RefObject<HTMLElement | null>): {
  visible: boolean;
  onFocus: () => void;
  onBlur: (event: FocusEvent) => void;
  reveal: () => void;
} {
  const [visible, setVisible] = useState(false);
  const logic = useRef<SwitcherVisibility | null>(null);

  useEffect(() => {
    const switcher = createSwitcherVisibility(setVisible);
    logic.current = switcher;
    const onMove = (event: PointerEvent) => {
      const over = event.target instanceof Node && bar.current?.contains(event.target) === true;
      switcher.pointer(event.clientY, window.innerHeight, over);
    };
    const onLeave = (event: MouseEvent) => {
      if (event.relatedTarget === null) switcher.leave();
    };
    window.addEventListener('pointermove', onMove, { passive: true });
    document.documentElement.addEventListener('mouseleave', onLeave);
    return () => {
      window.removeEventListener('pointermove', onMove);
      document.documentElement.removeEventListener('mouseleave', onLeave);
      switcher.dispose();
      logic.current = null;
    };
  }, [bar]);

  return {
    visible,
    onFocus: () => logic.current?.focus(true),
    onBlur: (event) => {
      if (!(event.relatedTarget instanceof Node && bar.current?.contains(event.relatedTarget))) logic.current?.focus(false);
    },
    reveal: () => logic.current?.reveal(),
  };
}

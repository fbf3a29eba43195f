// A value read from reactive state at most every `ms` milliseconds (the last change always lands): charts that
// redraw on every live event keep the page busy; this lets them follow a run a couple of times a second.
import { onBeforeUnmount, shallowRef, watch, type ShallowRef } from 'vue';

/** A shallow ref that follows `source()` (keep it cheap: it runs on every change) with at most one update per `ms`; the newest value always arrives. */
export function throttled<T>(source: () => T, ms: number): ShallowRef<T> {
  const out = shallowRef(source());
  let last = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const update = () => { timer = null; last = Date.now(); out.value = source(); };
  watch(source, () => {
    if (timer) return;
    const wait = last + ms - Date.now();
    if (wait <= 0) update(); else timer = setTimeout(update, wait);
  });
  onBeforeUnmount(() => { if (timer) clearTimeout(timer); });
  return out;
}

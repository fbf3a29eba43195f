// @vitest-environment happy-dom
// The throttled ref of the live view's charts (src-renderer/util/throttled.ts): follows its source at most once
// per interval, and the newest value always arrives.
import { describe, expect, it, vi } from 'vitest';
import { defineComponent, h, nextTick, shallowRef } from 'vue';
import { mount } from '@vue/test-utils';
import { throttled } from '../../src-renderer/util/throttled.js';

describe('throttled', () => {
  it('takes the first change at once, later ones at most once per interval, and always the newest', async () => {
    vi.useFakeTimers();
    const source = shallowRef<number[]>([]);
    let out: ReturnType<typeof throttled<number[]>> | null = null;
    mount(defineComponent({ setup() { out = throttled(() => source.value, 1000); return () => h('div'); } }));
    expect(out!.value).toEqual([]);
    source.value = [1];
    await nextTick();
    expect(out!.value).toEqual([1]);
    source.value = [1, 2];
    await nextTick();
    source.value = [1, 2, 3];
    await nextTick();
    expect(out!.value).toEqual([1]);
    vi.advanceTimersByTime(1000);
    expect(out!.value).toEqual([1, 2, 3]);
    vi.useRealTimers();
  });
});

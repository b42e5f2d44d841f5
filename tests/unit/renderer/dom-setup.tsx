/*
 * What Mantine needs from a browser that jsdom does not have. Import this
 * first in every component test (the shared vitest config has no setup file
 * for the renderer).
 */
import { configure } from '@testing-library/react';
import { vi } from 'vitest';

if (typeof window !== 'undefined') {
  if (!window.matchMedia) {
    Object.defineProperty(window, 'matchMedia', {
      writable: true,
      value: (query: string) => ({
        matches: false,
        media: query,
        onchange: null,
        addListener: () => {},
        removeListener: () => {},
        addEventListener: () => {},
        removeEventListener: () => {},
        dispatchEvent: () => false,
      }),
    });
  }
  if (!('ResizeObserver' in window)) {
    class ResizeObserver {
      observe() {}
      unobserve() {}
      disconnect() {}
    }
    Object.defineProperty(window, 'ResizeObserver', { writable: true, value: ResizeObserver });
    Object.defineProperty(globalThis, 'ResizeObserver', { writable: true, value: ResizeObserver });
  }
  if (!('fonts' in document)) {
    // Mantine's autosize textarea re-measures when fonts load.
    Object.defineProperty(document, 'fonts', { value: { addEventListener: () => {}, removeEventListener: () => {}, ready: Promise.resolve() } });
  }
  window.HTMLElement.prototype.scrollIntoView = vi.fn();
  Object.defineProperty(window, 'scrollTo', { writable: true, value: vi.fn() });
}

// Pages are loaded lazily (a dynamic import per page); the first render of one takes longer than the default 1 s,
// and on a loaded 2-core CI machine (QEMU and servers beside the renderer tests) 5 s was seen to fall short once.
// A wait that never succeeds still fails, only later.
configure({ asyncUtilTimeout: 15_000 });

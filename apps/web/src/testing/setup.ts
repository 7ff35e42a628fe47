import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { initI18n } from '../app/i18n.ts';

// A wait is for a condition, never for a speed: the first test of a file pays for transforming the
// page's lazily loaded parts on a cold cache, which takes seconds on a loaded 2-core machine.
configure({ asyncUtilTimeout: 30_000 });

// Tests of pure logic run without a document (`@vitest-environment node`), and need no page language.
if (typeof document !== 'undefined') {
  initI18n();
  afterEach(() => {
    cleanup();
  });
}

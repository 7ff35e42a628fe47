import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';

/**
 * Runs axe-core over the whole page (every rule, WCAG 2.x A/AA and best practices) and returns the
 * violations as readable lines, so that a failing test says what is wrong and where. The page must
 * come from `browser.newContext()` (see FINDINGS.md), as Suite.open's pages do.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  // Let menus and popovers finish fading in: half-transparent text would fail on contrast.
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((animation) => animation.playState !== 'running' || animation.effect?.getTiming().iterations === Infinity),
  );
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.map((violation) => {
    const where = violation.nodes
      .slice(0, 3)
      .map((node) => `${node.target.join(' ')}: ${node.failureSummary?.split('\n').slice(1).join(' ').trim()}`)
      .join(' | ');
    return `${violation.id} (${violation.impact}, ${violation.nodes.length} nodes): ${violation.help} — ${where}`;
  });
}

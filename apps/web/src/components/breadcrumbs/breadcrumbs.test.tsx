import { ThemeProvider } from '@mui/material/styles';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { theme } from '../../app/theme.ts';
import { type BreadcrumbItem, Breadcrumbs, type BreadcrumbsProps, truncatedLabel } from './breadcrumbs.tsx';

const LONG = 'Governance and compliance for every organisation we manage';

function renderCrumbs(props: Partial<BreadcrumbsProps> & { items: BreadcrumbItem[] }) {
  return render(
    <ThemeProvider theme={theme}>
      <Breadcrumbs aria-label="Breadcrumb" {...props} />
    </ThemeProvider>,
  );
}

const names = () =>
  within(screen.getByRole('navigation', { name: 'Breadcrumb' }))
    .getAllByRole('listitem')
    .map((item) => item.textContent);

const path = (count: number): BreadcrumbItem[] =>
  Array.from({ length: count }, (_, i) => ({ label: `Level ${i + 1}`, href: `/level-${i + 1}` }));

describe('Breadcrumbs (SPEC.md §9)', () => {
  it('hides the last item (the current page) by default', () => {
    renderCrumbs({ items: [{ label: 'Home', href: '/home' }, { label: 'Users' }] });
    expect(names()).toEqual(['Home']);
    expect(screen.getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/home');
    expect(screen.queryByText('Users')).toBeNull();
  });

  it('shows the last item as the current page with showLast', () => {
    renderCrumbs({
      items: [
        { label: 'Home', href: '/home' },
        { label: 'Users', href: '/users' },
      ],
      showLast: true,
    });
    expect(names()).toEqual(['Home', 'Users']);
    expect(screen.getByText('Users')).toHaveAttribute('aria-current', 'page');
    expect(screen.queryByRole('link', { name: 'Users' })).toBeNull();
  });

  it('renders nothing when only a hidden last item is left', () => {
    const { container } = renderCrumbs({ items: [{ label: 'Users' }] });
    expect(container).toBeEmptyDOMElement();
  });

  it('shows 3 items and collapses the middle behind "Show path", which expands', async () => {
    const user = userEvent.setup();
    renderCrumbs({ items: path(6), showLast: true });
    expect(names()).toEqual(['Level 1', '', 'Level 5', 'Level 6']);
    await user.click(screen.getByRole('button', { name: 'Show path' }));
    expect(names()).toEqual(['Level 1', 'Level 2', 'Level 3', 'Level 4', 'Level 5', 'Level 6']);
  });

  it('counts the visible items after hiding the last one', () => {
    renderCrumbs({ items: path(4) });
    expect(names()).toEqual(['Level 1', 'Level 2', 'Level 3']);
  });

  it('is hidden below the md breakpoint (0 items on mobile) and shown from it', () => {
    renderCrumbs({ items: path(3) });
    const nav = screen.getByRole('navigation', { name: 'Breadcrumb' });
    const css = [...document.styleSheets]
      .flatMap((sheet) => [...sheet.cssRules])
      .map((rule) => rule.cssText.replace(/\s+/g, ''))
      .join('\n');
    const className = [...nav.classList].find((name) => name.startsWith('css-'));
    expect(css).toMatch(new RegExp(`\\.${className}\\{[^}]*display:none;`));
    expect(css).toContain(`@media(min-width:481px){.${className}{display:block;}`);
  });

  it('cuts labels over 40 characters when truncation is on, the whole label still its name', async () => {
    const user = userEvent.setup();
    renderCrumbs({ items: [{ label: LONG, href: '/org' }, { label: 'Users' }], truncate: true });
    const link = screen.getByRole('link', { name: LONG });
    const shown = link.querySelector('[aria-hidden="true"]');
    expect(shown?.textContent).toBe('Governance and compliance for every orga…');
    await user.hover(link);
    expect(await screen.findByRole('tooltip')).toHaveTextContent(LONG);
  });

  it('keeps long labels whole when truncation is off, and labels of 40 characters whole always', () => {
    const forty = 'x'.repeat(40);
    renderCrumbs({ items: [{ label: LONG, href: '/org' }, { label: forty, href: '/forty' }, { label: 'Users' }] });
    expect(names()).toEqual([LONG, forty]);
    expect(truncatedLabel(forty)).toBeUndefined();
    expect(truncatedLabel(`${forty}y`)).toBe(`${forty}…`);
    // Characters, not UTF-16 units: an emoji is not split in half.
    expect(truncatedLabel(`${'😀'.repeat(41)}`)).toBe(`${'😀'.repeat(40)}…`);
  });
});

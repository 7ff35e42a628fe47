import Tab from '@mui/material/Tab';
import TablePagination from '@mui/material/TablePagination';
import Tabs from '@mui/material/Tabs';
import { render, screen } from '@testing-library/react';
import { SUPPORTED_LOCALES, type SupportedLocale } from '@users-admin/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FormFieldIndicator } from '../components/form-field-indicator/form-field-indicator.tsx';
import type { LocaleTranslation } from '../locales/translation-types.ts';
import { applyLocale } from './i18n.ts';
import { LocaleThemeProvider } from './locale-theme-provider.tsx';
import { theme } from './theme.ts';

const files = import.meta.glob<LocaleTranslation>('../locales/*/translation.json', { eager: true, import: 'default' });
const translation = (language: SupportedLocale) =>
  files[`../locales/${language}/translation.json`] as LocaleTranslation;

/**
 * SPEC.md §5, §8 and §9: the design system's default texts (Required, Optional, Scroll tabs left and
 * right) and the generic pagination's (Rows per page:, "more than N") come from the theme's locale,
 * in each of the nine languages.
 */
function DefaultTexts() {
  return (
    <>
      <label>
        {'Email '}
        <FormFieldIndicator required />
        <input />
      </label>
      <label>
        {'Phone '}
        <FormFieldIndicator required={false} />
        <input />
      </label>
      <Tabs value={0} variant="scrollable" scrollButtons aria-label="Sections">
        <Tab label="One" />
        <Tab label="Two" />
      </Tabs>
      {/* Unlabelled on purpose: the theme's locale supplies the texts. A count of -1 is "unknown". */}
      <TablePagination component="div" count={-1} page={0} rowsPerPage={10} onPageChange={() => {}} />
    </>
  );
}

beforeAll(() => {
  // jsdom has no IntersectionObserver; Tabs uses one to enable its scroll buttons.
  vi.stubGlobal(
    'IntersectionObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
});
afterAll(async () => {
  vi.unstubAllGlobals();
  await applyLocale('en');
});

describe('the theme’s default texts', () => {
  it('are English in the theme itself', () => {
    expect(theme.texts).toEqual({
      required: 'Required',
      optional: 'Optional',
      scrollTabsLeft: 'Scroll tabs left',
      scrollTabsRight: 'Scroll tabs right',
    });
  });

  it.each([...SUPPORTED_LOCALES])('are in the page’s language: %s', async (language) => {
    await applyLocale(language);
    render(
      <LocaleThemeProvider>
        <DefaultTexts />
      </LocaleThemeProvider>,
    );
    const { formField, tabs } = translation(language).components;
    const { pagination } = translation(language).users;
    expect(screen.getByText(formField.required)).toBeInTheDocument();
    expect(screen.getByText(formField.optional)).toBeInTheDocument();
    // Part of the field's label, so a screen reader hears it with the field's name.
    expect(screen.getByRole('textbox', { name: `Email ${formField.required}` })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: `Phone ${formField.optional}` })).toBeInTheDocument();

    // The tabs' scroll buttons are named by their direction.
    expect(screen.getByRole('button', { name: tabs.scrollLeft })).toHaveClass('MuiTabScrollButton-root');
    expect(screen.getByRole('button', { name: tabs.scrollRight })).toHaveClass('MuiTabScrollButton-root');

    // The generic pagination's defaults are the page's own words for them.
    // (toHaveTextContent folds the received spaces, French's no-break ones too: fold the expected alike.)
    const fold = (text: string) => text.replace(/\s+/g, ' ');
    expect(document.querySelector('.MuiTablePagination-selectLabel')).toHaveTextContent(fold(pagination.rowsPerPage));
    const moreThan = pagination.moreThan.replace(/\{\{\s*\w+, number\s*\}\}/g, (p) =>
      p.includes('from') ? '1' : '10',
    );
    expect(document.querySelector('.MuiTablePagination-displayedRows')).toHaveTextContent(fold(moreThan));
    if (language === 'en') expect(moreThan).toBe('1–10 of more than 10');
    else expect(moreThan).not.toMatch(/ of |more than/);
  });

  it('mirror the scroll buttons’ names with the layout: the left one still says left', async () => {
    await applyLocale('en');
    render(
      <LocaleThemeProvider>
        <DefaultTexts />
      </LocaleThemeProvider>,
    );
    const [first, last] = screen.getAllByRole('button', { name: /^Scroll tabs/ });
    expect(first).toHaveAccessibleName('Scroll tabs left');
    expect(last).toHaveAccessibleName('Scroll tabs right');
    // Not a Tab stop: the arrow keys move through the tabs and scroll them.
    expect(first).not.toHaveAttribute('tabindex', '0');
  });
});

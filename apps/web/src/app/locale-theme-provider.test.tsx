import { arEG } from '@mui/material/locale';
import { useTheme } from '@mui/material/styles';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from 'i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { UsersPage } from '../features/users/components/users-page.tsx';
import en from '../locales/en/translation.json';
import { renderWithProviders } from '../testing/render.tsx';
import { usersDocument } from '../testing/users-fixtures.ts';
import { applyLocale, registerLanguage, switchLanguage } from './i18n.ts';

vi.mock('../lib/auth/silent-sign-in.ts', () => ({ silentSignIn: vi.fn(async () => true) }));

/** None of the nine languages is written right to left: a test-only Arabic proves the layout would mirror. */
const arabic = {
  ...en,
  users: {
    ...en.users,
    title: 'المستخدمون',
    back: 'العودة إلى منصة التطبيقات',
    search: { placeholder: 'البحث بالاسم أو البريد الإلكتروني', clear: 'مسح البحث' },
  },
};

const ORG = '7c9e6679-7425-40de-944b-e07fc1f90ae7';

function ThemeDirection() {
  return <output aria-label="theme direction">{useTheme().direction}</output>;
}

const renderPage = () =>
  renderWithProviders(
    <>
      <ThemeDirection />
      <UsersPage orgId={ORG} homeUrl="https://home.example/" launchpadUrl="https://launch.example/" />
    </>,
  );

beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn(
      async (input: string) =>
        new Response(JSON.stringify(usersDocument(new URL(input, 'http://localhost'), 30)), {
          status: 200,
          headers: { 'content-type': 'application/vnd.api+json' },
        }),
    ),
  );
});
afterEach(async () => {
  vi.unstubAllGlobals();
  await applyLocale('en');
});

describe('LocaleThemeProvider', () => {
  it('lays the page out left to right in English', async () => {
    renderPage();
    await screen.findByRole('rowheader', { name: /User 001/ });
    expect(document.documentElement.dir).toBe('ltr');
    expect(screen.getByRole('status', { name: 'theme direction' })).toHaveTextContent('ltr');
    // The back button sits on the leading edge: pulled out by a negative left margin.
    const back = screen.getByRole('link', { name: 'Back to the launchpad' });
    expect(getComputedStyle(back).marginLeft).toBe('-8px');
    expect(getComputedStyle(back).marginRight).not.toBe('-8px');
    expect(getComputedStyle(back.querySelector('svg') as SVGElement).transform).not.toBe('scaleX(-1)');
  });

  it('mirrors the page for a right-to-left language', async () => {
    registerLanguage('ar', { translation: arabic, mui: arEG });
    await switchLanguage('ar');
    renderPage();
    await screen.findByRole('rowheader', { name: /User 001/ });

    expect(document.documentElement.dir).toBe('rtl');
    expect(document.documentElement.lang).toBe('ar');
    expect(i18n.dir()).toBe('rtl');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('المستخدمون');
    expect(screen.getByRole('status', { name: 'theme direction' })).toHaveTextContent('rtl');
    // The same margin, mirrored by the right-to-left style cache: the leading edge is now the right.
    const back = screen.getByRole('link', { name: 'العودة إلى منصة التطبيقات' });
    expect(getComputedStyle(back).marginRight).toBe('-8px');
    expect(getComputedStyle(back).marginLeft).not.toBe('-8px');
    // And its arrow points right, back towards the leading edge.
    expect(getComputedStyle(back.querySelector('svg') as SVGElement).transform).toBe('scaleX(-1)');
    expect(document.querySelector('style[data-emotion^="muirtl"]')).not.toBeNull();
  });

  it('uses MUI’s component texts of the page’s language', async () => {
    const user = userEvent.setup();
    await applyLocale('fr');
    renderPage();
    await screen.findByRole('rowheader', { name: /User 001/ });
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Utilisateurs');
    expect(await screen.findByText('1–25 sur 30')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Actions' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Retirer les utilisateurs' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Sélectionnez des utilisateurs avant d’effectuer une action.');
    // Alert's close button is labelled by MUI's French locale, not by the page.
    expect(within(alert).getByRole('button', { name: 'Fermer' })).toBeInTheDocument();
  });
});

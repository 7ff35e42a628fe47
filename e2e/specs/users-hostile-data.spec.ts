import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, signInAs } from '../support/browser.ts';
import { addUsers, changeDatabase, createAccount, type SeedUser } from '../support/database.ts';
import { BREAKPOINTS, type Viewport } from '../support/demo-data.ts';
import { Suite } from '../support/suite.ts';
import type { UsersPage } from '../support/users-page.ts';

// Hostile data: people's names and addresses are whatever a directory sent. Users whose
// names or e-mails hold HTML, script, right-to-left overrides, zero-width characters, very long
// unbroken strings and emoji are seeded into an organisation of their own through the server's
// database; the page must show them as text, never as markup, and keep its layout.

const ORG = { id: '01900000-0000-7000-8000-0000000000ee', name: 'Hostile', slug: 'hostile' };
const ADMIN = { email: 'admin@hostile.example', password: 'admin' };

const LONG_NAME = `Wolfeschlegelsteinhausenbergerdorff${'x'.repeat(300)}`;
const LONG_EMAIL = `${'averyveryverylonglocalpart'.repeat(12)}@${'sub'.repeat(30)}.hostile.example`;

/** Each hostile user, with what it tries. */
const HOSTILE: (SeedUser & { tries: string; shown?: { name: string; email: string } })[] = [
  {
    tries: 'an image whose error handler runs script',
    name: '<img src=x onerror=alert(1)>',
    email: 'img"><img src=x onerror=alert(2)>@hostile.example',
    initials: '<b>',
    status: 'pending',
  },
  {
    tries: 'a script element',
    name: '<script>alert("xss")</script>',
    email: 'script@hostile.example',
    firstName: '<script>',
    lastName: 'alert',
    status: 'inactive',
  },
  {
    tries: 'a right-to-left override that spoofs the text after it',
    name: 'Invoice \u202Eexe.fdp',
    email: 'rtl\u202Eelpmaxe.live@hostile.example',
    status: 'active',
    isExternal: true,
    // The override would make them read "Invoice pdf.exe" and "…elitsoh@evil.example": shown as code points.
    shown: { name: 'Invoice [U+202E]exe.fdp', email: 'rtl[U+202E]elpmaxe.live@hostile.example' },
  },
  {
    tries: 'zero-width characters',
    name: 'Zero\u200BWidth\u200C Join\u200Der\uFEFF',
    email: 'zero\u200bwidth@hostile.example',
    status: 'disabled',
  },
  {
    tries: 'a very long name and e-mail without a space',
    name: LONG_NAME,
    email: LONG_EMAIL,
    status: 'pending',
    isSystemAdmin: true,
  },
  {
    tries: 'emoji, with zero-width-joiner sequences and flags',
    name: '👩‍👩‍👧‍👦 Family 🏳️‍🌈 Pride 👩🏽‍💻 Dev 🇯🇵',
    email: 'emoji👍@hostile.example',
    firstName: '👩‍💻Ada',
    lastName: 'Émoji',
    status: 'active',
  },
  {
    tries: 'combining marks stacked high (Zalgo text)',
    name: 'Z\u0351\u0352\u0357\u0358a\u0300\u0301\u0302\u0303\u0304l\u0305\u0306\u0307g\u0308\u0309o',
    email: 'zalgo@hostile.example',
    status: 'active',
  },
];

const suite = new Suite();
beforeAll(() =>
  suite.start({
    prepare: (dataDir) =>
      changeDatabase(dataDir, async (db) => {
        await db.insertInto('organizations').values(ORG).execute();
        await createAccount(db, {
          ...ADMIN,
          name: 'Hanna Hostile',
          firstName: 'Hanna',
          lastName: 'Hostile',
          locale: 'en',
          memberships: [{ orgId: ORG.id, isSystemAdmin: true }],
        });
        await addUsers(
          db,
          ORG.id,
          HOSTILE.map(({ tries: _tries, shown: _shown, ...user }) => user),
        );
      }),
  }),
);
afterEach(() => suite.closePages());
afterAll(() => suite.stop());

/** Signs in as the Hostile organisation's admin and records every dialog (alert, confirm…) the page opens. */
async function openAsHostileAdmin(
  viewport: Viewport = BREAKPOINTS.xl,
): Promise<{ users: UsersPage; dialogs: string[] }> {
  const dialogs: string[] = [];
  const users = await suite.open({
    as: null,
    waitUntil: 'commit',
    viewport,
    setup: async ({ page }) => {
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
    },
  });
  await signInAs(users.page, ADMIN.email, ADMIN.password);
  await users.waitForList(1, HOSTILE.length + 1, HOSTILE.length + 1);
  return { users, dialogs };
}

/** What markup the data could have injected: any of it present means the data was read as HTML. */
function injected(users: UsersPage) {
  return users.page.evaluate(() => ({
    images: document.querySelectorAll('img[src="x"], img[onerror]').length,
    scripts: [...document.querySelectorAll('script')].filter((s) => /alert/.test(s.textContent ?? '')).length,
    bold: document.querySelectorAll('main b').length,
  }));
}

/** Sizes that show a broken layout: sideways overflow of the page or the table, and the rows' heights. */
function layout(users: UsersPage) {
  return users.page.evaluate(() => {
    const container = document.querySelector('main .MuiTableContainer-root') as HTMLElement;
    const rows = [...document.querySelectorAll('main table tbody tr')] as HTMLElement[];
    return {
      pageOverflow: document.documentElement.scrollWidth - window.innerWidth,
      tableOverflow: container.scrollWidth - container.clientWidth,
      rowHeights: rows.map((row) => Math.round(row.getBoundingClientRect().height)),
      rowsOutside: rows.filter((row) => row.getBoundingClientRect().right > window.innerWidth + 0.5).length,
    };
  });
}

describe('hostile names and e-mails', () => {
  it('render as their literal text, never as markup, and run no script', async () => {
    const { users, dialogs } = await openAsHostileAdmin();
    const rows = await users.readRows();
    for (const user of HOSTILE) {
      const shown = user.shown ?? user;
      const row = rows.find((r) => r.name === shown.name);
      expect(row, user.tries).toBeDefined();
      expect(row?.email, user.tries).toBe(shown.email);
    }
    // The checkbox keeps the real name for assistive technology (speech reads it in stored order).
    expect(await users.rowCheckbox('Invoice \u202Eexe.fdp').count()).toBe(1);
    // The markup is there as text a person can read.
    expect(await users.page.getByText('<img src=x onerror=alert(1)>', { exact: true }).isVisible()).toBe(true);
    expect(await users.page.getByText('<script>alert("xss")</script>', { exact: true }).isVisible()).toBe(true);
    // Initials are text too; '<script>' as a first name gives the avatar '<A'.
    expect(rows.map((row) => row.avatar)).toEqual(expect.arrayContaining(['<b>', '<A', '👩É']));

    expect(await injected(users)).toEqual({ images: 0, scripts: 0, bold: 0 });
    // Hovering and focusing the rows (tooltips, the third-party checkbox) injects nothing either.
    for (const row of await users.rows.all()) await row.hover();
    expect(await injected(users)).toEqual({ images: 0, scripts: 0, bold: 0 });
    expect(dialogs).toEqual([]);
    expect(users.pageErrors).toEqual([]);
  });

  it('a search for markup finds it as text, and a search that finds nothing shows the term as text', async () => {
    const { users, dialogs } = await openAsHostileAdmin();
    await users.search('<img src=x');
    await users.waitForList(1, 1, 1);
    expect(await users.rowNames()).toEqual(['<img src=x onerror=alert(1)>']);

    const term = '<img src=x onerror=alert(3)><b>bold</b>';
    await users.search(term);
    const alert = users.page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain(`“${term}”`);
    expect(await injected(users)).toEqual({ images: 0, scripts: 0, bold: 0 });
    expect(dialogs).toEqual([]);
  });

  it.each(Object.entries(BREAKPOINTS))(
    'keep the layout at %s: nothing sideways, rows of bounded height, long text cut with an ellipsis and shown in full on demand',
    async (breakpoint, viewport) => {
      // Opened at this size rather than resized to it: a resized page was drawn now and then with the
      // previous size's breakpoint styles on CI (see the layout test).
      const { users } = await openAsHostileAdmin(viewport);

      const sizes = await layout(users);
      expect(sizes.pageOverflow, 'page scrolls sideways').toBeLessThanOrEqual(0);
      expect(sizes.tableOverflow, 'table scrolls sideways').toBeLessThanOrEqual(0);
      expect(sizes.rowsOutside).toBe(0);
      // An ordinary row (the admin's) sets the scale; no hostile row may be much taller.
      const ordinary = Math.max(...sizes.rowHeights.slice(0, 1));
      for (const height of sizes.rowHeights)
        expect(height).toBeLessThanOrEqual(Math.max(ordinary * 1.6, ordinary + 48));

      // The long name and e-mail are cut with an ellipsis, and their full text is there to read.
      const long = await users.page.evaluate(
        ([name, email]) => {
          const cells = [...document.querySelectorAll('main table tbody th p')] as HTMLElement[];
          const describe = (text: string) => {
            const element = cells.find((p) => p.textContent === text);
            if (!element) return null;
            const style = getComputedStyle(element);
            return {
              clipped: element.scrollHeight > element.clientHeight + 1 || element.scrollWidth > element.clientWidth + 1,
              ellipsis: style.textOverflow === 'ellipsis',
              lines: Math.round(element.getBoundingClientRect().height / Number.parseFloat(style.lineHeight)),
              title: element.getAttribute('title'),
            };
          };
          return { name: describe(name), email: describe(email) };
        },
        [LONG_NAME, LONG_EMAIL] as const,
      );
      for (const [what, text] of [
        ['name', LONG_NAME],
        ['email', LONG_EMAIL],
      ] as const) {
        expect(long[what], what).toMatchObject({ clipped: true, ellipsis: true, title: text });
        expect(long[what]?.lines, what).toBeLessThanOrEqual(2);
      }

      await screenshot(users.page, `users-hostile-data-${breakpoint}`);
    },
  );
});

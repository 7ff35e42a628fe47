/**
 * Texts that are rightly the same as in English: the word is the language's own or the product
 * term its administrators use. Every other text of another language must differ from English.
 * locales.test.ts checks each entry is still the same (so the list stays exact), and the browser
 * walk through the nine languages (e2e/specs/users-languages.spec.ts) allows only these on screen.
 */
export const SAME_AS_ENGLISH: Partial<Record<string, readonly string[]>> = {
  // "Filter", "Status", "Optional" and "Name" are German words.
  de: [
    'users.filters.button',
    'users.filters.status',
    'users.columns.status',
    'components.formField.optional',
    'users.sheet.fields.status',
    'users.export.nameHeader',
  ],
  // "Actions" is French; "Page {{page, number}}" too.
  fr: ['users.actions.button', 'users.pagination.currentPage', 'userActions.sheet.title'],
  // Italian administrators say "Home" for a home page, and "Email".
  it: ['users.breadcrumbs.home', 'users.sheet.fields.email'],
  // "Filters", "Status" and "Platform" are Dutch words.
  nl: [
    'users.filters.title',
    'users.filters.status',
    'users.columns.status',
    'users.dataSource.platform',
    'users.sheet.fields.status',
  ],
  // "Status" is Portuguese.
  pt: ['users.filters.status', 'users.columns.status', 'users.sheet.fields.status'],
};

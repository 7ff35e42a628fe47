/** Below the md breakpoint, the Data source and User type columns move under the user's e-mail. */
export const WIDE_ONLY = { display: { xs: 'none', md: 'table-cell' } } as const;
export const NARROW_ONLY = { display: { xs: 'block', md: 'none' } } as const;

/**
 * Below the lg breakpoint the Data source and User type columns move under the user's e-mail: from
 * md to lg five columns do not fit, and the last ones would be cut off at the table's edge.
 */
export const WIDE_ONLY = { display: { xs: 'none', lg: 'table-cell' } } as const;
export const NARROW_ONLY = { display: { xs: 'block', lg: 'none' } } as const;

/**
 * The attribute the server puts on `#root` when it has drawn the Users page into the HTML
 * (entry-server.tsx), with `inert`: the drawn page shows the rows but does nothing until the page's
 * code has taken it over (main.tsx), which removes both.
 */
export const SERVER_RENDERED_ATTRIBUTE = 'data-server-rendered';

/** On each part's wrapper (take-over.tsx): the part is the page's once the wrapper is no longer `inert`. */
export const DRAWN_PART_ATTRIBUTE = 'data-drawn-part';

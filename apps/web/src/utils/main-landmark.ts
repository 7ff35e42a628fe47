/**
 * Where menus and lists that pop up open: inside the page's main landmark rather than at the end of
 * the body, so that their content, like the rest of the page's, is inside a landmark (axe "region").
 */
export const inMainLandmark = (): HTMLElement => document.querySelector('main') ?? document.body;

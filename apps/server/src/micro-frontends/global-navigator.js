// The reference global navigator micro-frontend (SPEC.md §7): plain JavaScript, no framework,
// served at /mfe/global-navigator.js. It defines <global-navigator>, the platform's bar across the
// top of every product page: the product name, the signed-in person's name and a way to sign out.
// A page may place the element where it wants it; otherwise the element puts itself at the top of
// the body. It reads the name from the session lookup of the server that serves this script.
(() => {
  const TAG = 'global-navigator';
  if (customElements.get(TAG)) return;

  const PRODUCT_NAME = 'Governance Platform';
  const HEIGHT = 64;
  const scriptUrl = document.currentScript instanceof HTMLScriptElement ? document.currentScript.src : location.href;
  const userinfoUrl = new URL('/apis/oidc/userinfo', scriptUrl).href;

  // Its own few words, in the platform's languages: a micro-frontend ships its own translations.
  const TEXTS = {
    en: { navigation: 'Global navigation', signOut: 'Sign out' },
    de: { navigation: 'Globale Navigation', signOut: 'Abmelden' },
    es: { navigation: 'Navegación global', signOut: 'Cerrar sesión' },
    fr: { navigation: 'Navigation globale', signOut: 'Se déconnecter' },
    it: { navigation: 'Navigazione globale', signOut: 'Esci' },
    ja: { navigation: 'グローバルナビゲーション', signOut: 'サインアウト' },
    nl: { navigation: 'Globale navigatie', signOut: 'Afmelden' },
    pt: { navigation: 'Navegação global', signOut: 'Sair' },
    zh: { navigation: '全局导航', signOut: '退出登录' },
  };
  const textsFor = (locale) =>
    TEXTS[
      String(locale || '')
        .split(/[-_]/)[0]
        .toLowerCase()
    ] || TEXTS.en;

  /** One lookup for every instance; looked up again after a silent sign-in. */
  let userinfo;
  const lookUpUser = () => {
    userinfo = fetch(userinfoUrl, { credentials: 'include', headers: { accept: 'application/json' } })
      .then((response) => (response.ok ? response.json() : undefined))
      .catch(() => undefined);
    return userinfo;
  };

  const STYLE = `
    :host { display: block; height: ${HEIGHT}px; box-sizing: border-box; background: #0b2545; color: #fff;
      font-family: inherit; font-size: 0.9375rem; line-height: 1.5; }
    header { height: 100%; }
    nav { height: 100%; box-sizing: border-box; display: flex; align-items: center; gap: 16px;
      padding: 0 16px; }
    @media (min-width: 769px) { nav { padding: 0 32px; } }
    .product { font-weight: 700; font-size: 1.0625rem; white-space: nowrap; margin-inline-end: auto; }
    .user { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; min-width: 0; }
    .user:empty { display: none; }
    a { color: inherit; font-weight: 600; white-space: nowrap; text-decoration: none; border-radius: 4px;
      padding: 6px 10px; border: 1px solid rgba(255, 255, 255, 0.6); }
    a:hover { background: rgba(255, 255, 255, 0.12); }
    a:focus-visible { outline: 2px solid #fff; outline-offset: 2px; }
  `;

  class GlobalNavigator extends HTMLElement {
    #root = this.attachShadow({ mode: 'open' });
    #onMessage = (event) => {
      const data = event.data;
      if (event.origin === location.origin && data && data.type === 'oidc_callback' && data.status === 'success') {
        void lookUpUser().then((user) => this.#render(user));
      }
    };

    connectedCallback() {
      this.#render(undefined);
      void (userinfo || lookUpUser()).then((user) => this.#render(user));
      // The page's silent sign-in reports through a message: the name can then be read.
      window.addEventListener('message', this.#onMessage);
    }

    disconnectedCallback() {
      window.removeEventListener('message', this.#onMessage);
    }

    #render(user) {
      const texts = textsFor(user?.locale || document.documentElement.lang);
      const style = document.createElement('style');
      style.textContent = STYLE;
      const header = document.createElement('header');
      const nav = document.createElement('nav');
      nav.setAttribute('aria-label', texts.navigation);
      const product = document.createElement('span');
      product.className = 'product';
      product.textContent = PRODUCT_NAME;
      const name = document.createElement('span');
      name.className = 'user';
      name.textContent = typeof user?.name === 'string' ? user.name : '';
      nav.append(product, name);
      if (user) {
        const signOut = document.createElement('a');
        signOut.href = '/logout';
        signOut.textContent = texts.signOut;
        nav.append(signOut);
      }
      header.append(nav);
      this.#root.replaceChildren(style, header);
    }
  }

  customElements.define(TAG, GlobalNavigator);

  const placeIfMissing = () => {
    if (!document.querySelector(TAG)) document.body.prepend(document.createElement(TAG));
  };
  if (document.body) placeIfMissing();
  else document.addEventListener('DOMContentLoaded', placeIfMissing, { once: true });
})();

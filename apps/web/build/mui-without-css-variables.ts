import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Plugin } from 'vite';

const SHIM_ID = '\0mui-theme-provider-without-css-variables';

/**
 * Leaves MUI's CSS theme variables machinery out of the build.
 *
 * `createTheme` and `ThemeProvider` of `@mui/material/styles` import both their plain and their
 * CSS-variables versions and choose at run time, so no tree-shaking can drop the second. The page
 * uses no CSS theme variables (no `cssVariables`, no `colorSchemes`: app/theme.test.tsx checks
 * it), and for such themes MUI itself takes the plain path. This plugin makes the build take it
 * statically: `./createTheme.mjs` resolves to `createThemeNoVars.mjs`, and `./ThemeProvider.mjs`
 * to a provider that is MUI's minus the CSS-variables branch.
 *
 * Both substitutions are checked: if MUI renames or reshapes these files, the build fails here
 * rather than quietly growing again or breaking.
 */
export function muiWithoutCssVariables(): Plugin {
  const require = createRequire(import.meta.url);
  const stylesDir = realpathSync(path.dirname(require.resolve('@mui/material/styles')));
  const file = (name: string) => path.join(stylesDir, name);
  const substituted = new Set<string>();

  return {
    name: 'mui-without-css-variables',
    enforce: 'pre',
    apply: 'build',
    buildStart() {
      const expectations: [string, string][] = [
        ['createTheme.mjs', 'createThemeNoVars(options, ...args)'],
        ['ThemeProvider.mjs', "if (!('colorSchemes' in muiTheme))"],
        ['createThemeNoVars.mjs', 'export default createThemeNoVars'],
        ['ThemeProviderNoVars.mjs', 'export default function ThemeProviderNoVars'],
      ];
      for (const [name, excerpt] of expectations) {
        if (!existsSync(file(name)) || !readFileSync(file(name), 'utf8').includes(excerpt)) {
          this.error(
            `@mui/material/styles/${name} changed (no "${excerpt}"): review build/mui-without-css-variables.ts`,
          );
        }
      }
    },
    resolveId(source, importer) {
      if (!importer || path.dirname(importer) !== stylesDir) return null;
      if (source === './createTheme.mjs') {
        substituted.add(source);
        return file('createThemeNoVars.mjs');
      }
      if (source === './ThemeProvider.mjs') {
        substituted.add(source);
        return SHIM_ID;
      }
      return null;
    },
    load(id) {
      if (id !== SHIM_ID) return null;
      // MUI's ThemeProvider without the CSS-variables branch, which a theme without colorSchemes never takes.
      return `'use client';
import * as React from 'react';
import ThemeProviderNoVars from ${JSON.stringify(file('ThemeProviderNoVars.mjs'))};
import THEME_ID from ${JSON.stringify(file('identifier.mjs'))};
import { jsx } from 'react/jsx-runtime';
export default function ThemeProvider({ theme, ...props }) {
  const noVarsTheme = React.useMemo(() => {
    if (typeof theme === 'function') return theme;
    const muiTheme = THEME_ID in theme ? theme[THEME_ID] : theme;
    return 'vars' in muiTheme ? theme : { ...theme, vars: null };
  }, [theme]);
  return jsx(ThemeProviderNoVars, { theme: noVarsTheme, ...props });
}
`;
    },
    buildEnd(error) {
      if (!error && substituted.size !== 2) {
        this.error(
          `MUI's theme modules were not substituted (${[...substituted].join(', ') || 'none'}): review build/mui-without-css-variables.ts`,
        );
      }
    },
  };
}

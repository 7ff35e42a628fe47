import { describe, expect, it } from 'vitest';
import { emotionStyleTags, lightningTargets } from './first-render-styles.ts';

describe('lightningTargets', () => {
  it("reads Vite's browser targets as lightningcss's version numbers", () => {
    expect(lightningTargets(['chrome111', 'edge111', 'firefox114', 'safari16.4', 'es2023'])).toEqual({
      chrome: 111 << 16,
      edge: 111 << 16,
      firefox: 114 << 16,
      safari: (16 << 16) | (4 << 8),
    });
    expect(lightningTargets('ios15')).toEqual({ ios_saf: 15 << 16 });
    expect(lightningTargets(false)).toEqual({});
  });
});

describe('emotionStyleTags', () => {
  const rendered =
    '<style data-emotion="css-global abc">body { margin: 0; }</style><div>' +
    '<style data-emotion="css one">.css-one { display: -webkit-box; display: flex; }</style><p class="css-one"></p>' +
    '<style data-emotion="css two three">.css-two { color: rgba(0, 0, 0, 0.87); }.css-three{margin:0}</style></div>';

  it('gives the global styles as they are, then every other style in one element, in the order of first use', () => {
    const tags = emotionStyleTags(rendered, lightningTargets(['chrome111']));
    expect(tags.map((tag) => tag.attrs?.['data-emotion'])).toEqual(['css-global abc', 'css one two three']);
    expect(tags.map((tag) => tag.injectTo)).toEqual(['head', 'head']);
    // Minified for the targets: the old flexbox's prefix goes, the colour is shorter.
    expect(tags[0]?.children).toBe('body{margin:0}');
    expect(tags[1]?.children).toBe('.css-one{display:flex}.css-two{color:#000000de}.css-three{margin:0}');
  });

  it('fails when the render gave no styles, or styles of a cache the page does not have', () => {
    expect(() => emotionStyleTags('<main></main>', {})).toThrow(/no Emotion styles/);
    expect(() => emotionStyleTags('<style data-emotion="muirtl x">.muirtl-x{}</style>', {})).toThrow(/"muirtl"/);
  });
});

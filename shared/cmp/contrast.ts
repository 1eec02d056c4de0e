/**
 * WCAG 2.x contrast, shared by the API (which says when a tenant's theme fails it) and the widget
 * (which then shows its default colours instead). Pure: no Node or DOM APIs.
 */
export const minimumContrast = 4.5;

const channel = (value: number): number => {
  const c = value / 255;
  return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
};

/** Relative luminance of a hex colour (#rgb, #rgba, #rrggbb, #rrggbbaa; alpha is ignored). */
const luminance = (hex: string): number => {
  const digits = hex.length <= 5 ? hex.slice(1, 4).replace(/./g, '$&$&') : hex.slice(1, 7);
  const value = parseInt(digits, 16);
  return 0.2126 * channel((value >> 16) & 255) + 0.7152 * channel((value >> 8) & 255) + 0.0722 * channel(value & 255);
};

export const contrastRatio = (a: string, b: string): number => {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
};

export interface ThemeColours {
  primaryColor: string;
  backgroundColor: string;
  textColor: string;
}

/** The colour pairs a theme must keep at 4.5:1: body text and buttons or links, each on the background. */
const themePairs = [
  ['textColor', 'backgroundColor'],
  ['primaryColor', 'backgroundColor'],
] as const;

/** The colour pairs of a theme below 4.5:1, each ratio rounded down (never a failure rounded up to a pass). */
export const themeContrastFailures = (theme: ThemeColours): { pair: string; ratio: number }[] =>
  themePairs
    .map(([foreground, background]) => ({ pair: `${foreground} on ${background}`, ratio: contrastRatio(theme[foreground], theme[background]) }))
    .filter(({ ratio }) => ratio < minimumContrast)
    .map(({ pair, ratio }) => ({ pair, ratio: Math.floor(ratio * 100) / 100 }));

/** Every pair at 4.5:1 or more: what the widget asks before it takes a tenant's colours. */
export const themeReadable = (theme: ThemeColours): boolean =>
  themePairs.every(([foreground, background]) => contrastRatio(theme[foreground], theme[background]) >= minimumContrast);

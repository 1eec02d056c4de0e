import { contrastRatio, minimumContrast, themeReadable } from '../../../shared/cmp/contrast';
import { css } from './styles';

type Child = Node | string | false | null | undefined;

/** Element builder: properties set as properties (never innerHTML, never inline handlers as attributes). */
export const h = <K extends keyof HTMLElementTagNameMap>(tag: K, props: Record<string, unknown> = {}, ...children: Child[]): HTMLElementTagNameMap[K] => {
  const element = document.createElement(tag);
  for (const key in props) {
    const value = props[key];
    if (key.slice(0, 2) === 'on') element.addEventListener(key.slice(2), value as EventListener);
    else if (key in element && key !== 'role' && key.indexOf('-') < 0) (element as unknown as Record<string, unknown>)[key] = value;
    else if (value !== undefined && value !== false) element.setAttribute(key, String(value));
  }
  for (const child of children) if (child) element.append(child);
  return element;
};

export interface Theme {
  primaryColor: string;
  backgroundColor: string;
  textColor: string;
  borderRadius: number;
}

export const defaultTheme: Theme = { primaryColor: '#1a56db', backgroundColor: '#ffffff', textColor: '#111827', borderRadius: 8 };

/** The tenant's colours when their text and buttons reach WCAG AA (4.5:1); otherwise the defaults, never an unreadable banner. */
const readable = (theme: Theme): Theme => {
  // Translucent colours would blend with the host page: only opaque ones are taken.
  const opaque = [theme.primaryColor, theme.backgroundColor, theme.textColor].every((color) => /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.test(color));
  return opaque && themeReadable(theme) ? theme : defaultTheme;
};

/** Where a banner may sit (the API's bannerPositions); anything else is the first. */
const positions = ['bottom-right', 'bottom-left', 'bottom-center', 'top-center'];

/** The focused element, looking inside shadow roots (the widget's own "Privacy choices" button included). */
const deepActiveElement = (): Element | null => {
  let active = document.activeElement;
  while (active && active.shadowRoot && active.shadowRoot.activeElement) active = active.shadowRoot.activeElement;
  return active;
};

export interface Ui {
  /** Shows a dialog (one at a time; others wait their turn), moving focus into it. */
  open(panel: HTMLElement, onEscape?: () => void): void;
  /** Removes it and returns focus to where it was. */
  close(panel: HTMLElement): void;
  replace(old: HTMLElement, next: HTMLElement): void;
  corner: HTMLElement;
  /** The position shown: one of `positions`. */
  position: string;
}

export const mountUi = (theme: Theme, requested: string): Ui => {
  const position = positions.indexOf(requested) >= 0 ? requested : positions[0]!;
  const host = h('div', { 'data-cms': '' });
  const root = host.attachShadow({ mode: 'open' });
  // A constructed sheet is CSSOM, which a page's CSP style-src does not govern; <style> is the fallback.
  try {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    root.adoptedStyleSheets = [sheet];
  } catch {
    root.append(h('style', {}, css));
  }
  const colors = readable(theme);
  // The position's class is its initials: br, bl, bc, tc.
  const container = h('div', { className: `c ${position.replace(/(\w)\w*-?/g, '$1')}` });
  const corner = h('div', { className: 'pc' });
  // Custom properties set through CSSOM, which a page's CSP style-src does not govern. The colours are opaque hex (readable) and the radius a number.
  container.style.cssText = corner.style.cssText = `--bg:${colors.backgroundColor};--fg:${colors.textColor};--pc:${colors.primaryColor};--pf:${
    contrastRatio(colors.primaryColor, '#fff') >= minimumContrast ? '#fff' : '#000'
  };--r:${Math.min(24, Math.max(0, colors.borderRadius))}px`;
  root.append(container, corner);
  document.body.append(host);

  const queue: [HTMLElement, (() => void) | undefined][] = [];
  let current: HTMLElement | undefined;
  let onEscape: (() => void) | undefined;
  let returnFocus: Element | null = null;
  container.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && onEscape) {
      event.stopPropagation();
      onEscape();
    }
  });
  const show = () => {
    if (current) return;
    const next = queue.shift();
    if (!next) return;
    [current, onEscape] = next;
    returnFocus = deepActiveElement();
    container.append(current);
    focusInto(current);
  };
  const focusInto = (panel: HTMLElement) => (panel.querySelector<HTMLElement>('h2') ?? panel).focus();
  return {
    corner,
    position,
    open(panel, onEscape) {
      queue.push([panel, onEscape]);
      show();
    },
    close(panel) {
      panel.remove();
      if (current !== panel) return;
      current = onEscape = undefined;
      if (returnFocus instanceof HTMLElement && returnFocus.isConnected) returnFocus.focus();
      show();
    },
    replace(old, next) {
      old.replaceWith(next);
      if (current === old) current = next;
      focusInto(next);
    },
  };
};

/**
 * One banner's dialog, drawn by `render`: shown (once: false when it already is), drawn again in
 * place when a language or an answer changes what it shows (returning the new one), closed. Both
 * banners keep their dialog through it.
 */
export const panelOf = (ui: Ui, render: () => HTMLElement) => {
  let panel: HTMLElement | undefined;
  return {
    show: (onEscape?: () => void): boolean => !panel && (ui.open((panel = render()), onEscape), true),
    redraw: (): HTMLElement | undefined => {
      if (panel) ui.replace(panel, (panel = render()));
      return panel;
    },
    close: (): void => {
      if (panel) ui.close(panel);
      panel = undefined;
    },
  };
};

/** A labelled, non-modal dialog: the host page stays usable while it is shown. */
export const dialog = (id: string, language: string, direction: string, title: Child, ...content: Child[]): HTMLElement =>
  h('section', { role: 'dialog', 'aria-labelledby': `${id}-t`, className: 'd', lang: language.toLowerCase(), dir: direction }, h('h2', { id: `${id}-t`, tabIndex: -1 }, title), ...content);

/** Runs a click handler, sync or async, so that nothing it throws reaches the host page. */
export const guarded =
  <A extends unknown[]>(action: (...args: A) => unknown) =>
  (...args: A): void => {
    try {
      Promise.resolve(action(...args)).catch(() => undefined);
    } catch {
      // The widget's failure stays the widget's.
    }
  };

/** A link to a page of the tenant's, in a new tab that cannot reach back to this one. */
export const link = (href: string, text: Child): HTMLAnchorElement => h('a', { href, target: '_blank', rel: 'noopener' }, text);

export const button = (label: Child, onclick: () => unknown, primary = false): HTMLButtonElement =>
  h('button', { type: 'button', className: primary ? 'p' : '', onclick: guarded(onclick) }, label);

/** A purpose or category switch: a native checkbox with role=switch, labelled by its name. */
export const toggle = (id: string, name: Child, checked: boolean, locked: boolean, lockedLabel: Child, ...details: Child[]): { row: HTMLElement; input: HTMLInputElement } => {
  const input = h('input', { type: 'checkbox', role: 'switch', id, checked, disabled: locked, 'aria-describedby': `${id}-d` });
  const row = h('div', { className: 't' }, h('div', { className: 'th' }, input, h('label', { htmlFor: id }, name), locked && h('span', { className: 'lk' }, lockedLabel)), h('div', { id: `${id}-d`, className: 'td' }, ...details));
  return { row, input };
};

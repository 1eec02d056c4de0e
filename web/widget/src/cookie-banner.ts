import { button, dialog, h, panelOf, toggle } from './dom';
import { direction, languageSwitcher, type Context } from './context';
import { gpcOn, type CmpConfig, type CookieConsent } from './cookies';

/** The cookie banner: a first layer (accept, reject, manage) and the preferences layer, both labelled by the tenant's label sets. */
export const cookieBanner = (context: Context, config: CmpConfig, consent: CookieConsent) => {
  const { ui } = context;
  const languages = ['EN', ...config.languages.map((code) => code.toUpperCase()).filter((code) => code !== 'EN')];
  const label = context.t;
  let layer: 'first' | 'preferences' = 'first';

  const gpcNote = () => gpcOn() && h('p', { className: 's' }, label('gpcNotice'));
  const brand = () => {
    const logo = config.bannerTheme.showLogo && config.logoUrl;
    return (logo || config.brandName) && h('p', { className: 's' }, logo && h('img', { src: config.logoUrl, alt: config.brandName ?? '' }), !logo && config.brandName);
  };
  const footer = () => config.showPoweredBy && h('p', { className: 's' }, label('poweredBy'), ' DPDP Consent');

  const finish = (chosen: (category: string) => boolean) => async () => {
    const choice: Record<string, boolean> = {};
    for (const category of consent.offered) choice[category] = chosen(category);
    close();
    await consent.decide(choice);
  };

  const first = () =>
    dialog(
      'cms-c',
      context.language,
      direction(context),
      label('title'),
      languageSwitcher(context, languages, 'cms-c'),
      brand(),
      h('p', {}, label('description')),
      gpcNote(),
      h(
        'div',
        { className: 'r' },
        button(label('acceptAll'), finish(() => true), true),
        button(label('rejectAll'), finish(() => false)),
        button(label('managePreferences'), () => switchTo('preferences')),
      ),
      footer(),
    );

  const preferences = () => {
    const current = consent.state() ? consent.granted() : undefined;
    const switches: Record<string, HTMLInputElement> = {};
    const rows = ['NECESSARY', ...consent.offered].map((category) => {
      const trackers = config.trackers.filter((tracker) => tracker.category === category).map((tracker) => tracker.cookieName ?? tracker.domain);
      const { row, input } = toggle(
        `cms-k-${category}`,
        label(`category.${category}.name`),
        current ? !!current[category] : consent.initial(category),
        consent.locked(category),
        label('alwaysActive'),
        h('p', {}, label(`category.${category}.description`)),
        trackers.length > 0 && h('p', { className: 's' }, label('trackersListed'), `: ${trackers.join(', ')}`),
      );
      switches[category] = input;
      return h('li', {}, row);
    });
    const anyGranted = !!current && consent.offered.some((category) => !consent.locked(category) && current[category]);
    return dialog(
      'cms-c',
      context.language,
      direction(context),
      label('managePreferences'),
      languageSwitcher(context, languages, 'cms-c'),
      gpcNote(),
      h('ul', { 'aria-label': context.labels('title') }, ...rows),
      h(
        'div',
        { className: 'r' },
        button(label('savePreferences'), finish((category) => !!switches[category]?.checked), true),
        button(label('acceptAll'), finish(() => true)),
        button(label('rejectAll'), finish(() => false)),
        anyGranted && button(label('withdrawConsent'), finish(() => false)),
        button(label('close'), escape),
      ),
      footer(),
    );
  };

  const { close, redraw, show: open } = panelOf(ui, () => (layer === 'first' ? first() : preferences()));

  /** Escape (and Close) leave the preferences: back to the first layer while nothing is decided, else closed. */
  function escape() {
    if (consent.needsPrompt()) switchTo('first');
    else close();
  }

  const switchTo = (next: 'first' | 'preferences') => {
    layer = next;
    redraw();
  };

  const show = (preferencesLayer: boolean) => {
    layer = preferencesLayer ? 'preferences' : 'first';
    if (!open(() => layer === 'preferences' && escape())) redraw();
  };

  context.onLanguage.push(redraw);
  return { show };
};

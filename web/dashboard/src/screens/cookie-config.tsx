import { useState } from 'preact/hooks';
import { bannerPositions, defaultBannerConfig } from '../../../../shared/cmp/banner';
import { cookieCategories } from '../../../../shared/cmp/categories';
import { themeContrastFailures } from '../../../../shared/cmp/contrast';
import { languages as allLanguages, nativeNamesOf } from '../../../../shared/i18n/languages';
import { api, canWrite, session } from '../session';
import type { DataOf } from '../api';
import { ErrorText, fieldErrors } from '../ui';
import { FieldError, problemOf, type CookieData, type Draft, type PublicConfig } from './cookie-data';
import { BannerPreview } from './cookie-preview';

const draftOf = (config: PublicConfig | null): Draft => {
  const source = config ?? { ...defaultBannerConfig() };
  const { categories, defaultDeny, childDirected, bannerTheme, languages, reconsentDays, scanEnabled, scanUrls } = source;
  return { categories, defaultDeny, childDirected, bannerTheme, languages, reconsentDays, scanEnabled, scanUrls };
};

/** What the widget would read with this draft saved: the stored document (or a first one) with the draft's fields. */
const previewOf = (data: CookieData, draft: Draft): PublicConfig => ({
  tenantId: session.value!.tenantId,
  showPoweredBy: true,
  brandName: null,
  logoUrl: null,
  revision: 0,
  updatedAt: null,
  ...data.config,
  ...draft,
  trackers: data.trackers,
  labelSets: Object.fromEntries(data.labelSets.map(({ language, ...set }) => [language, set])),
  languageNames: nativeNamesOf(['en', ...draft.languages]),
});

const hex = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;
const colours = [
  ['primaryColor', 'Button colour'],
  ['backgroundColor', 'Background colour'],
  ['textColor', 'Text colour'],
] as const;

export const CookieConfig = ({ data, onSaved }: { data: CookieData; onSaved: (saved: DataOf<'saveCmpConfig'>) => void }) => {
  const [draft, setDraft] = useState(() => draftOf(data.config));
  const [scanText, setScanText] = useState(draft.scanUrls.join('\n'));
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState<DataOf<'saveCmpConfig'>>();
  const problems = fieldErrors(error);
  const writer = canWrite.value;
  const theme = draft.bannerTheme;
  const set = (change: Partial<Draft>) => {
    setSaved(undefined);
    setDraft((previous) => ({ ...previous, ...change }));
  };
  const setTheme = (change: Partial<Draft['bannerTheme']>) => set({ bannerTheme: { ...theme, ...change } });
  const contrast = [theme.primaryColor, theme.backgroundColor, theme.textColor].every((colour) => hex.test(colour)) ? themeContrastFailures(theme) : [];
  /** aria attributes of a field with a possible message from the API. */
  const described = (field: string, id: string) => (problemOf(problems, field) ? { 'aria-invalid': true, 'aria-describedby': `${id}-error` } : {});

  const save = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    setSaved(undefined);
    try {
      const scanUrls = scanText.split('\n').map((line) => line.trim()).filter(Boolean);
      // NECESSARY is fixed (always on, never a choice): only the other categories are sent.
      const { NECESSARY: _fixed, ...categories } = draft.categories;
      const result = await api.call('saveCmpConfig', { body: { ...draft, categories, scanUrls } });
      setSaved(result);
      onSaved(result);
    } catch (failure) {
      // The form keeps every value; the API's message and each field's message say what to fix.
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="config-heading">
      <h2 id="config-heading">Banner configuration</h2>
      {!data.config ? <p class="notice">Cookie consent is not set up yet: the banner appears on your site once this configuration is saved.</p> : null}
      <div class="config-layout">
        <form onSubmit={save} class="cookie-form">
          <fieldset disabled={!writer}>
            <legend>Theme</legend>
            <div class="field">
              <label for="theme-position">Position</label>
              <select id="theme-position" value={theme.position} onChange={(event) => setTheme({ position: event.currentTarget.value as Draft['bannerTheme']['position'] })}>
                {bannerPositions.map((position) => (
                  <option key={position} value={position}>
                    {position.replace('-', ' ')}
                  </option>
                ))}
              </select>
            </div>
            {colours.map(([key, label]) => (
              <div class="field" key={key}>
                <label for={`theme-${key}`}>{label}</label>
                <span class="colour">
                  <input id={`theme-${key}`} value={theme[key]} {...described(`bannerTheme.${key}`, `theme-${key}`)} onInput={(event) => setTheme({ [key]: event.currentTarget.value.trim() })} />
                  <span class="swatch" aria-hidden="true" style={{ background: hex.test(theme[key]) ? theme[key] : 'transparent' }} />
                </span>
                <FieldError id={`theme-${key}-error`} message={problemOf(problems, `bannerTheme.${key}`)} />
              </div>
            ))}
            {contrast.length ? (
              <p class="warning" role="status">
                {contrast.map((failure) => `${failure.pair} is ${failure.ratio.toFixed(2)}:1`).join('; ')}, below 4.5:1: the banner will show its default colours instead.
              </p>
            ) : null}
            <div class="field">
              <label for="theme-radius">Corner radius (0 to 48 px)</label>
              <input id="theme-radius" type="number" min={0} max={48} value={theme.borderRadius} {...described('bannerTheme.borderRadius', 'theme-radius')} onInput={(event) => setTheme({ borderRadius: event.currentTarget.valueAsNumber })} />
              <FieldError id="theme-radius-error" message={problemOf(problems, 'bannerTheme.borderRadius')} />
            </div>
            <div class="field check">
              <input id="theme-logo" type="checkbox" checked={theme.showLogo} onChange={(event) => setTheme({ showLogo: event.currentTarget.checked })} />
              <label for="theme-logo">Show logo</label>
            </div>
          </fieldset>
          <fieldset disabled={!writer}>
            <legend>Categories</legend>
            <FieldError id="categories-error" message={problemOf(problems, 'categories')} />
            <table>
              <thead>
                <tr>
                  <th scope="col">Category</th>
                  <th scope="col">Offered</th>
                  <th scope="col">Visitor chooses</th>
                </tr>
              </thead>
              <tbody>
                {cookieCategories.map((category) => {
                  const setting = draft.categories[category];
                  const fixed = category === 'NECESSARY';
                  const name = category.charAt(0) + category.slice(1).toLowerCase();
                  const setCategory = (change: Partial<typeof setting>) => set({ categories: { ...draft.categories, [category]: { ...setting, ...change } } });
                  return (
                    <tr key={category}>
                      <th scope="row">{name}</th>
                      <td>
                        <input type="checkbox" aria-label={`${name} offered`} checked={setting.enabled} disabled={fixed} onChange={(event) => setCategory({ enabled: event.currentTarget.checked })} />
                      </td>
                      <td>
                        <input type="checkbox" aria-label={`${name}: visitor chooses`} checked={setting.toggleable} disabled={fixed} onChange={(event) => setCategory({ toggleable: event.currentTarget.checked })} />
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
            <div class="field check">
              <input id="default-deny" type="checkbox" checked={draft.defaultDeny} onChange={(event) => set({ defaultDeny: event.currentTarget.checked })} />
              <label for="default-deny">Optional categories start off (default deny)</label>
            </div>
            <div class="field check">
              <input id="child-directed" type="checkbox" checked={draft.childDirected} onChange={(event) => set({ childDirected: event.currentTarget.checked })} />
              <label for="child-directed">Child-directed site (Analytics and Marketing may not be offered)</label>
            </div>
          </fieldset>
          <fieldset disabled={!writer}>
            <legend>Languages and re-consent</legend>
            <fieldset class="languages" aria-describedby={problemOf(problems, 'languages') ? 'languages-error' : undefined}>
              <legend>Banner languages</legend>
              {allLanguages.map(({ iso, name }) => (
                <label key={iso} class="check">
                  <input
                    type="checkbox"
                    checked={draft.languages.includes(iso)}
                    onChange={(event) => set({ languages: event.currentTarget.checked ? [...draft.languages, iso] : draft.languages.filter((code) => code !== iso) })}
                  />{' '}
                  {name}
                </label>
              ))}
              <FieldError id="languages-error" message={problemOf(problems, 'languages')} />
            </fieldset>
            <div class="field">
              <label for="reconsent-days">Ask again after (days, 30 to 730)</label>
              <input id="reconsent-days" type="number" min={30} max={730} value={draft.reconsentDays} {...described('reconsentDays', 'reconsent-days')} onInput={(event) => set({ reconsentDays: event.currentTarget.valueAsNumber })} />
              <FieldError id="reconsent-days-error" message={problemOf(problems, 'reconsentDays')} />
            </div>
          </fieldset>
          <fieldset disabled={!writer}>
            <legend>Tracker scanning</legend>
            <div class="field">
              <label for="scan-urls">Scan URLs (one per line, up to 5)</label>
              <textarea id="scan-urls" rows={3} value={scanText} {...described('scanUrls', 'scan-urls')} onInput={(event) => {
                  setSaved(undefined);
                  setScanText(event.currentTarget.value);
                }} />
              <span class="hint">Without any, scans start from your organisation's website.</span>
              <FieldError id="scan-urls-error" message={problemOf(problems, 'scanUrls')} />
            </div>
            <div class="field check">
              <input id="scan-enabled" type="checkbox" checked={draft.scanEnabled} onChange={(event) => set({ scanEnabled: event.currentTarget.checked })} />
              <label for="scan-enabled">Scan automatically every 30 days</label>
            </div>
          </fieldset>
          <ErrorText error={error} />
          {writer ? (
            <button type="submit" disabled={busy}>
              Save configuration
            </button>
          ) : (
            <p class="muted">Your role can view the configuration; a DPO changes it.</p>
          )}
          {saved ? (
            <p class="result ok" role="status">
              <strong>Saved</strong> (revision {saved.revision}).
              {saved.themeContrast.failures.length ? ' The theme fails the contrast check, so the banner shows its default colours.' : ''}
            </p>
          ) : null}
        </form>
        <BannerPreview config={previewOf(data, draft)} languages={draft.languages} />
      </div>
    </section>
  );
};

import { useEffect, useRef, useState } from 'preact/hooks';
import { widgetBootstrapOf } from '../../../../shared/widget/bootstrap-shape';
import type { PublicConfig } from './cookie-data';

/**
 * The real widget (cms.js) showing the configuration being edited, before it is saved: a frame of
 * the widget's preview page (web/widget/public/preview.js), which runs cms.js against the
 * bootstraps made from it and posted there, and answers the widget's calls itself, so nothing a click does there
 * is recorded. The frame is sandboxed with scripts only: an opaque origin with no access to this
 * page, its storage or its session, no forms, popups or navigation of the dashboard.
 */
export const BannerPreview = ({ config, languages }: { config: PublicConfig; languages: string[] }) => {
  const [language, setLanguage] = useState('');
  const chosen = languages.includes(language) ? language : (languages[0] ?? 'en');
  // What GET /widget/bootstrap would answer in each language the banner offers, made by the server's own function.
  const bootstraps = Object.fromEntries(['EN', ...config.languages.map((code) => code.toUpperCase())].map((code) => [code, widgetBootstrapOf({ cmp: config }, code)]));
  const payload = JSON.stringify({ type: 'cms-preview', tenantId: config.tenantId, bootstraps, language: chosen.toUpperCase() });
  // A new frame per change (the widget boots once per page), a moment after typing stops.
  const [shown, setShown] = useState({ payload, generation: 0 });
  useEffect(() => {
    if (payload === shown.payload) return;
    const timer = setTimeout(() => setShown((previous) => ({ payload, generation: previous.generation + 1 })), 300);
    return () => clearTimeout(timer);
  }, [payload]);
  const frame = useRef<HTMLIFrameElement>(null);
  useEffect(() => {
    const listen = (event: MessageEvent) => {
      if (event.source !== frame.current?.contentWindow || (event.data as { type?: string } | null)?.type !== 'cms-preview-ready') return;
      // The sandboxed frame's origin is opaque ("null"), so no origin can be named; the configuration is public data anyway.
      frame.current?.contentWindow?.postMessage(JSON.parse(shown.payload), '*');
    };
    addEventListener('message', listen);
    return () => removeEventListener('message', listen);
  }, [shown]);
  return (
    <section aria-labelledby="preview-heading" class="panel banner-preview">
      <h3 id="preview-heading">Live preview</h3>
      <p class="muted">The real banner with the settings above, saved or not. Choices made in the preview are not recorded.</p>
      {languages.length > 1 ? (
        <div class="field inline">
          <label for="preview-language">Preview language</label>
          <select id="preview-language" value={chosen} onChange={(event) => setLanguage(event.currentTarget.value)}>
            {languages.map((code) => (
              <option key={code} value={code}>
                {code}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      <iframe key={shown.generation} ref={frame} title="Cookie banner preview" src="/widget/preview" sandbox="allow-scripts" class="preview-frame" />
    </section>
  );
};

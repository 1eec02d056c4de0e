import { useEffect, useRef, useState } from 'preact/hooks';
import { ErrorText, Loading, useAction } from '../ui';
import { saveFile } from './files';

/**
 * The service's documents (the Board filings, an evidence pack, an access summary) in the
 * dashboard: the very page the API renders (shared/documents/render.ts), shown inside a shadow
 * root so its stylesheet and the dashboard's never meet, and saved as that page or as its PDF.
 *
 * The page's own stylesheet arrives in a <style> element, which the dashboard's policy (no inline
 * style) would refuse; it is adopted as a constructed stylesheet instead, which the policy does
 * not govern. Nothing in the page runs: it has no script, and a parsed document never runs one.
 */
export const DocumentPreview = ({ load, label }: { load: () => Promise<Response>; label: string }) => {
  const host = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<{ loading: boolean; error?: unknown }>({ loading: true });
  useEffect(() => {
    let live = true;
    void (async () => {
      try {
        const page = new DOMParser().parseFromString(await (await load()).text(), 'text/html');
        if (!live || !host.current) return;
        const root = host.current.shadowRoot ?? host.current.attachShadow({ mode: 'open' });
        const sheet = new CSSStyleSheet();
        sheet.replaceSync(page.querySelector('style')?.textContent ?? '');
        root.adoptedStyleSheets = [sheet];
        page.querySelectorAll('script, style').forEach((element) => element.remove());
        // The page's <main> becomes an article named for the preview: the dashboard has its own main landmark.
        const article = document.createElement('article');
        article.setAttribute('aria-label', label);
        article.append(...Array.from(page.querySelector('main')?.childNodes ?? []).map((node) => document.importNode(node, true)));
        root.replaceChildren(article);
        setState({ loading: false });
      } catch (error) {
        if (live) setState({ loading: false, error });
      }
    })();
    return () => {
      live = false;
    };
  }, []);
  return (
    <>
      {state.loading ? <Loading what="the document" /> : null}
      <ErrorText error={state.error} />
      <div ref={host} class="document-preview" />
    </>
  );
};

/** Saving a document as a person keeps it: the page (its own styles, opens in any browser) or the PDF (what a filing attaches). */
export const DocumentDownloads = ({ fetchAs, name, id }: { fetchAs: (format: 'html' | 'pdf') => Promise<Response>; name: string; id: string }) => {
  const { busy, error, run } = useAction();
  const [said, setSaid] = useState('');
  const save = (format: 'html' | 'pdf') =>
    run(async () => {
      setSaid('');
      const file = `${name}.${format}`;
      saveFile(file, await (await fetchAs(format)).blob());
      setSaid(`Saved ${file}.`);
    });
  return (
    <div>
      <div class="actions">
        <button type="button" class="secondary" disabled={busy} aria-describedby={`${id}-said`} onClick={() => save('pdf')}>
          Save as PDF
        </button>
        <button type="button" class="secondary" disabled={busy} aria-describedby={`${id}-said`} onClick={() => save('html')}>
          Save as a web page
        </button>
      </div>
      <p id={`${id}-said`} role="status" class="muted">
        {busy ? 'Preparing the document…' : said}
      </p>
      <ErrorText error={error} />
    </div>
  );
};

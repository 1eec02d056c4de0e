import { useState } from 'preact/hooks';
import { api } from '../session';
import { ErrorText, Heading, Link, Loading, useData } from '../ui';
import { CookieAnalytics } from './cookie-analytics';
import { CookieConfig } from './cookie-config';
import { loadCookieData, type CookieData } from './cookie-data';
import { ScanRuns } from './cookie-scans';
import { TrackerRegistry } from './cookie-trackers';

/** The cookie banner's configuration with its live preview, analytics, tracker registry and scans; its words are on "Words people see". */
export default function CookieConsent() {
  const loaded = useData(loadCookieData);
  // Changes made here replace parts of what was loaded, so the preview follows them at once.
  const [changes, setChanges] = useState<Partial<CookieData>>({});
  const [reloadError, setReloadError] = useState<unknown>();
  const base = loaded.data;
  const reloadTrackers = () => api.call('listCmpTrackers').then((trackers) => setChanges((previous) => ({ ...previous, trackers })), setReloadError);
  return (
    <>
      <Heading title="Cookie consent">Cookie consent</Heading>
      {loaded.loading && !base ? <Loading what="cookie consent" /> : null}
      <ErrorText error={loaded.error ?? reloadError} />
      {base === 'not-on-plan' ? (
        <p class="notice">
          Cookie consent is not on your organisation's plan: a collect-only plan records consent to notices but has no cookie banner, tracker scanner or cookie analytics.
          The standard plan includes them.
        </p>
      ) : null}
      {base && base !== 'not-on-plan'
        ? (() => {
            const data = { ...base, ...changes };
            return (
              <>
                <CookieConfig data={data} onSaved={(saved) => setChanges((previous) => ({ ...previous, config: { ...data.config!, ...saved } }))} />
                <CookieAnalytics />
                <TrackerRegistry trackers={data.trackers} onChanged={(trackers) => setChanges((previous) => ({ ...previous, trackers }))} />
                <ScanRuns onFinished={reloadTrackers} />
                <section aria-labelledby="banner-words-heading">
                  <h2 id="banner-words-heading">The banner's words</h2>
                  <p>
                    The banner's words, in every language, are kept with the other words people read (the notice banner, the withdrawal and rights pages, the mails):{' '}
                    <Link to="/words">Words people see</Link>.
                  </p>
                </section>
              </>
            );
          })()
        : null}
    </>
  );
}

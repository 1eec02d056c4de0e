import { useState } from 'preact/hooks';
import { api } from '../session';
import { ErrorText, Heading, Loading, useData } from '../ui';
import { CookieAnalytics } from './cookie-analytics';
import { CookieConfig } from './cookie-config';
import { loadCookieData, type CookieData } from './cookie-data';
import { ScanRuns } from './cookie-scans';
import { TrackerRegistry } from './cookie-trackers';
import { Translations } from './cookie-translations';

/** The cookie banner's configuration with its live preview, analytics, tracker registry, scans and label translations. */
export default function CookieConsent() {
  const loaded = useData(loadCookieData);
  // Changes made here replace parts of what was loaded, so the preview follows them at once.
  const [changes, setChanges] = useState<Partial<CookieData>>({});
  const [labelError, setLabelError] = useState<unknown>();
  const base = loaded.data;
  const reloadLabels = () =>
    api.call('listCmpTranslations').then(
      (labelSets) => setChanges((previous) => ({ ...previous, labelSets })),
      (error: unknown) => setLabelError(error),
    );
  const reloadTrackers = () => api.call('listCmpTrackers').then((trackers) => setChanges((previous) => ({ ...previous, trackers })), setLabelError);
  return (
    <>
      <Heading title="Cookie consent">Cookie consent</Heading>
      {loaded.loading && !base ? <Loading what="cookie consent" /> : null}
      <ErrorText error={loaded.error ?? labelError} />
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
                <Translations labelSets={data.labelSets} configured={data.config?.languages ?? ['en']} onChanged={reloadLabels} />
              </>
            );
          })()
        : null}
    </>
  );
}

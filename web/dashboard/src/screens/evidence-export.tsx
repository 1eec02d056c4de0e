import { useState } from 'preact/hooks';
import { api, canAudit } from '../session';
import { ErrorText, useAction } from '../ui';
import { saveFile } from './files';

/** Whose pack: the principal's identifier as typed (hashed by the API) or the hash a record holds. */
export type PackPrincipal = { dataPrincipalIdentifier: string } | { principalHash: string };

/**
 * "Export evidence": one principal's evidence pack, for a regulator, as the JSON file
 * scripts/verify-evidence-pack.mjs checks offline, or as the same pack as a document (a PDF, or the
 * page it is printed from, which embeds the JSON). Shown
 * only to the roles that may export it (DPO, SUPER_ADMIN); the API refuses the others anyway.
 */
export const EvidenceExport = ({ principal, id }: { principal: PackPrincipal; id: string }) => {
  const { busy, error, run } = useAction();
  const [said, setSaid] = useState('');
  if (!canAudit.value) return null;

  const exportJson = () =>
    run(async () => {
      setSaid('');
      const { pack } = await api.call('createEvidencePack', { body: principal, query: { format: 'json' } });
      const file = `evidence-pack-${pack.principalHash.slice(0, 12)}.json`;
      saveFile(file, new Blob([JSON.stringify(pack, null, 2)], { type: 'application/json' }));
      setSaid(`Saved ${file}: ${pack.records.length} record(s) and ${pack.withdrawals.length} withdrawal(s).`);
    });

  const exportDocument = (format: 'html' | 'pdf') =>
    run(async () => {
      setSaid('');
      const response = format === 'pdf' ? await api.file('printEvidencePack', { body: principal }) : await api.file('createEvidencePack', { body: principal, query: { format } });
      const file = /filename="([\w.-]+)"/.exec(response.headers.get('Content-Disposition') ?? '')?.[1] ?? `evidence-pack.${format}`;
      saveFile(file, await response.blob());
      setSaid(format === 'pdf' ? `Saved ${file}: the pack as a document, to attach or print.` : `Saved ${file}: open it in a browser to read or print it.`);
    });

  return (
    <section aria-labelledby={`${id}-heading`} class="panel">
      <h2 id={`${id}-heading`}>Evidence pack</h2>
      <p>
        Everything about this person in one file a regulator can check without trusting this service: each consent with its proof, the notice text exactly as shown, each
        withdrawal, their places in the signed log and the public keys, signed as a whole by the log's key. Check it with{' '}
        <code>node scripts/verify-evidence-pack.mjs pack.json keys.json</code>, with the keys fetched from <code>/api/v1/consent/log/keys</code>.
      </p>
      <div class="actions">
        <button type="button" onClick={exportJson} disabled={busy} aria-describedby={`${id}-said`}>
          Export evidence
        </button>
        <button type="button" class="secondary" onClick={() => exportDocument('pdf')} disabled={busy} aria-describedby={`${id}-said`}>
          Document (PDF)
        </button>
        <button type="button" class="secondary" onClick={() => exportDocument('html')} disabled={busy} aria-describedby={`${id}-said`}>
          Printable page (HTML)
        </button>
      </div>
      <p id={`${id}-said`} role="status" class="muted">
        {busy ? 'Preparing the pack…' : said}
      </p>
      <ErrorText error={error} />
    </section>
  );
};

import { useState } from 'preact/hooks';
import { api, canWrite, session } from '../session';
import type { DataOf } from '../api';
import { CopyButton, Dialog, ErrorText, Heading, Loading, fieldErrors, formatDate, formatDateTime, useData } from '../ui';

type Key = DataOf<'listApiKeys'>[number];

/** The widget's embed tag (docs/widget.md), for this origin, key and tenant. */
export const embedSnippet = (apiKey: string, tenantId: string) =>
  `<script src="${location.origin}/widget/v1/cms.js" data-api-key="${apiKey}" data-tenant-id="${tenantId}" data-api-base="${location.origin}/api/v1" async></script>`;

const Snippet = ({ apiKey, id }: { apiKey: string; id: string }) => {
  const text = embedSnippet(apiKey, session.value!.tenantId);
  return (
    <div class="snippet">
      <label for={id}>Embed snippet</label>
      <textarea id={id} readOnly rows={3} value={text} />
      <CopyButton text={text} label="Copy snippet" />
    </div>
  );
};

const Domains = ({ keyId, revoked }: { keyId: string; revoked: boolean }) => {
  const domains = useData(() => api.call('listDomains', { params: { keyId } }), [keyId]);
  const [domain, setDomain] = useState('');
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const problems = fieldErrors(error);
  const inputId = `domain-${keyId}`;
  return (
    <div class="domains">
      <h3 id={`domains-${keyId}`}>Allowed domains</h3>
      <ErrorText error={domains.error} />
      {domains.data && domains.data.length === 0 ? <p class="muted">Any domain (none listed). Once one is listed, browser calls with this key must come from a listed host.</p> : null}
      {domains.data && domains.data.length > 0 ? (
        <ul aria-labelledby={`domains-${keyId}`}>
          {domains.data.map((item) => (
            <li key={item.id}>
              <code>{item.domain}</code>
              {canWrite.value && !revoked ? (
                <button
                  type="button"
                  class="link"
                  onClick={async () => {
                    setError(undefined);
                    try {
                      await api.call('removeDomain', { params: { keyId, domainId: item.id } });
                      domains.reload();
                    } catch (failure) {
                      setError(failure);
                    }
                  }}
                >
                  Remove<span class="visually-hidden"> {item.domain}</span>
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      {canWrite.value && !revoked ? (
        <form
          class="inline-form"
          onSubmit={async (event) => {
            event.preventDefault();
            setBusy(true);
            setError(undefined);
            try {
              await api.call('addDomain', { params: { keyId }, body: { domain: domain.trim() } });
              setDomain('');
              domains.reload();
            } catch (failure) {
              setError(failure);
            } finally {
              setBusy(false);
            }
          }}
        >
          <div class="field">
            <label for={inputId}>Domain to allow</label>
            <input
              id={inputId}
              value={domain}
              placeholder="shop.example.com"
              aria-invalid={problems.domain ? true : undefined}
              aria-describedby={error ? `${inputId}-error` : undefined}
              onInput={(event) => setDomain(event.currentTarget.value)}
            />
          </div>
          <button type="submit" class="secondary" disabled={busy}>
            Add domain
          </button>
          <ErrorText error={error} id={`${inputId}-error`} />
        </form>
      ) : null}
    </div>
  );
};

const kindNames = { publishable: 'Publishable', secret: 'Secret' } as const;

const KeyCard = ({ apiKey, onRevoked }: { apiKey: Key; onRevoked: () => void }) => {
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<unknown>();
  const revoked = apiKey.revokedAt !== null;
  return (
    <li class="card">
      <h2>
        <code>{apiKey.maskedKey}</code>
        <span class="badge">{kindNames[apiKey.kind]}</span>
        {revoked ? <span class="badge withdrawn">Revoked</span> : <span class="badge active">Active</span>}
      </h2>
      <p class="muted">
        Created {formatDate(apiKey.createdAt)}
        {revoked ? `, revoked ${formatDateTime(apiKey.revokedAt)}` : ''}
      </p>
      {apiKey.kind === 'secret' ? (
        <p class="muted">For your servers only: refused from any browser, so it has no allowed domains.</p>
      ) : (
        <Domains keyId={apiKey.keyId} revoked={revoked} />
      )}
      {canWrite.value && !revoked ? (
        <button type="button" class="danger" onClick={() => setConfirming(true)}>
          Revoke<span class="visually-hidden"> key {apiKey.maskedKey}</span>
        </button>
      ) : null}
      <ErrorText error={error} />
      {confirming ? (
        <Dialog title="Revoke this key?" onClose={() => setConfirming(false)}>
          <p>
            Every site and server using <code>{apiKey.maskedKey}</code> is refused from the next request on. This cannot be undone.
          </p>
          <div class="actions">
            <button
              type="button"
              class="danger"
              onClick={async () => {
                try {
                  await api.call('revokeApiKey', { params: { keyId: apiKey.keyId } });
                  setConfirming(false);
                  onRevoked();
                } catch (failure) {
                  setConfirming(false);
                  setError(failure);
                }
              }}
            >
              Revoke key
            </button>
            <button type="button" class="secondary" onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </div>
        </Dialog>
      ) : null}
    </li>
  );
};

/** A new key, shown the one time it is shown, with what it is for: a secret key is never for a page. */
const NewKey = ({ created, onClose, opener }: { created: DataOf<'createApiKey'>; onClose: () => void; opener: HTMLElement | null }) => {
  const secret = created.kind === 'secret';
  return (
    <Dialog title={secret ? 'Your new secret key' : 'Your new API key'} onClose={onClose} opener={opener}>
      <p>Copy it now: it is not shown again.</p>
      {secret ? (
        <p class="notice">
          Keep it on your servers. Never put it in a web page, an app or a repository: anyone holding it can record consent in any person's name. A request
          that carries it from a browser is refused.
        </p>
      ) : null}
      <p>
        <label for="new-key">{secret ? 'Secret key' : 'API key'}</label>
        <input id="new-key" readOnly value={created.apiKey} class="wide" />
      </p>
      <CopyButton text={created.apiKey} label="Copy key" />
      {secret ? (
        <p>
          Your server sends it with <code>identifier</code> to record consent for a person it knows, and signs the hash the widget sends when it serves the page:
          the lower-case hex HMAC-SHA256 of <code>&lt;identifierHash&gt;.&lt;identifierSignedAt&gt;</code> (the time of signing, in Unix seconds), keyed with this
          key, passed to <code>cms.identify(&#123; identifierHash, identifierSignature, identifierSignedAt &#125;)</code>. Those records are marked verified; a
          signature is accepted for 15 minutes either side of its time.
        </p>
      ) : (
        <Snippet apiKey={created.apiKey} id="new-key-snippet" />
      )}
      <div class="actions">
        <button type="button" onClick={onClose}>
          Done
        </button>
      </div>
    </Dialog>
  );
};

export default function ApiKeys() {
  const keys = useData(() => api.call('listApiKeys'));
  const [created, setCreated] = useState<DataOf<'createApiKey'>>();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const [opener, setOpener] = useState<HTMLButtonElement | null>(null);
  const create = async (kind: 'publishable' | 'secret', button: HTMLButtonElement) => {
    setBusy(true);
    setError(undefined);
    setOpener(button);
    try {
      setCreated(await api.call('createApiKey', { body: { kind } }));
      keys.reload();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Heading title="API keys">API keys</Heading>
      <p>
        Keys let the widget on your site and your servers call the service. A key is shown once, when it is created; the service stores only its hash. A{' '}
        <strong>publishable</strong> key goes in your pages, with the widget. A <strong>secret</strong> key stays on your servers: it records consent for a
        person your server names, and signs the identity the widget sends.
      </p>
      {canWrite.value ? (
        <p class="actions">
          <button type="button" disabled={busy} onClick={(event) => void create('publishable', event.currentTarget)}>
            Create publishable key
          </button>
          <button type="button" class="secondary" disabled={busy} onClick={(event) => void create('secret', event.currentTarget)}>
            Create secret key
          </button>
        </p>
      ) : null}
      <ErrorText error={error ?? keys.error} />
      {created ? <NewKey created={created} onClose={() => setCreated(undefined)} opener={opener} /> : null}
      {keys.loading && !keys.data ? <Loading what="keys" /> : null}
      {keys.data && keys.data.length === 0 ? <p>No API keys yet.</p> : null}
      {keys.data && keys.data.length > 0 ? (
        <ul class="cards">
          {keys.data.map((key) => (
            <KeyCard key={key.keyId} apiKey={key} onRevoked={keys.reload} />
          ))}
        </ul>
      ) : null}
      <section aria-labelledby="embed-heading" class="panel">
        <h2 id="embed-heading">Embedding the widget</h2>
        <p>Put this tag on every page of your site, with one of your publishable keys in place of the masked one (a new key's dialog shows it filled in).</p>
        <Snippet apiKey={keys.data?.find((key) => key.revokedAt === null && key.kind === 'publishable')?.maskedKey ?? 'cms_…'} id="embed-snippet" />
      </section>
    </>
  );
}

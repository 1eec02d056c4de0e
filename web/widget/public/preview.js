/* global window, document, location, parent, Response */
/**
 * The dashboard's live preview of the cookie banner (/widget/preview): the real cms.js, unchanged,
 * given a configuration that is not saved yet. The dashboard frames this page in a sandbox
 * without allow-same-origin and posts it { type: 'cms-preview', tenantId, bootstraps, language }
 * once the page says it is ready: the widget's bootstrap in each language the banner offers, made
 * from the configuration by the server's own function (shared/widget/bootstrap-shape.ts). Only a
 * message from the parent frame on this page's own origin is taken, and only the first (the
 * dashboard reloads the frame for every change). The widget's calls never reach the service: its
 * bootstrap is answered from the message and a decision is answered locally, so a click in the
 * preview is no visitor's consent and never enters the tenant's consent log or analytics. The
 * page's policy (connect-src 'none') refuses anything else.
 */
(function () {
  'use strict';
  var preview;
  var jar = {};

  // A sandboxed (opaque-origin) document may not touch cookies; the widget's choice cookie lives in memory for this page.
  Object.defineProperty(document, 'cookie', {
    configurable: true,
    get: function () {
      return Object.keys(jar)
        .map(function (name) {
          return name + '=' + jar[name];
        })
        .join('; ');
    },
    set: function (value) {
      var parts = String(value).split(';');
      var pair = parts[0].split('=');
      var name = pair.shift().trim();
      if (/max-age=0\b/i.test(value)) delete jar[name];
      else jar[name] = pair.join('=');
    },
  });

  // The banner takes the focus when it opens, as it should on a site; here it opens again at every
  // change in the dashboard and would take the focus from the field being typed in. So it may move
  // the focus only while this frame already has it.
  var focus = window.HTMLElement.prototype.focus;
  window.HTMLElement.prototype.focus = function (options) {
    if (document.hasFocus()) focus.call(this, options);
  };

  var reply = function (status, body) {
    return Promise.resolve(new Response(JSON.stringify(body), { status: status, headers: { 'Content-Type': 'application/json' } }));
  };

  window.fetch = function (input, init) {
    var url = String(input && input.url ? input.url : input);
    var method = ((init && init.method) || 'GET').toUpperCase();
    var language = /\/widget\/bootstrap\?/.test(url) && new URL(url).searchParams.get('language');
    if (method === 'GET' && preview && language && Object.prototype.hasOwnProperty.call(preview.bootstraps, language)) return reply(200, { data: preview.bootstraps[language] });
    if (method === 'POST' && /\/cmp\/web-event$/.test(url)) return reply(201, { data: { recorded: true, consentRecordId: '00000000-0000-4000-8000-000000000000' } });
    return reply(404, { error: { code: 'NOT_FOUND', message: 'Not part of the preview' } });
  };

  window.addEventListener('message', function (event) {
    var data = event.data;
    if (preview || event.source !== parent || event.origin !== location.origin) return;
    if (!data || data.type !== 'cms-preview' || !data.bootstraps || typeof data.bootstraps !== 'object') return;
    preview = data;
    var tag = document.createElement('script');
    tag.src = '/widget/v1/cms.js';
    tag.async = true;
    tag.dataset.apiKey = 'preview';
    tag.dataset.tenantId = String(data.tenantId || '00000000-0000-4000-8000-000000000000');
    tag.dataset.apiBase = location.origin + '/api/v1';
    tag.dataset.notice = 'off';
    if (typeof data.language === 'string') tag.dataset.language = data.language;
    document.head.appendChild(tag);
  });

  // location.origin is this page's address's origin even in the sandbox: the dashboard, which framed it.
  parent.postMessage({ type: 'cms-preview-ready' }, location.origin);
})();

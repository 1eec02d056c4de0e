/* global window, document, location, URLSearchParams */
// The tag exactly as a tenant would paste it, built from the address so no key is stored in this
// file. A file of its own, not an inline script: the page's policy allows only this origin's scripts.
(function () {
  'use strict';
  var params = new URLSearchParams(location.hash.slice(1));
  var tag = document.createElement('script');
  tag.src = location.origin + '/widget/v1/cms.js';
  tag.async = true;
  tag.dataset.apiKey = params.get('apiKey') || '';
  tag.dataset.tenantId = params.get('tenantId') || '';
  tag.dataset.apiBase = location.origin + '/api/v1';
  document.head.appendChild(tag);
  ['cms:ready', 'cms:consent', 'cms:change', 'cms:withdraw'].forEach(function (name) {
    window.addEventListener(name, function () {
      document.getElementById('status').textContent = 'Consent on file (' + name + '): ' + JSON.stringify(window.cms.getConsent());
    });
  });
})();

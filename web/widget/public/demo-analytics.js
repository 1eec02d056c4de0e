/* global document */
// Stands for a tenant's analytics tag: the banner's prior blocking loads it only once ANALYTICS is granted.
document.getElementById('analytics').textContent = 'Analytics tag: running (ANALYTICS granted).';

// The report's only script, inlined and pinned by hash in the page's CSP. It enhances a page
// that is complete without it: filtering the case table (by outcome, or to a matrix cell's
// cases), copying a reproduction command, and opening a failure when the URL hash points at it. Results data
// is never placed in here; it is read from escaped data attributes.
export const REPORT_SCRIPT = `
(function () {
  'use strict';
  var rows = Array.prototype.slice.call(document.querySelectorAll('table.cases tr[data-index]'));
  var state = { outcome: '', cases: null, label: '' };
  var filters = document.querySelector('[data-testid="filters"]');
  var cellFilter = document.querySelector('[data-testid="cell-filter"]');
  var noMatch = document.querySelector('[data-testid="no-match"]');

  function apply() {
    var shown = 0;
    rows.forEach(function (row) {
      var visible = (!state.outcome || row.getAttribute('data-outcome') === state.outcome) &&
        (!state.cases || state.cases.indexOf(row.getAttribute('data-index')) >= 0);
      row.hidden = !visible;
      if (visible) shown++;
    });
    document.querySelectorAll('.filters [data-filter-outcome]').forEach(function (b) {
      b.setAttribute('aria-pressed', String(b.getAttribute('data-filter-outcome') === state.outcome));
    });
    cellFilter.hidden = !state.cases;
    cellFilter.querySelector('.cell-filter-label').textContent = state.label;
    noMatch.hidden = shown > 0;
  }

  function openDetails(hash) {
    var target = hash && document.getElementById(decodeURIComponent(hash.slice(1)));
    if (target && target.tagName === 'DETAILS') target.open = true;
  }
  function openFromHash() { openDetails(location.hash); }

  function copy(button) {
    var source = document.getElementById(button.getAttribute('data-copy-target'));
    var text = source.textContent;
    function done(label) {
      button.textContent = label;
      setTimeout(function () { button.textContent = 'Copy'; }, 1600);
    }
    function selectForManualCopy() {
      var range = document.createRange();
      range.selectNodeContents(source);
      var selection = window.getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
      done('Press Ctrl+C');
    }
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).then(function () { done('Copied'); }, selectForManualCopy);
    } else {
      selectForManualCopy();
    }
  }

  document.addEventListener('click', function (event) {
    var el = event.target.closest('[data-filter-outcome], [data-filter-cases], [data-clear-cases], [data-copy-target], a[href^="#failure-"]');
    if (!el) return;
    // Following the same hash twice fires no hashchange, so open the failure here too.
    if (el.matches('a[href^="#failure-"]')) { openDetails(el.getAttribute('href')); return; }
    if (el.hasAttribute('data-copy-target')) { copy(el); return; }
    if (el.hasAttribute('data-clear-cases')) { state.cases = null; state.label = ''; apply(); return; }
    if (el.hasAttribute('data-filter-cases')) {
      state.cases = el.getAttribute('data-filter-cases').split(' ');
      state.label = el.getAttribute('data-filter-label');
      state.outcome = '';
    } else {
      state.outcome = el.getAttribute('data-filter-outcome');
    }
    apply();
  });

  window.addEventListener('hashchange', openFromHash);
  openFromHash();
  filters.hidden = false;
  document.querySelectorAll('[data-copy-target]').forEach(function (b) { b.hidden = false; });
})();
`;

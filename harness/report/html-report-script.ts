// The report's only script, inlined and pinned by hash in the page's CSP. It enhances a page
// that is complete without it: a search over the cases and the requirements, filtering the case
// table (by outcome, or to a matrix cell's cases) and the requirement table (by status and
// level), copying a reproduction command, and opening a failure when the URL hash points at it.
// Results data is never placed in here; it is read from escaped data attributes and the rows' text.
//
// Decision: the search matches each row's own text (a case's id, title, role, endpoints and
// message; a requirement's id, level, basis, status, spec text, source and cases), case-blind,
// every word of the query somewhere in the row; it narrows both tables at once, on top of
// their filters.
export const REPORT_SCRIPT = `
(function () {
  'use strict';
  var rows = Array.prototype.slice.call(document.querySelectorAll('table.cases tr[data-index]'));
  var requirementRows = Array.prototype.slice.call(document.querySelectorAll('table.requirements tr[data-requirement]'));
  var state = { outcome: '', cases: null, label: '', words: [], status: '', level: '' };
  var filters = document.querySelector('[data-testid="filters"]');
  var requirementFilters = document.querySelector('[data-testid="requirement-filters"]');
  var search = document.querySelector('[data-testid="search"]');
  var searchInput = search.querySelector('input');
  var cellFilter = document.querySelector('[data-testid="cell-filter"]');
  var noMatch = document.querySelector('[data-testid="no-match"]');
  var noRequirementMatch = document.querySelector('[data-testid="no-requirement-match"]');
  var searchCount = document.querySelector('[data-testid="search-count"]');
  // Each row's text, once: what the search matches.
  function textOf(row) { return row.textContent.replace(/\\s+/g, ' ').toLowerCase(); }
  rows.concat(requirementRows).forEach(function (row) { row.searchText = textOf(row); });

  function matches(row) {
    return state.words.every(function (word) { return row.searchText.indexOf(word) >= 0; });
  }
  function press(selector, attribute, value) {
    document.querySelectorAll(selector).forEach(function (b) {
      b.setAttribute('aria-pressed', String(b.getAttribute(attribute) === value));
    });
  }

  function apply() {
    var shown = 0;
    rows.forEach(function (row) {
      var visible = (!state.outcome || row.getAttribute('data-outcome') === state.outcome) &&
        (!state.cases || state.cases.indexOf(row.getAttribute('data-index')) >= 0) && matches(row);
      row.hidden = !visible;
      if (visible) shown++;
    });
    var requirementsShown = 0;
    requirementRows.forEach(function (row) {
      var visible = (!state.status || row.getAttribute('data-status') === state.status) &&
        (!state.level || row.getAttribute('data-level') === state.level) && matches(row);
      row.hidden = !visible;
      if (visible) requirementsShown++;
    });
    press('.filters [data-filter-outcome]', 'data-filter-outcome', state.outcome);
    press('.filters [data-filter-status]', 'data-filter-status', state.status);
    press('.filters [data-filter-level]', 'data-filter-level', state.level);
    cellFilter.hidden = !state.cases;
    cellFilter.querySelector('.cell-filter-label').textContent = state.label;
    noMatch.hidden = shown > 0;
    noRequirementMatch.hidden = requirementsShown > 0;
    searchCount.textContent = state.words.length === 0 ? '' :
      shown + ' of ' + rows.length + ' cases, ' + requirementsShown + ' of ' + requirementRows.length + ' requirements';
  }

  searchInput.addEventListener('input', function () {
    state.words = searchInput.value.toLowerCase().split(/\\s+/).filter(Boolean);
    apply();
  });

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
    var el = event.target.closest('[data-filter-outcome], [data-filter-cases], [data-clear-cases], [data-filter-status], [data-filter-level], [data-copy-target], a[href^="#failure-"]');
    if (!el) return;
    if (el.hasAttribute('data-filter-status')) { state.status = el.getAttribute('data-filter-status'); apply(); return; }
    if (el.hasAttribute('data-filter-level')) { state.level = el.getAttribute('data-filter-level'); apply(); return; }
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
  requirementFilters.hidden = false;
  search.hidden = false;
  // A search the browser restored (back, reload) applies at once.
  if (searchInput.value) searchInput.dispatchEvent(new Event('input'));
  document.querySelectorAll('[data-copy-target]').forEach(function (b) { b.hidden = false; });
})();
`;

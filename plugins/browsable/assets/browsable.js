// The browsable API page's behaviour: OPTIONS, the raw JSON forms and adding filters. Everything it shows of a
// response is built with DOM nodes and textContent, never parsed HTML.
(() => {
  'use strict';
  const result = document.getElementById('result');
  const resultBody = document.getElementById('result-body');

  const span = (className, text) => {
    const node = document.createElement('span');
    node.className = className;
    node.textContent = text;
    return node;
  };

  /** A JSON value as nodes, four spaces a level, URLs as links: as the server renders the page's own. */
  function json(value, indent, into) {
    if (value === null) return into.append(span('j-null', 'null'));
    if (typeof value === 'string') {
      if (/^https?:\/\/\S+$/.test(value)) {
        const link = document.createElement('a');
        link.className = 'j-link';
        link.href = value;
        link.textContent = JSON.stringify(value);
        return into.append(link);
      }
      return into.append(span('j-str', JSON.stringify(value)));
    }
    if (typeof value === 'number') return into.append(span('j-num', String(value)));
    if (typeof value === 'boolean') return into.append(span('j-bool', String(value)));
    const inner = `${indent}    `;
    const entries = Array.isArray(value) ? value.map((v) => [null, v]) : Object.entries(value);
    const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
    if (!entries.length) return into.append(open + close);
    into.append(`${open}\n`);
    entries.forEach(([key, v], i) => {
      into.append(inner);
      if (key !== null) into.append(span('j-key', JSON.stringify(key)), ': ');
      json(v, inner, into);
      into.append(i < entries.length - 1 ? ',\n' : '\n');
    });
    into.append(indent + close);
  }

  /** Shows a response: its status line, headers and body (JSON as nodes, anything else as text). */
  async function show(response) {
    const text = await response.text();
    resultBody.replaceChildren();
    resultBody.append(span(`status s-${Math.floor(response.status / 100)}xx`, `HTTP ${response.status} ${response.statusText}`), '\n');
    for (const name of ['allow', 'content-type', 'location', 'api-version', 'x-request-id']) {
      const value = response.headers.get(name);
      if (value) resultBody.append(span('h-name', `${name}:`), ` ${value}\n`);
    }
    if (text) {
      resultBody.append('\n');
      try {
        json(JSON.parse(text), '', resultBody);
      } catch {
        resultBody.append(text);
      }
    }
    result.hidden = false;
    result.scrollIntoView({ behavior: 'smooth', block: 'nearest' });
  }

  async function call(method, url, body) {
    // The session's CSRF token, which the API wants with every write a session sends.
    const csrf = document.querySelector('meta[name="csrf-token"]')?.content ?? '';
    const headers = { Accept: 'application/json', 'X-CSRFToken': csrf };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    try {
      await show(await fetch(url, { method, headers, body, credentials: 'same-origin' }));
    } catch (err) {
      resultBody.textContent = `The request failed: ${err.message}`;
      result.hidden = false;
    }
  }

  document.getElementById('options')?.addEventListener('click', (event) => call('OPTIONS', event.currentTarget.dataset.url));

  // The forms: one tab per method; Send posts the textarea's JSON (or nothing, for DELETE).
  const tabs = [...document.querySelectorAll('.tabs .tab')];
  for (const tab of tabs) {
    tab.addEventListener('click', () => {
      for (const other of tabs) other.setAttribute('aria-selected', String(other === tab));
      for (const panel of document.querySelectorAll('.write .panel')) panel.hidden = panel.dataset.method !== tab.dataset.method;
    });
  }
  const endpoint = location.pathname;
  for (const button of document.querySelectorAll('.write .send')) {
    button.addEventListener('click', () => {
      const { method } = button.dataset;
      if (method === 'DELETE') {
        if (window.confirm('Delete this object?')) call('DELETE', endpoint);
        return;
      }
      call(method, endpoint, document.getElementById(`body-${method}`).value);
    });
  }

  // Adding a filter: the page again with one more parameter, from the first page.
  document.getElementById('add-filter')?.addEventListener('submit', (event) => {
    event.preventDefault();
    const url = new URL(location.href);
    url.searchParams.append(document.getElementById('filter-name').value.trim(), document.getElementById('filter-value').value);
    url.searchParams.delete('offset');
    location.assign(url.toString());
  });
})();

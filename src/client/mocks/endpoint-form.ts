import { ApiError, type EndpointInput, type EndpointRecord } from './api.js';
import { byId, el } from './dom.js';
import { createJsonEditor, type JsonState } from './json-editor.js';

// The codes people mock most; any other from 200 to 599 goes in "Other".
const COMMON_STATUSES: [number, string][] = [
  [200, 'OK'], [201, 'Created'], [202, 'Accepted'], [204, 'No Content'],
  [301, 'Moved Permanently'], [302, 'Found'], [304, 'Not Modified'],
  [400, 'Bad Request'], [401, 'Unauthorized'], [403, 'Forbidden'], [404, 'Not Found'], [409, 'Conflict'],
  [410, 'Gone'], [418, "I'm a teapot"], [422, 'Unprocessable Content'], [429, 'Too Many Requests'],
  [500, 'Internal Server Error'], [502, 'Bad Gateway'], [503, 'Service Unavailable'], [504, 'Gateway Timeout'],
];
const OTHER = 'other';

/** Saves what the form holds; `existing` is the name being edited, undefined for a new endpoint. */
export type SaveEndpoint = (input: EndpointInput, existing: string | undefined) => Promise<void>;

export type EndpointForm = {
  /** An empty form for a new endpoint. */
  reset(): void;
  /** The form for editing `record`; its name cannot change. */
  fill(record: EndpointRecord): void;
};

/** The add/edit form in #endpoint-form: the save button is off while the JSON data is invalid. */
export function createEndpointForm(save: SaveEndpoint): EndpointForm {
  const form = byId<HTMLFormElement>('endpoint-form');
  const name = byId<HTMLInputElement>('name');
  const status = byId<HTMLSelectElement>('status-code');
  const other = byId<HTMLInputElement>('status-other');
  const delay = byId<HTMLInputElement>('delay');
  const headers = byId('headers');
  const saveButton = byId<HTMLButtonElement>('save');
  const jsonState = byId('json-state');
  const error = byId('form-error');
  const saved = byId('saved');
  let editing: string | undefined;
  let saving = false;

  for (const [code, text] of COMMON_STATUSES) status.append(el('option', { value: String(code) }, `${code} ${text}`));
  status.append(el('option', { value: OTHER }, 'Other…'));
  const showOther = () => (byId('status-other-label').hidden = status.value !== OTHER);
  status.addEventListener('change', showOther);

  const update = (state: JsonState) => {
    jsonState.textContent = state.valid ? 'valid' : `Line ${state.line}, column ${state.column}: ${state.message}`;
    jsonState.className = state.valid ? 'ok' : 'error';
    saveButton.disabled = !state.valid || saving;
  };
  const editor = createJsonEditor(byId('data-editor'), update);

  const addHeader = (headerName = '', value = '') => {
    const remove = el('button', { type: 'button', class: 'remove', 'aria-label': 'Remove header' }, '×');
    const row = el(
      'div',
      { class: 'header-row' },
      el('input', { class: 'header-name', 'aria-label': 'Header name', placeholder: 'X-Header', spellcheck: 'false' }),
      el('input', { class: 'header-value', 'aria-label': 'Header value', placeholder: 'value', spellcheck: 'false' }),
      remove,
    );
    (row.children[0] as HTMLInputElement).value = headerName;
    (row.children[1] as HTMLInputElement).value = value;
    remove.addEventListener('click', () => row.remove());
    headers.append(row);
  };
  byId('add-header').addEventListener('click', () => addHeader());

  const showError = (message: string, field?: string) => {
    error.textContent = message;
    error.hidden = false;
    const fields: Record<string, HTMLElement> = { name, statusCode: status.value === OTHER ? other : status, delay };
    const input = field === undefined ? undefined : fields[field];
    for (const one of [name, status, other, delay]) one.removeAttribute('aria-invalid');
    if (input) {
      input.setAttribute('aria-invalid', 'true');
      input.focus();
    }
  };

  const read = (): EndpointInput => {
    const pairs: Record<string, string> = {};
    for (const row of headers.querySelectorAll('.header-row')) {
      const [key, value] = [...row.querySelectorAll('input')].map((input) => input.value.trim());
      if (key) pairs[key] = value ?? '';
    }
    return {
      name: name.value.trim(),
      data: JSON.parse(editor.text()),
      statusCode: Number(status.value === OTHER ? other.value : status.value),
      delay: delay.value === '' ? 0 : Number(delay.value),
      headers: pairs,
    };
  };

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (!editor.state().valid || saving) return;
    saving = true;
    saveButton.disabled = true;
    error.hidden = true;
    saved.textContent = 'Saving…';
    try {
      await save(read(), editing);
      saved.textContent = 'Saved';
    } catch (err) {
      saved.textContent = '';
      showError((err as Error).message, err instanceof ApiError ? err.field : undefined);
    } finally {
      saving = false;
      update(editor.state());
    }
  });

  const load = (record: Partial<EndpointRecord>) => {
    editing = record.name;
    name.value = record.name ?? '';
    name.readOnly = record.name !== undefined;
    const code = String(record.statusCode ?? 200);
    const common = COMMON_STATUSES.some(([known]) => String(known) === code);
    status.value = common ? code : OTHER;
    other.value = common ? '' : code;
    showOther();
    delay.value = String(record.delay ?? 0);
    headers.replaceChildren();
    for (const [key, value] of Object.entries(record.headers ?? {})) addHeader(key, value);
    editor.setText(record.data === undefined ? '{\n  \n}' : JSON.stringify(record.data, null, 2));
    error.hidden = true;
    saved.textContent = '';
    for (const one of [name, status, other, delay]) one.removeAttribute('aria-invalid');
  };

  return { reset: () => load({}), fill: load };
}

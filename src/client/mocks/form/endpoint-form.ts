import { ApiError, PICKS, type EndpointInput, type EndpointRecord, type Pick, type StreamInput } from '../common/api.js';
import { createDelayField } from './delay-field.js';
import { byId } from '../common/dom.js';
import { createFaultField } from './fault-field.js';
import { createGraphqlFields } from './graphql-fields.js';
import { clearFieldErrors, showFieldError } from './field-errors.js';
import { createJsonEditor, type JsonState } from './json-editor.js';
import { createKeyValueRows, pairsObject } from '../common/key-value-rows.js';
import { createMethodsPicker } from './methods-picker.js';
import { createResponsesEditor } from './responses-editor.js';
import { createStatusField } from './status-field.js';
import { jsonText, parseJsonText } from '../common/json-text.js';
import { createScriptEditor } from './script-editor.js';

/** Saves what the form holds; `existing` is the name being edited, undefined for a new endpoint. */
export type SaveEndpoint = (input: EndpointInput | StreamInput, existing: string | undefined) => Promise<void>;

export type EndpointForm = {
  /** The form for a new endpoint: empty, or started from `start` (a request no endpoint answered). */
  reset(start?: Partial<EndpointInput>): void;
  /** The form for editing `record`; its name cannot change. */
  fill(record: EndpointRecord): void;
};

/**
 * The add/edit form in #endpoint-form. Only what is set is sent, so an endpoint that uses none of
 * the newer fields is saved as the same plain record. Save is off while the JSON data is invalid.
 */
export function createEndpointForm(save: SaveEndpoint): EndpointForm {
  const form = byId<HTMLFormElement>('endpoint-form');
  const name = byId<HTMLInputElement>('name');
  const path = byId<HTMLInputElement>('path');
  const template = byId<HTMLInputElement>('template');
  const collection = byId<HTMLInputElement>('collection');
  const kind = byId<HTMLSelectElement>('payload-kind');
  const body = byId<HTMLTextAreaElement>('body');
  const pick = byId<HTMLSelectElement>('pick');
  const scenario = byId<HTMLInputElement>('scenario');
  const callbacks = byId<HTMLTextAreaElement>('callbacks');
  // Set here: the page's HTML holds no absolute URL (test/mocks/static.test.ts).
  callbacks.placeholder = '[{ "url": "http://localhost:4000/hooks/{{params.id}}", "body": { "id": "{{params.id}}" }, "delay": 500 }]';
  const setState = byId<HTMLInputElement>('set-state');
  const saveButton = byId<HTMLButtonElement>('save');
  const jsonState = byId('json-state');
  const error = byId('form-error');
  const saved = byId('saved');
  let editing: string | undefined;
  let saving = false;
  let kept: { expects?: unknown; validate?: boolean; content?: unknown } = {};

  const status = createStatusField({ field: 'statusCode', idPrefix: 'status' });
  byId('status-slot').append(status.element);
  const delay = createDelayField({ field: 'delay', idPrefix: 'delay' });
  byId('delay-slot').append(delay.element);
  const fault = createFaultField({ field: 'fault', noneLabel: 'none', idPrefix: 'fault' });
  byId('fault-slot').append(fault.element);
  const methods = createMethodsPicker('Methods (none checked: every method)', 'methods', 'method');
  byId('methods-slot').append(methods.element);
  const headers = createKeyValueRows({
    legend: 'Response headers', noun: 'header', field: 'headers', namePlaceholder: 'X-Header', addId: 'add-header',
  });
  byId('headers-slot').append(headers.element);
  const responses = createResponsesEditor(() => status.read());
  const graphql = createGraphqlFields();

  // The Kind picker: a WebSocket or event-stream endpoint has a script instead of REST's answer, a
  // GraphQL one its schema; REST's data does not count for either.
  const endpointKind = byId<HTMLSelectElement>('endpoint-kind');
  const isGraphql = () => endpointKind.value === 'graphql';
  const isData = () => kind.value === 'data' && script.kind() === undefined && !isGraphql();
  const update = (state: JsonState) => {
    jsonState.textContent = state.valid ? 'valid' : `Line ${state.line}, column ${state.column}: ${state.message}`;
    jsonState.className = state.valid ? 'ok' : 'error';
    jsonState.hidden = !isData();
    saveButton.disabled = (isData() && !state.valid) || saving;
  };
  const script = createScriptEditor(() => update(editor.state()));
  const editor = createJsonEditor(byId('data-editor'), update);
  const showKind = () => {
    byId('data-editor').hidden = !isData();
    body.hidden = kind.value !== 'body' && kind.value !== 'base64Body';
    // One box for text and base64: a refusal names the field it holds now.
    body.dataset.field = kind.value === 'base64Body' ? 'base64Body' : 'body';
    body.setAttribute('aria-label', kind.value === 'base64Body' ? 'Bytes in base64' : 'Text body');
    // A GraphQL endpoint answers from its schema, with a status and a delay: REST's other fields
    // (methods, templates, faults, headers, callbacks, its answer and responses) are not its.
    byId('rest-only').hidden = isGraphql();
    byId('fault-field').hidden = isGraphql();
    byId('graphql-fields').hidden = !isGraphql();
    byId('responses-section').hidden = isGraphql();
    update(editor.state());
  };
  kind.addEventListener('change', showKind);
  endpointKind.addEventListener('change', showKind);

  const showError = (message: string, field?: string) => {
    clearFieldErrors(form);
    error.textContent = message;
    error.hidden = false;
    if (field !== undefined && !script.place(field)) showFieldError(form, field, message);
    if (field === 'schema') graphql.place(message);
  };

  const read = (): EndpointInput | StreamInput => {
    if (script.kind()) return script.read({ name: name.value.trim(), ...(path.value.trim() !== '' && { path: path.value.trim() }) });
    const input: EndpointInput = { name: name.value.trim(), statusCode: status.read()!, delay: delay.read()! };
    if (path.value.trim() !== '') input.path = path.value.trim();
    if (isGraphql()) return { ...graphql.read(), ...input };
    const methodList = methods.read();
    if (methodList.length > 0) input.methods = methodList;
    if (isData()) input.data = JSON.parse(editor.text());
    // Pasted base64 often comes wrapped in lines: the record's holds none.
    else if (kind.value === 'base64Body') input.base64Body = body.value.replace(/\s+/g, '');
    else input.body = body.value;
    const headerValues = pairsObject(headers.pairs());
    if (headerValues) input.headers = headerValues;
    if (template.checked) input.template = true;
    if (collection.checked) input.collection = true;
    const list = responses.read();
    if (list.length > 0) input.responses = list;
    if (pick.value !== 'first-match') input.pick = pick.value as Pick;
    if (scenario.value.trim() !== '') input.scenario = scenario.value.trim();
    if (setState.value.trim() !== '') input.setState = setState.value.trim();
    if (callbacks.value.trim() !== '') input.callbacks = parseJsonText(callbacks.value, 'callbacks') as unknown[];
    return { ...input, ...fault.read(), ...kept };
  };

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if ((isData() && !editor.state().valid) || saving) return;
    saving = true;
    saveButton.disabled = true;
    error.hidden = true;
    clearFieldErrors(form);
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
    // What the form does not show goes back as it came: an edit keeps an imported endpoint's validation.
    const { expects, validate, content } = record;
    kept = { ...(expects !== undefined && { expects }), ...(validate !== undefined && { validate }), ...(content !== undefined && { content }) };
    name.value = record.name ?? '';
    name.readOnly = record.name !== undefined;
    path.value = record.path ?? '';
    methods.fill(record.methods);
    status.fill(record.statusCode ?? 200);
    delay.fill(record.delay ?? 0);
    fault.fill(record);
    template.checked = record.template === true;
    collection.checked = record.collection === true;
    headers.fill(Object.entries(record.headers ?? {}));
    kind.value = record.base64Body !== undefined ? 'base64Body' : record.body === undefined ? 'data' : 'body';
    graphql.fill(record);
    body.value = record.body ?? record.base64Body ?? '';
    editor.setText(record.data === undefined ? '{\n  \n}' : JSON.stringify(record.data, null, 2));
    responses.fill(record.kind === 'graphql' ? undefined : record.responses);
    pick.value = record.pick && PICKS.includes(record.pick) ? record.pick : 'first-match';
    scenario.value = record.scenario ?? '';
    setState.value = record.setState ?? '';
    callbacks.value = record.callbacks === undefined ? '' : jsonText(record.callbacks);
    // Tall enough to read a callback or two whole; the box scrolls past that.
    callbacks.rows = Math.min(14, Math.max(3, callbacks.value.split('\n').length));
    script.fill(record);
    showKind();
    error.hidden = true;
    saved.textContent = '';
    clearFieldErrors(form);
  };

  return {
    reset(start = {}) {
      load(start);
      // A draft is still a new endpoint: its name can change, and Save creates it.
      editing = undefined;
      name.readOnly = false;
    },
    fill: load,
  };
}

import type { EndpointRecord, StreamInput } from '../common/api.js';
import { byId } from '../common/dom.js';
import { parseJsonText } from '../common/json-text.js';

type StreamKind = StreamInput['kind'];

/** Each kind's script fields, as the record answer writes them, and a script to start from. */
const SCRIPTS: Record<StreamKind, { fields: string[]; start: object }> = {
  websocket: {
    fields: ['onConnect', 'responses', 'echo', 'every', 'close'],
    start: { onConnect: [{ data: 'welcome {{query.user}}' }], responses: [{ when: { text: 'ping' }, data: 'pong' }], echo: true },
  },
  sse: {
    fields: ['events', 'loop'],
    start: { events: [{ event: 'status', data: { step: 'build' }, id: '1' }, { event: 'done', data: 'ok', id: '2', delay: 1000 }] },
  },
};

export type ScriptEditor = {
  /** The kind chosen, undefined for REST. */
  kind(): StreamKind | undefined;
  /** The record to save: name, path, kind and the script's fields; an ApiError on `script` when its JSON does not parse. */
  read(base: { name: string; path?: string }): StreamInput;
  fill(record: Partial<EndpointRecord> & Record<string, unknown>): void;
  /** Places the server's error on `field` (`onConnect[0].data`) in the script: selects its key. False when the field is not the script's. */
  place(field: string): boolean;
};

/**
 * The kind picker (#endpoint-kind) and the script of WebSocket and event-stream endpoints (#script, JSON):
 * REST's fields (#rest-fields) hide while a script is edited.
 */
export function createScriptEditor(onChange: () => void): ScriptEditor {
  const select = byId<HTMLSelectElement>('endpoint-kind');
  const text = byId<HTMLTextAreaElement>('script');
  const kind = () => (select.value === 'websocket' || select.value === 'sse' ? select.value : undefined);
  const show = () => {
    const chosen = kind();
    byId('rest-fields').hidden = chosen !== undefined;
    byId('script-fields').hidden = chosen === undefined;
    byId('script-hint').textContent =
      chosen === 'websocket'
        ? 'onConnect [{data, delay}], responses [{when: {text | contains | body}, data, close}], echo, every {ms, data}, close {code, after}; strings in data are templates ({{message}}, {{body.x}}, {{query.x}}).'
        : 'events [{event, data, id, delay}], loop; data is a template over the request; a reconnect resumes after Last-Event-ID.';
    onChange();
  };
  select.addEventListener('change', () => {
    const chosen = kind();
    // A new kind starts from an example rather than the other kind's fields.
    if (chosen && !SCRIPTS[chosen].fields.some((field) => text.value.includes(`"${field}"`))) {
      text.value = JSON.stringify(SCRIPTS[chosen].start, null, 2);
    }
    show();
  });

  return {
    kind,
    read(base) {
      const chosen = kind()!;
      const script = parseJsonText(text.value, 'script', true) as Record<string, unknown>;
      return { ...base, kind: chosen, ...script };
    },
    fill(record) {
      const chosen = record.kind === 'websocket' || record.kind === 'sse' ? record.kind : undefined;
      // GraphQL is a kind of the picker too, whose fields are the form's (./graphql-fields.ts).
      select.value = chosen ?? (record.kind === 'graphql' ? 'graphql' : '');
      const script = chosen ? Object.fromEntries(SCRIPTS[chosen].fields.filter((field) => record[field] !== undefined).map((field) => [field, record[field]])) : {};
      text.value = chosen ? JSON.stringify(script, null, 2) : '';
      text.rows = Math.min(24, Math.max(6, text.value.split('\n').length));
      show();
    },
    place(field) {
      const chosen = kind();
      const top = /^[^.[]+/.exec(field)?.[0];
      if (!chosen || top === undefined) return false;
      // The last named part of the path (`data` of `onConnect[0].data`), after the top field's own key.
      const names = field.match(/[A-Za-z_$][\w$]*/g) ?? [top];
      const from = text.value.indexOf(`"${top}"`);
      if (from === -1) return false;
      const last = names[names.length - 1]!;
      const at = text.value.indexOf(`"${last}"`, from);
      const start = at === -1 ? from : at;
      text.focus();
      text.setSelectionRange(start, start + last.length + 2);
      return true;
    },
  };
}

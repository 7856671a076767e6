import { addEndpoint, MockApiError, type MockServer } from './api.js';

const byId = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;

/** Where JSON.parse stopped, in the words of its message. */
function parseProblem(text: string): string | undefined {
  try {
    JSON.parse(text);
    return undefined;
  } catch (error) {
    return `The JSON does not parse: ${(error as Error).message}`;
  }
}

/**
 * The "Make a mock" dialog (`#mock-dialog`): JSON (from a selection, editable), a name and a path; it adds the
 * endpoint (`PUT /mocks/api/endpoint/add`) and closes, or shows the server's message and keeps everything
 * as typed. `made` runs with the new endpoint's name and route. Answers the function that opens it.
 */
export function wireMakeMock(server: MockServer, made: (name: string, path: string) => void): (json: string) => void {
  const dialog = byId<HTMLDialogElement>('mock-dialog');
  const form = byId<HTMLFormElement>('mock-form');
  const name = byId<HTMLInputElement>('mock-name');
  const path = byId<HTMLInputElement>('mock-path');
  const json = byId<HTMLTextAreaElement>('mock-json');
  const problem = byId('mock-error');
  const submit = byId<HTMLButtonElement>('mock-submit');
  const fields: Record<string, HTMLElement> = { name, path };
  for (const prefix of document.querySelectorAll('.mock-base')) prefix.textContent = server.endpoints.pathname;

  const show = (message: string, field?: HTMLElement) => {
    problem.textContent = message;
    problem.hidden = false;
    field?.focus();
  };

  form.addEventListener('submit', (event) => {
    if ((event.submitter as HTMLButtonElement | null)?.value === 'cancel') return; // the dialog closes
    event.preventDefault();
    if (submit.disabled) return;
    const unparsed = parseProblem(json.value);
    if (unparsed) return show(unparsed, json);
    const record = { name: name.value, ...(path.value === '' ? {} : { path: path.value }), data: JSON.parse(json.value) as unknown };
    submit.disabled = true;
    problem.hidden = true;
    addEndpoint(server, record).then(
      () => {
        dialog.close();
        made(record.name, (path.value === '' ? name.value : path.value).replace(/^\/|\/$/g, ''));
      },
      (error: unknown) => {
        const field = error instanceof MockApiError ? error.field : undefined;
        const at = field === undefined ? undefined : (fields[field] ?? (field.startsWith('data') ? json : undefined));
        show(error instanceof MockApiError ? error.message : String(error), at);
      },
    ).finally(() => (submit.disabled = false));
  });

  return (text) => {
    if (dialog.open) return;
    form.reset();
    json.value = text.trim();
    problem.hidden = true;
    dialog.showModal();
    (json.value === '' ? json : name).focus();
  };
}

import { Option, type Command } from 'commander';
import { FAULTS } from '../../mocks/record/record.js';
import { withClientFlags } from '../common/client-flags.js';
import { collect, collectMethod, parseDelay, parseRate, type MockAddFlags } from './flags.js';
import type { MockExportFlags } from './export.js';
import { FORMATS } from '../common/record-files.js';
import type { MockImportFlags } from './import.js';
import type { MockLogFlags } from './log.js';
import { parseCount } from '../common/options.js';
import type { MockVerifyFlags } from './verify.js';

const ADD_EXAMPLES = `
Examples:
  $ snippetkit mock add users users.json
  $ snippetkit mock add slow data.json --status 503 --delay 2000 --header 'Retry-After: 5'
  $ echo '{"ok":true}' | snippetkit mock add health -
  $ snippetkit mock add user user.json --path 'users/:id' --method GET --method put --template
  $ snippetkit mock add flaky data.json --delay 100-400 --fault reset --fault-rate 0.2
  $ snippetkit mock add feed --body-file feed.xml --header 'Content-Type: application/xml'
  $ snippetkit mock get user --json > user.json    # edit it, then:
  $ snippetkit mock add user --endpoint user.json --force

FILE is the JSON data to answer. --endpoint reads a whole endpoint record instead (path, methods,
responses, pick, template ...), as \`mock get NAME --json\` prints it (its counters and URL are left
out); flags given with it replace its fields, and a "name" in it must be NAME.
With --template, strings in the data, body and headers are Handlebars templates: {{params.id}},
{{query.q}}, {{headers.[x-id]}}, {{body.field}}, {{now}}, {{uuid}}, {{randomInt 1 9}}, {{faker 'person.fullName'}}.`;

const EXPORT_EXAMPLES = `
Examples:
  $ snippetkit mock export > mocks.json
  $ snippetkit mock export --format yaml
  $ snippetkit mock export --out mocks.yaml
  $ snippetkit mock export --out mocks/            # mocks/<name>.json, one per endpoint
  $ snippetkit mock export --out mocks/ --format yaml

Each endpoint is written whole (as PUT takes it: no hits, times or URL), sorted by name, so the
same endpoints always give the same bytes and a folder of them diffs well in git.`;

const IMPORT_EXAMPLES = `
Examples:
  $ snippetkit mock import mocks.json
  $ snippetkit mock import mocks/ --replace
  $ snippetkit mock import openapi.yaml      # one endpoint per operation
  $ snippetkit mock import db.json --collections   # json-server's db.json: a collection per key
  $ snippetkit mock import session.har --host api.example.com   # a browser's recorded answers

A file holds one endpoint record or a list of them (JSON, or YAML for .yaml and .yml); a folder is
read recursively. A file's one record without "name" takes the file's path without the extension.
A file with a top-level "openapi" or "swagger" key is an OpenAPI document: each operation becomes an
endpoint answering its documented statuses (pick one with ?__code=404 or Prefer: code=404).
A .har file (or one with log.entries) is an HTTP Archive: each method and path answered becomes an
endpoint replaying what was recorded (images and other bytes as base64Body), as --proxy --record
would have; entries it cannot replay (other hosts, data: URLs, WebSockets) are skipped and counted.
Nothing is written unless every record is valid and (without --replace) no name exists yet: the
problems are listed all at once.`;

const VERIFY_EXAMPLES = `
Examples:
  $ snippetkit mock verify hook --count 1 --method POST --body-contains '{"ok":true}'
  $ snippetkit mock verify user --at-least 2 --query fields=name --header 'X-Trace: a1'
  $ snippetkit mock verify --path users/7          # any endpoint, or none: the unmatched requests too
  $ snippetkit mock verify order --body-schema order.schema.json
  $ snippetkit mock reset && npm test               # a clean mock server before a suite

Exit 0 when as many matching requests came as asked (at least one when no count is given); exit 1
otherwise, printing what was expected and the closest requests with what differed, field by field.
--body-contains matches text in the body, or, for JSON, an object the body contains. --body-schema reads
a JSON Schema (draft 2020-12, or draft-07 by its $schema) the body, parsed as JSON, must validate
against. The logs hold each endpoint's newest --log-size requests: counts are of what they hold.`;

/** Declares `snippetkit mock ...`; their code loads only when they run. */
export function registerMockCommands(program: Command): void {
  const mock = program
    .command('mock')
    .description('register and inspect endpoints on a running mock server')
    .addHelpText(
      'after',
      '\nExamples:\n  $ snippetkit mock add users users.json --status 200 --delay 250\n  $ snippetkit mock list\n' +
        '  $ snippetkit mock log hook --follow',
    );

  const load = () => import('./mock.js');
  const loadLog = () => import('./log.js');

  withClientFlags(mock.command('add'), 'mock')
    .description("register an endpoint that answers FILE's JSON at /endpoint/NAME (or --path), and print its URL")
    .argument('<name>', 'endpoint name: letters, digits, . _ ~ -')
    .argument('[file]', 'JSON file with the data to answer (- for standard input)')
    .option('-s, --status <code>', 'HTTP status to answer with (default 200)', parseCount)
    .option('-d, --delay <ms>', 'hold each answer back: milliseconds, or MIN-MAX per request (default 0)', parseDelay)
    .option('-H, --header <header>', "response header 'Name: value' (repeatable)", collect, [])
    .option('--path <path>', "serve at /endpoint/PATH instead of the name: 'users/:id', 'files/*', ':id?'")
    .option('-m, --method <method>', 'answer only this method, others get 405 (repeatable)', collectMethod, [])
    .option('-t, --template', 'render strings in the data, body and headers as Handlebars templates per request')
    .addOption(new Option('--fault <kind>', 'break the answer: reset, close, send garbage or hang').choices(FAULTS))
    .option('--fault-rate <share>', 'the share of requests the fault happens to, 0 to 1 (default 1)', parseRate)
    .option('--body-file <file>', 'answer this text file as is instead of JSON data (set Content-Type with --header)')
    .option('--endpoint <file>', 'JSON file with a whole endpoint record, instead of FILE')
    .option('-f, --force', 'replace an endpoint of that name')
    .addHelpText('after', ADD_EXAMPLES)
    .action((name: string, file: string | undefined, flags: MockAddFlags, command: Command) =>
      load().then((m) => m.mockAdd(name, file, flags, command)),
    );

  withClientFlags(mock.command('list'), 'mock')
    .alias('ls')
    .description('list the endpoints with path, methods, status, delay, hits and last update')
    .addHelpText('after', '\nExample:\n  $ snippetkit mock list --json')
    .action((_flags: unknown, command: Command) => load().then((m) => m.mockList(command)));

  withClientFlags(mock.command('get'), 'mock')
    .description('print one endpoint: path, methods, settings, data and each response with its condition')
    .argument('<name>', 'endpoint name')
    .addHelpText('after', '\nExamples:\n  $ snippetkit mock get users\n  $ snippetkit mock get users --json')
    .action((name: string, _flags: unknown, command: Command) => load().then((m) => m.mockGet(name, command)));

  withClientFlags(mock.command('rm'), 'mock')
    .alias('remove')
    .description('delete an endpoint')
    .argument('<name>', 'endpoint name')
    .addHelpText('after', '\nExample:\n  $ snippetkit mock rm users')
    .action((name: string, _flags: unknown, command: Command) => load().then((m) => m.mockRemove(name, command)));

  withClientFlags(mock.command('export'), 'mock')
    .description('write every endpoint, all its fields, to standard output, one file or a folder of files')
    .option('-o, --out <path>', 'a .json, .yaml or .yml file; any other name is a folder, one file per endpoint')
    .addOption(new Option('--format <format>', 'json (default) or yaml, for stdout and folders').choices(FORMATS))
    .addHelpText('after', EXPORT_EXAMPLES)
    .action((flags: MockExportFlags, command: Command) =>
      import('./export.js').then((m) => m.mockExport(flags, command)),
    );

  withClientFlags(mock.command('import'), 'mock')
    .description('add the endpoints of a file or folder made by `mock export`, an OpenAPI document or a HAR, all or none')
    .argument('<path>', 'a .json, .yaml, .yml or .har file, or a folder of record files')
    .option('-r, --replace', 'replace endpoints of the same names (otherwise those names are refused)')
    .option('--openapi', 'read each file as an OpenAPI 3 or Swagger 2.0 document, refusing any other')
    .option('--collections', 'read each file as a json-server database: each key becomes a collection endpoint')
    .option('--host <host>', "a HAR's answers from this host[:port] only (default: the most common one)")
    .option('--record-cookies', "keep a HAR's Set-Cookie headers (dropped by default)")
    .option('--validate', 'check requests to the endpoints that say what they expect (OpenAPI operations), whatever the server\'s --validate')
    .addHelpText('after', IMPORT_EXAMPLES)
    .action((path: string, flags: MockImportFlags, command: Command) =>
      import('./import.js').then((m) => m.mockImport(path, flags, command)),
    );

  withClientFlags(mock.command('verify'), 'mock')
    .description('check that an endpoint (or any) received as many requests matching the flags as expected')
    .argument('[name]', 'endpoint name; without it every log, and the requests no endpoint answered')
    .option('-c, --count <n>', 'exactly this many', parseCount)
    .option('--at-least <n>', 'at least this many', parseCount)
    .option('--at-most <n>', 'at most this many', parseCount)
    .option('-m, --method <method>', 'the request method')
    .option('--path <path>', "the path after /endpoint/, without the query: 'users/7'")
    .option('--query <key=value>', 'a query parameter the request had (repeatable)', collect, [])
    .option('-H, --header <header>', "a request header 'Name: value' (repeatable)", collect, [])
    .option('--body-contains <text>', 'text the body holds, or JSON the body contains')
    .option('--body-schema <file>', "a JSON Schema file the body must validate against ('-': standard input)")
    .addHelpText('after', VERIFY_EXAMPLES)
    .action((name: string | undefined, flags: MockVerifyFlags, command: Command) =>
      import('./verify.js').then((m) => m.mockVerify(name, flags, command)),
    );

  withClientFlags(mock.command('reset'), 'mock')
    .description('delete every endpoint made through the API and empty every log and counter')
    .addHelpText('after', '\nExample:\n  $ snippetkit mock reset    # endpoints from --dir, --openapi, --db stay, counted from zero')
    .action((_flags: unknown, command: Command) => import('./verify.js').then((m) => m.mockReset(command)));

  withClientFlags(mock.command('send'), 'mock')
    .description('send a message to every open connection of a WebSocket or event-stream endpoint')
    .argument('<name>', 'endpoint name')
    .argument('<text>', 'what to send, as is (JSON is sent as its text)')
    .addHelpText('after', '\nExample:\n  $ snippetkit mock send chat \'{"type":"notice","text":"deploying"}\'')
    .action((name: string, text: string, _flags: unknown, command: Command) => import('./send.js').then((m) => m.mockSend(name, text, command)));

  withClientFlags(mock.command('log'), 'mock')
    .description('print the requests an endpoint received and which response answered each, newest last')
    .argument('<name>', 'endpoint name')
    .option('-f, --follow', 'keep printing new requests as they arrive (Ctrl+C to stop)')
    .option('--clear', 'empty the endpoint\'s request log (with --follow: then follow)')
    .addHelpText(
      'after',
      '\nExamples:\n  $ snippetkit mock log hook\n' +
        '  $ snippetkit mock log hook --follow --json    # one JSON object per line\n' +
        '  $ snippetkit mock log hook --clear',
    )
    .action((name: string, flags: MockLogFlags, command: Command) =>
      loadLog().then((m) => m.mockLog(name, flags, command)),
    );
}

import { expect } from 'chai';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runCli, spawnCli, useMockProcess } from '../../helpers/cli.js';

// What a hostile webhook sends: clear the screen, set the window title, a fake green line drawn over the
// real one, a carriage return, C1 CSI, DEL and a right-to-left override.
const FORGED = '\x1b[2J\x1b[H\x1b]0;pwned\x07\x1b[32mAll webhooks verified OK\x1b[0m\rX\x9b31m\x7f\u202eevil';
const HOSTILE = `${FORGED}\nline two\ttab`;
const RAW = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202e]/;

describe('snippetkit mock log with hostile request bodies', function () {
  this.timeout(60_000); // each test runs the CLI up to twice: seconds each on a loaded 2-core machine
  const server = useMockProcess();
  const env = () => ({ SNIPPETKIT_MOCK_SERVER: server.url });

  before(async () => {
    for (const name of ['hook', 'live']) {
      const res = await fetch(`${server.url}/api/endpoint/add`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name, data: {} }),
      });
      expect(res.status).to.equal(201);
    }
    await fetch(`${server.url}/endpoint/hook`, { method: 'POST', body: HOSTILE });
  });

  function expectEscaped(text: string): void {
    expect(text).not.to.match(RAW);
    expect(text).to.include(
      '\\x1b[2J\\x1b[H\\x1b]0;pwned\\x07\\x1b[32mAll webhooks verified OK\\x1b[0m\\rX\\x9b31m\\x7f\\u202eevil',
    );
    expect(text).to.include('\nline two\ttab'); // a body's line breaks and tabs stay
  }

  it('shows control characters escaped in the log', async () => {
    const result = await runCli(['mock', 'log', 'hook'], env());
    expect(result.code, result.stderr).to.equal(0);
    expectEscaped(result.stdout);
  });

  it('keeps --json byte-exact', async () => {
    const result = await runCli(['mock', 'log', 'hook', '--json'], env());
    expect((JSON.parse(result.stdout) as { body: string }[])[0]!.body).to.equal(HOSTILE);
  });

  it('shows control characters escaped with --follow, for the log so far and new requests', async () => {
    const following = spawnCli(['mock', 'log', 'live', '--follow'], env());
    try {
      // 'before' comes in the log so far or live; once it is printed the stream is open, so the next is live
      await fetch(`${server.url}/endpoint/live`, { method: 'POST', body: 'before' });
      await following.waitForStdout((out) => out.includes('before'));
      await fetch(`${server.url}/endpoint/live`, { method: 'POST', body: HOSTILE });
      expectEscaped(await following.waitForStdout((out) => out.includes('tab')));
    } finally {
      following.child.kill();
    }
  });

  it('keeps --follow --json byte-exact, one object a line', async () => {
    const following = spawnCli(['mock', 'log', 'hook', '--follow', '--json'], env());
    try {
      const out = await following.waitForStdout((text) => text.includes('\n'));
      expect((JSON.parse(out.split('\n')[0]!) as { body: string }).body).to.equal(HOSTILE);
    } finally {
      following.child.kill();
    }
  });

  it('ends --follow with exit code 0 on Ctrl+C', async () => {
    const following = spawnCli(['mock', 'log', 'hook', '--follow'], env());
    await following.waitForStdout((out) => out.includes('tab'));
    following.child.kill('SIGINT');
    const result = await following.done;
    expect(result.code, result.stderr).to.equal(0);
    expect(result.stderr).to.equal('');
  });

  it('escapes a server message quoted in an error', async () => {
    // a server that answers like the mock API, with a message that would clear the screen
    const hostile = createServer((_req, res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      const message = 'bad\x1b[2J\x1b[32mAll OK\r\nfake line\u202e';
      res.end(JSON.stringify({ success: false, message, field: 'name' }));
    });
    await new Promise<void>((resolve) => hostile.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(hostile.address() as AddressInfo).port}`;
      const result = await runCli(['mock', 'add', 'x', '-', '--server', url], {}, '{}');
      expect(result.code).to.equal(9);
      const shown = 'bad\\x1b[2J\\x1b[32mAll OK\\r\\nfake line\\u202e';
      expect(result.stderr).to.equal(`snippetkit: the mock server refused it: ${shown} (field name)\n`);
    } finally {
      hostile.close();
    }
  });
});

import { expect } from 'chai';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { join } from 'node:path';
import { spawnCli, type CliResult } from '../../helpers/cli.js';
import { freshDatabase, freshRedisPrefix, sharedRedis } from '../../helpers/services.js';
import { tempDir } from '../../helpers/temp.js';

// A server whose port is taken says so and exits 1, whatever it started before trying to listen
// (file watchers, a store's notice subscription): nothing it made may keep the process alive.

const PETSTORE = new URL('../../fixtures/openapi/petstore-3.0.yaml', import.meta.url);


describe('serve-mocks and serve-bins on a port already in use', function () {
  // Generous: a start loads the CLI, opens the store and reads the sources on a busy machine.
  this.timeout(60_000);
  let temp: ReturnType<typeof tempDir>;
  let holder: Server;
  let port: number;
  let started: ChildProcess | undefined;
  beforeEach(async () => {
    temp = tempDir();
    holder = createServer().listen(0, '127.0.0.1');
    await once(holder, 'listening');
    port = (holder.address() as AddressInfo).port;
  });
  afterEach(async () => {
    // One that hangs (the defect) is still running when the test times out: not left behind.
    if (started && started.exitCode === null && started.signalCode === null) started.kill('SIGKILL');
    started = undefined;
    holder.close();
    temp.cleanup();
  });

  /** Runs the built CLI to its exit. */
  const runToExit = (args: string[]): Promise<CliResult> => {
    const running = spawnCli(args);
    started = running.child;
    return running.done;
  };

  const refused = (result: CliResult) => {
    expect([result.code, result.signal, result.stderr]).to.deep.equal([
      1,
      null,
      `snippetkit: port ${port} on 127.0.0.1 is already in use: stop the server that has it (Ctrl+C where it runs) or pass --port with another one\n`,
    ]);
  };

  /** serve-mocks with each flag that starts a watcher (or a writer) before listening. */
  const MOCK_SOURCES: [string, () => string[]][] = [
    ['--dir', () => {
      mkdirSync(join(temp.dir, 'mocks'));
      writeFileSync(join(temp.dir, 'mocks', 'hello.json'), '{"data": {"hello": "world"}}');
      return ['--dir', join(temp.dir, 'mocks')];
    }],
    ['--db', () => {
      writeFileSync(join(temp.dir, 'db.json'), '{"posts": [{"id": 1}]}');
      return ['--db', join(temp.dir, 'db.json')];
    }],
    ['--db --write-db', () => {
      writeFileSync(join(temp.dir, 'db.json'), '{"posts": [{"id": 1}]}');
      return ['--db', join(temp.dir, 'db.json'), '--write-db'];
    }],
    ['--openapi', () => {
      copyFileSync(PETSTORE, join(temp.dir, 'api.yaml'));
      return ['--openapi', join(temp.dir, 'api.yaml')];
    }],
    ['no source', () => []],
  ];

  for (const [name, flags] of MOCK_SOURCES) {
    it(`serve-mocks with ${name} exits 1 and leaves its data file unlocked`, async () => {
      const data = join(temp.dir, 'mocks.sqlite');
      refused(await runToExit(['serve-mocks', '--port', String(port), '--data', data, ...flags()]));
      expect(existsSync(`${data}.lock`)).to.equal(false);
    });
  }

  it('serve-bins exits 1 and leaves its data file unlocked', async () => {
    const data = join(temp.dir, 'bins.sqlite');
    refused(await runToExit(['serve-bins', '--port', String(port), '--data', data]));
    expect(existsSync(`${data}.lock`)).to.equal(false);
  });

  // A shared store holds connections and a subscription to the other instances' notices.
  const STORES = [
    ['PostgreSQL', () => freshDatabase()],
    ['Redis', async () => `${await sharedRedis()}?prefix=${freshRedisPrefix()}`],
  ] as const;
  for (const [engine, fresh] of STORES) {
    for (const command of ['serve-bins', 'serve-mocks']) {
      it(`${command} --store on ${engine} exits 1`, async () => {
        refused(await runToExit([command, '--port', String(port), '--store', await fresh()]));
      });
    }
  }

  it('serve-mocks --dir --store on Redis exits 1', async () => {
    const store = `${await sharedRedis()}?prefix=${freshRedisPrefix()}`;
    refused(await runToExit(['serve-mocks', '--port', String(port), '--store', store, ...MOCK_SOURCES[0]![1]()]));
  });
});

import { expect } from 'chai';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServerProcess, type ServerProcess } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/temp.js';

// Scenario fields in record files under --dir (YAML), served by the built CLI: `npm run build` first.

const CHECKOUT_YAML = `- name: cart
  path: cart
  methods: [GET]
  scenario: checkout
  data: { items: [] }
  responses:
    - when: { state: item added }
      data: { items: [book] }
    - when: { state: paid }
      data: { items: [book], paid: true }
- name: cart-items
  path: cart/items
  methods: [POST]
  scenario: checkout
  statusCode: 201
  data: { added: book }
  setState: item added
- name: pay
  path: payments
  methods: [POST]
  scenario: checkout
  statusCode: 409
  data: { error: the cart is empty }
  responses:
    - when: { state: item added }
      statusCode: 201
      data: { paid: true }
      setState: paid
`;

describe('serve-mocks --dir: scenarios in record files', function () {
  this.timeout(30_000);
  let temp: ReturnType<typeof tempDir>;
  let server: ServerProcess | undefined;
  let mocks: string;
  beforeEach(() => {
    temp = tempDir();
    mocks = join(temp.dir, 'mocks');
    mkdirSync(mocks);
  });
  afterEach(async () => {
    await server?.stop();
    server = undefined;
    temp.cleanup();
  });

  const start = async () => {
    server = await startServerProcess(['serve-mocks', '--port', '0', '--data', join(temp.dir, 'data.sqlite'), '--dir', mocks]);
  };
  const call = async (path: string, method = 'GET') => {
    const res = await fetch(`${server!.url}/endpoint/${path}`, { method });
    return [res.status, await res.json()];
  };
  const states = async () => ((await (await fetch(`${server!.url}/api/scenarios`)).json()) as { scenarios: object }).scenarios;

  it('walks the checkout from a YAML file, and keeps its state across a restart', async () => {
    writeFileSync(join(mocks, 'checkout.yaml'), CHECKOUT_YAML);
    await start();
    expect(await states()).to.deep.equal({ checkout: 'start' });
    expect(await call('payments', 'POST')).to.deep.equal([409, { error: 'the cart is empty' }]);
    expect(await call('cart/items', 'POST')).to.deep.equal([201, { added: 'book' }]);
    expect(await call('cart')).to.deep.equal([200, { items: ['book'] }]);
    await server!.stop();
    await start();
    expect(await states()).to.deep.equal({ checkout: 'item added' });
    expect(await call('payments', 'POST')).to.deep.equal([201, { paid: true }]);
    expect(await call('cart')).to.deep.equal([200, { items: ['book'], paid: true }]);
  });

  it('reports a setState without scenario in a file as that field, and serves nothing of it', async () => {
    writeFileSync(join(mocks, 'bad.yaml'), 'data: 1\nsetState: paid\n');
    await start();
    const { errors } = (await (await fetch(`${server!.url}/api/sources`)).json()) as { errors: Record<string, unknown>[] };
    expect(errors).to.have.length(1);
    expect(errors[0]).to.deep.include({
      field: 'setState',
      message: 'setState needs a scenario: name the endpoint\'s scenario with "scenario" (such as "scenario": "checkout")',
    });
    expect((await fetch(`${server!.url}/endpoint/bad`)).status).to.equal(404);
  });
});

// A mocha suite that uses snippetkit's mock server through its public API only: a server per test,
// stubs, the code under test, verification, reset, and what a failed verification says.
import { strict as assert } from 'node:assert';
import { MockApiError, startMockServer, type MockServer } from 'snippetkit';
import { OrderClient } from './order-client.js';

describe('OrderClient against a mock of the orders API', () => {
  let mocks: MockServer;
  let client: OrderClient;

  beforeEach(async () => {
    mocks = await startMockServer({
      endpoints: [{ name: 'order', path: 'orders/:id', methods: ['GET'], data: { id: '{{params.id}}', sku: 'tea', status: 'paid' }, template: true }],
    });
    client = new OrderClient(mocks.endpointUrl(''));
  });
  afterEach(() => mocks.close());

  it('places an order and sends the SKU and quantity', async () => {
    await mocks.add({ name: 'place', path: 'orders', methods: ['POST'], statusCode: 201, data: { id: 7, sku: 'tea', status: 'new' } });
    const order = await client.place('tea', 2);
    assert.deepEqual(order, { id: 7, sku: 'tea', status: 'new' });
    const [sent] = await mocks.verify('place', { count: 1, method: 'POST', bodyContains: '{"sku":"tea","quantity":2}' });
    assert.equal(sent!.headers['content-type'], 'application/json');
  });

  it('reads an order by id through a templated endpoint', async () => {
    assert.deepEqual(await client.get(42), { id: '42', sku: 'tea', status: 'paid' });
    await mocks.verify('order', { count: 1, path: 'orders/42' });
  });

  it('turns a 402 into "payment declined", and makes no second call', async () => {
    await mocks.add({ name: 'place', path: 'orders', methods: ['POST'], statusCode: 402, data: { error: 'declined' } });
    await assert.rejects(client.place('tea'), /payment declined/);
    await mocks.verify('place', { count: 1 });
  });

  it('starts again from nothing after reset()', async () => {
    await client.get(1);
    await mocks.reset();
    assert.deepEqual(await mocks.list(), []);
    await assert.rejects(client.get(1), /answered 404/);
  });

  it('says what was expected and what came when a verification fails', async () => {
    await mocks.add({ name: 'place', path: 'orders', methods: ['POST'], statusCode: 201, data: { id: 1 } });
    await client.place('coffee');
    const failure = await mocks.verify('place', { count: 1, bodyContains: '{"sku":"tea"}' }).then(
      () => assert.fail('the verification should have failed'),
      (err: unknown) => err,
    );
    assert.ok(failure instanceof MockApiError);
    assert.equal(failure.status, 417);
    assert.equal(
      failure.message,
      [
        'expected exactly 1 request matching {"name":"place","bodyContains":"{\\"sku\\":\\"tea\\"}"}, got 0',
        'closest requests:',
        '  POST /endpoint/orders  (place)',
        '    body: expected "contains {\\"sku\\":\\"tea\\"}", got "{\\"sku\\":\\"coffee\\",\\"quantity\\":1}"',
      ].join('\n'),
    );
  });
});

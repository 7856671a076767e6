// The records of the checkout recipe (docs/testing-with-mocks.md, "Stateful scenarios"), for the scenario tests.

/** The checkout recipe of docs/testing-with-mocks.md: cart empty, then an item added, then paid. */
export const CHECKOUT = [
  {
    name: 'cart',
    path: 'cart',
    methods: ['GET'],
    scenario: 'checkout',
    data: { items: [] },
    responses: [
      { when: { state: 'item added' }, data: { items: ['book'] } },
      { when: { state: 'paid' }, data: { items: ['book'], paid: true } },
    ],
  },
  {
    name: 'cart-items',
    path: 'cart/items',
    methods: ['POST'],
    scenario: 'checkout',
    statusCode: 201,
    data: { added: 'book' },
    setState: 'item added',
    responses: [{ when: { state: 'paid' }, statusCode: 409, data: { error: 'already paid' } }],
  },
  {
    name: 'pay',
    path: 'payments',
    methods: ['POST'],
    scenario: 'checkout',
    statusCode: 409,
    data: { error: 'the cart is empty' },
    responses: [{ when: { state: 'item added' }, statusCode: 201, data: { paid: true }, setState: 'paid' }],
  },
];

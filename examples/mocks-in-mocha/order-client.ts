// The code under test: a small client of an orders API, given the API's base URL.
export type Order = { id: number; sku: string; status: string };

export class OrderClient {
  constructor(private readonly base: string) {}

  async place(sku: string, quantity = 1): Promise<Order> {
    const res = await fetch(new URL('orders', this.base), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sku, quantity }),
    });
    if (res.status === 402) throw new Error('payment declined');
    if (!res.ok) throw new Error(`the orders API answered ${res.status}`);
    return (await res.json()) as Order;
  }

  async get(id: number): Promise<Order> {
    const res = await fetch(new URL(`orders/${id}`, this.base));
    if (!res.ok) throw new Error(`the orders API answered ${res.status}`);
    return (await res.json()) as Order;
  }
}

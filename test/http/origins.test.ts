import { expect } from 'chai';
import { isLoopbackOrigin, isWrite, originPolicy } from '../../src/http/origins.js';
import { normalizeOrigin } from '../../src/server/setting-schemas.js';

describe('the Origins policy', () => {
  for (const [given, origin] of [
    ['https://app.example', 'https://app.example'],
    ['HTTPS://App.Example/', 'https://app.example'],
    ['https://app.example:443', 'https://app.example'],
    ['http://10.0.0.5:8080', 'http://10.0.0.5:8080'],
    ['http://[::1]:5173', 'http://[::1]:5173'],
    [' http://localhost:3000 ', 'http://localhost:3000'],
  ]) {
    it(`reads ${JSON.stringify(given)} as ${origin}`, () => {
      expect(normalizeOrigin(given!)).to.equal(origin);
    });
  }

  for (const given of ['null', 'app.example', 'ftp://app.example', 'https://app.example/app', 'https://u@app.example', 'https://app.example?x', 'https://app.example#x', 'file:///tmp/x.html', '']) {
    it(`refuses ${JSON.stringify(given)} as an origin`, () => {
      expect(normalizeOrigin(given)).to.equal(undefined);
    });
  }

  it('counts localhost, 127.0.0.1 and [::1] as loopback, on any port and either scheme, and nothing else', () => {
    const loopback = ['http://localhost', 'http://localhost:5173', 'https://localhost:8443', 'http://127.0.0.1:9', 'http://[::1]:1'];
    const others = ['http://127.0.0.2', 'http://localhost.example', 'http://0.0.0.0', 'http://app.localhost', 'null', 'ws://localhost'];
    expect(loopback.filter(isLoopbackOrigin)).to.deep.equal(loopback);
    expect(others.filter(isLoopbackOrigin)).to.deep.equal([]);
  });

  it('opens to every page with * among the origins, and drops loopback pages on request', () => {
    expect(originPolicy(['*', 'https://a.example'])).to.deep.include({ any: true, loopback: true });
    expect([...originPolicy(['https://A.example/']).origins]).to.deep.equal(['https://a.example']);
    expect(originPolicy([], { loopback: false })).to.deep.include({ any: false, loopback: false });
  });

  it('calls every method but GET, HEAD and OPTIONS a write', () => {
    const methods = ['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'DELETE', 'PATCH', 'PROPFIND'];
    expect(methods.filter(isWrite)).to.deep.equal(['POST', 'PUT', 'DELETE', 'PATCH', 'PROPFIND']);
  });
});

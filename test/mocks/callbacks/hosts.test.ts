import { expect } from 'chai';
import { callbackHosts, checkCallbackHost } from '../../../src/mocks/callbacks/hosts.js';

const verdict = (hosts: ReturnType<typeof callbackHosts>, url: string) => {
  const judged = hosts.judge(url);
  return judged instanceof URL ? 'sent' : judged.refused;
};

describe('where callbacks may go (--callback-host)', () => {
  it('lets loopback in, however the URL writes it, and nothing else by default', () => {
    const hosts = callbackHosts();
    for (const url of ['http://localhost:4000/x', 'http://127.0.0.1/', 'http://127.9.8.7:1/', 'https://[::1]:8443/', 'http://LOCALHOST/', 'http://0x7f.1/']) {
      expect(verdict(hosts, url), url).to.equal('sent');
    }
    for (const url of ['http://10.0.0.1/', 'http://169.254.169.254/', 'http://[::ffff:127.0.0.1]/', 'http://localhost.evil.test/', 'http://0.0.0.0/']) {
      expect(verdict(hosts, url), url).to.match(/is not an allowed callback host; only loopback is allowed unless/);
    }
  });

  it('lets a named host in on any port, a named host:port on that port only', () => {
    const hosts = callbackHosts(['Hooks.Example.com', 'api.example.com:8443', '10.0.0.5']);
    expect(verdict(hosts, 'https://hooks.example.com/x')).to.equal('sent');
    expect(verdict(hosts, 'http://HOOKS.example.com:81/x')).to.equal('sent');
    expect(verdict(hosts, 'https://api.example.com:8443/')).to.equal('sent');
    expect(verdict(hosts, 'http://10.0.0.5:9/')).to.equal('sent');
    expect(verdict(hosts, 'https://api.example.com/')).to.match(/api\.example\.com is not an allowed callback host; allowed: loopback, Hooks/);
    expect(verdict(hosts, 'https://x.hooks.example.com/')).to.match(/not an allowed/);
  });

  it('refuses what is no http(s) address, and a user or password in it', () => {
    const hosts = callbackHosts();
    expect(verdict(hosts, 'not a url')).to.equal("'not a url' is not an address");
    expect(verdict(hosts, 'file:///etc/passwd')).to.equal("'file:///etc/passwd' is not http:// or https://");
    expect(verdict(hosts, 'http://user:pw@localhost/')).to.equal('the address carries a user name or password');
  });

  it('checks --callback-host values', () => {
    for (const good of ['hooks.example.com', 'a-b.c:8080', '10.0.0.5', '[fd00::1]:443']) expect(checkCallbackHost(good), good).to.equal(undefined);
    for (const bad of ['http://x/', 'x/y', '.example.com', 'a:99999', '', 'a b']) expect(checkCallbackHost(bad), bad).to.be.a('string');
  });
});

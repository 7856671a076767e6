import { expect } from 'chai';
import { addressKey } from '../../src/http/event-stream.js';

describe('addressKey (the address event-stream limits count by)', () => {
  const cases: [string, string][] = [
    ['127.0.0.1', '127.0.0.1'],
    ['::ffff:203.0.113.9', '203.0.113.9'],
    ['2001:db8:1:2:aaaa::1', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002:ffff:1:2:3', '2001:db8:1:2::/64'],
    ['2001:db8::5', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
  ];
  for (const [ip, key] of cases) {
    it(`counts ${ip} as ${key}`, () => expect(addressKey(ip)).to.equal(key));
  }
});

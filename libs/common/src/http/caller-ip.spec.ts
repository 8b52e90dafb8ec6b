import { selfServiceCallerOf, UNREADABLE_CALLER } from './caller-ip.decorator';

describe('selfServiceCallerOf (contract §13 Self-service: the caller is the IPv4 address or the IPv6 /64)', () => {
  it.each([
    ['127.0.0.1', '127.0.0.1'],
    ['203.0.113.9', '203.0.113.9'],
    // An IPv4-mapped IPv6 address is its IPv4 address, however it is written.
    ['::ffff:127.0.0.1', '127.0.0.1'],
    ['::FFFF:203.0.113.9', '203.0.113.9'],
    ['0:0:0:0:0:ffff:cb00:7109', '203.0.113.9'],
    ['::ffff:cb00:7109', '203.0.113.9'],
    // Loopback, in any form, is the service's own host: one caller.
    ['127.0.0.2', '127.0.0.1'],
    ['127.255.0.9', '127.0.0.1'],
    ['::1', '127.0.0.1'],
    ['0:0:0:0:0:0:0:1', '127.0.0.1'],
    ['::ffff:127.0.0.2', '127.0.0.1'],
    // IPv6: the /64 network, in one spelling.
    ['::2', '0:0:0:0::/64'],
    ['2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['2001:0DB8:0001:0002:ffff:eeee:dddd:cccc', '2001:db8:1:2::/64'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:db8::', '2001:db8:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['2001:db8:1:2::1.2.3.4', '2001:db8:1:2::/64'],
    // Not an address: one caller for all of them.
    ['', UNREADABLE_CALLER],
    ['not-an-ip', UNREADABLE_CALLER],
    ['203.0.113.9, 198.51.100.1', UNREADABLE_CALLER],
  ])('%p counts as %p', (ip, caller) => {
    expect(selfServiceCallerOf(ip)).toBe(caller);
  });

  it('puts ::1, 127.0.0.1, 127.0.0.2 and ::ffff:127.0.0.1 together (one host), every address of one /64 together, and other IPv4 addresses apart', () => {
    expect(new Set(['::1', '127.0.0.1', '127.0.0.2', '::ffff:127.0.0.1'].map(selfServiceCallerOf)).size).toBe(1);
    expect(new Set(['2001:db8:a:b::1', '2001:db8:a:b::2', '2001:db8:a:b:ffff::'].map(selfServiceCallerOf)).size).toBe(1);
    expect(selfServiceCallerOf('2001:db8:a:c::1')).not.toBe(selfServiceCallerOf('2001:db8:a:b::1'));
    expect(selfServiceCallerOf('203.0.113.2')).not.toBe(selfServiceCallerOf('203.0.113.1'));
  });
});

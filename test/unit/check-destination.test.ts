import { describe, expect, it } from 'vitest';
import { checkDestination, type Resolver } from '../../packages/server/src/net/guarded-request.js';

// The check a webhook URL meets when it is saved: the first two steps of every delivery
// (docs/webhooks.md, "Network safety"), with a resolver the test controls.
const resolver =
  (answers: Record<string, string[]>): Resolver =>
  async (host) => {
    const found = answers[host];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
const resolve = resolver({
  'public.example.test': ['198.41.0.4', '2001:500:2d::d'],
  'mixed.example.test': ['198.41.0.4', '10.0.0.7'],
  'metadata.example.test': ['169.254.169.254'],
  'none.example.test': [],
});

describe('checkDestination', () => {
  it('a name whose every address is public passes, with the checked addresses', async () => {
    const r = await checkDestination('https://public.example.test/hook', { allowPrivateNetworks: false, resolve });
    expect(r).toMatchObject({
      ok: true,
      hostname: 'public.example.test',
      addresses: [{ address: '198.41.0.4' }, { address: '2001:500:2d::d' }],
    });
  });

  it('one non-public address among public ones refuses it, naming the address and its class', async () => {
    expect(await checkDestination('http://mixed.example.test/', { allowPrivateNetworks: false, resolve })).toEqual({
      ok: false,
      kind: 'refused-address',
      address: '10.0.0.7',
      addressClass: 'private',
    });
    expect(await checkDestination('http://metadata.example.test/', { allowPrivateNetworks: false, resolve })).toMatchObject({
      kind: 'refused-address',
      addressClass: 'link-local',
    });
  });

  it('IP literals are their own answer, parsed as browsers do', async () => {
    expect(await checkDestination('http://0x7f.1/', { allowPrivateNetworks: false, resolve })).toMatchObject({
      kind: 'refused-address',
      address: '127.0.0.1',
      addressClass: 'loopback',
    });
    expect(await checkDestination('http://[fd00::1]/', { allowPrivateNetworks: false, resolve })).toMatchObject({
      kind: 'refused-address',
      addressClass: 'unique-local',
    });
  });

  it('allowPrivateNetworks lets every class through', async () => {
    expect(await checkDestination('http://mixed.example.test/', { allowPrivateNetworks: true, resolve })).toMatchObject({ ok: true });
  });

  it('a name that does not resolve, or has no address, is a dns failure; a slow resolver a timeout; other schemes a bad URL', async () => {
    expect(await checkDestination('http://gone.example.test/', { allowPrivateNetworks: false, resolve })).toMatchObject({ kind: 'dns' });
    expect(await checkDestination('http://none.example.test/', { allowPrivateNetworks: false, resolve })).toMatchObject({ kind: 'dns' });
    const never: Resolver = () => new Promise(() => {});
    expect(await checkDestination('http://slow.example.test/', { allowPrivateNetworks: false, resolve: never, timeoutMs: 50 })).toEqual({
      ok: false,
      kind: 'timeout',
      durationMs: 50,
    });
    expect(await checkDestination('ftp://files.example.test/', { allowPrivateNetworks: false, resolve })).toMatchObject({
      kind: 'bad-url',
    });
  });
});

/** The MCP Registry's HTTP proof of the domain, from the public key the build is given (src/lib/agents/mcp-server.ts). */
import { describe, expect, it } from 'vitest';
import { generateKeyPairSync } from 'node:crypto';
import { registryAuthRecord } from '../../src/lib/agents/mcp-server.ts';

/** The key as the registry's docs derive it: the last 32 bytes of the DER public key, in base64. */
const publicKey = () =>
  generateKeyPairSync('ed25519').publicKey.export({ format: 'der', type: 'spki' }).subarray(-32).toString('base64');

describe('/.well-known/mcp-registry-auth', () => {
  it('is the registry\'s record of the key given, "v=MCPv1; k=ed25519; p=<key>"', () => {
    const key = publicKey();
    expect(registryAuthRecord({ MCP_REGISTRY_PUBLIC_KEY: key })).toBe(`v=MCPv1; k=ed25519; p=${key}\n`);
    expect(registryAuthRecord({ MCP_REGISTRY_PUBLIC_KEY: ` ${key}\n` })).toBe(`v=MCPv1; k=ed25519; p=${key}\n`);
  });

  it('is not built without a key', () => {
    expect(registryAuthRecord({})).toBeUndefined();
    expect(registryAuthRecord({ MCP_REGISTRY_PUBLIC_KEY: '  ' })).toBeUndefined();
  });

  it('fails the build for anything but a 32-byte key in base64, naming the variable', () => {
    const key = publicKey();
    for (const bad of [key.slice(4), `${key}AAAA`, key.replace(/=$/, ''), `v=MCPv1; k=ed25519; p=${key}`, 'not a key'])
      expect(() => registryAuthRecord({ MCP_REGISTRY_PUBLIC_KEY: bad }), bad).toThrow(/MCP_REGISTRY_PUBLIC_KEY/);
  });
});

import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

/**
 * A software WebAuthn authenticator for tests: one ES256 credential, `none` attestation, user
 * present and verified. It builds what a browser hands the page (RegistrationResponseJSON,
 * AuthenticationResponseJSON), and each knob below lets a test forge one part of it.
 */

type Cbor = number | string | Uint8Array | Map<Cbor, Cbor>;

/** Minimal CBOR (RFC 8949 §3): small and negative integers, byte and text strings, maps. */
export function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  const parts = [head(5, value.size)];
  for (const [k, v] of value) parts.push(cbor(k), cbor(v));
  return Buffer.concat(parts);
}

function head(major: number, n: number): Buffer {
  if (n < 24) return Buffer.from([(major << 5) | n]);
  if (n < 0x100) return Buffer.from([(major << 5) | 24, n]);
  if (n < 0x10000) return Buffer.from([(major << 5) | 25, n >> 8, n & 0xff]);
  const b = Buffer.alloc(5);
  b[0] = (major << 5) | 26;
  b.writeUInt32BE(n, 1);
  return b;
}

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

export interface Forgery {
  /** The origin the browser reports in clientDataJSON. */
  origin?: string;
  /** The rpId whose hash starts authenticatorData. */
  rpId?: string;
  /** The challenge signed instead of the one the options gave. */
  challenge?: string;
}

const b64url = (b: Uint8Array) => Buffer.from(b).toString('base64url');

export class SoftwareAuthenticator {
  readonly credentialId = randomBytes(16);
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;
  /** The next assertion's sign count is one more than this; a test may set it back. */
  signCount = 0;
  /** The user handle stored with the credential at registration (discoverable credential). */
  userHandle: string | undefined;

  constructor(private readonly defaults: { origin: string; rpId: string }) {
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = pair.privateKey;
    this.publicKey = pair.publicKey;
  }

  get id(): string {
    return b64url(this.credentialId);
  }

  /** COSE_Key of the credential (RFC 9052 §7, RFC 9053 §7.1.1: kty EC2, alg ES256, crv P-256, x, y). */
  get cosePublicKey(): Buffer {
    const jwk = this.publicKey.export({ format: 'jwk' });
    return cbor(
      new Map<Cbor, Cbor>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x as string, 'base64url')],
        [-3, Buffer.from(jwk.y as string, 'base64url')],
      ]),
    );
  }

  /** `navigator.credentials.create()` answered with `none` attestation. */
  register(options: { challenge: string; user: { id: string } }, forge: Forgery = {}) {
    this.userHandle = options.user.id;
    const clientDataJSON = this.clientData('webauthn.create', forge.challenge ?? options.challenge, forge.origin);
    const attested = Buffer.alloc(18);
    attested.writeUInt16BE(this.credentialId.length, 16);
    const authData = Buffer.concat([
      this.authDataHead(forge.rpId, FLAG_UP | FLAG_UV | FLAG_AT, this.signCount),
      attested,
      this.credentialId,
      this.cosePublicKey,
    ]);
    const attestationObject = cbor(
      new Map<Cbor, Cbor>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      response: { clientDataJSON: b64url(clientDataJSON), attestationObject: b64url(attestationObject), transports: ['internal'] },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** `navigator.credentials.get()`: a signature over authenticatorData ‖ SHA-256(clientDataJSON). */
  assert(options: { challenge: string }, forge: Forgery & { signCount?: number; badSignature?: boolean } = {}) {
    this.signCount = forge.signCount ?? this.signCount + 1;
    const clientDataJSON = this.clientData('webauthn.get', forge.challenge ?? options.challenge, forge.origin);
    const authData = this.authDataHead(forge.rpId, FLAG_UP | FLAG_UV, this.signCount);
    const signed = Buffer.concat([authData, createHash('sha256').update(clientDataJSON).digest()]);
    // A bad signature is well-formed DER, made over other bytes: only the verification can tell.
    const signature = sign('sha256', forge.badSignature ? Buffer.concat([signed, Buffer.from([0])]) : signed, this.privateKey);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        ...(this.userHandle && { userHandle: this.userHandle }),
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  private clientData(type: string, challenge: string, origin?: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin: origin ?? this.defaults.origin, crossOrigin: false }), 'utf8');
  }

  private authDataHead(rpId: string | undefined, flags: number, signCount: number): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(signCount);
    const rpIdHash = createHash('sha256')
      .update(rpId ?? this.defaults.rpId)
      .digest();
    return Buffer.concat([rpIdHash, Buffer.from([flags]), count]);
  }
}
